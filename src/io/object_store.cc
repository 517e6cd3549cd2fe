#include "io/object_store.h"

#include <cctype>
#include <string>
#include <utility>

#include "common/macros.h"
#include "io/local/local_object_store.h"
#include "io/s3/s3_location.h"
#include "io/s3/s3_object_store.h"

namespace firn::io {
namespace {

// The URI scheme ("s3" in "s3://b/k"), or "" when there is none.
std::string_view SchemeOf(std::string_view uri) {
  size_t colon = uri.find(':');
  if (colon == std::string_view::npos || colon == 0) return {};
  if (!std::isalpha(static_cast<unsigned char>(uri[0]))) return {};
  for (size_t i = 1; i < colon; ++i) {
    unsigned char c = static_cast<unsigned char>(uri[i]);
    if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return {};
  }
  return uri.substr(0, colon);
}

// Sends each URI to the store for its scheme. Thread-safe: the stores are.
class RoutingObjectStore final : public ObjectStore {
 public:
  explicit RoutingObjectStore(std::unique_ptr<ObjectStore> s3 = nullptr) : s3_(std::move(s3)) {}

  Result<std::string> Read(std::string_view uri) override {
    FIRN_ASSIGN_OR_RETURN(ObjectStore * store, Route(uri));
    return store->Read(uri);
  }
  Status WriteNew(std::string_view uri, std::string_view data) override {
    FIRN_ASSIGN_OR_RETURN(ObjectStore * store, Route(uri));
    return store->WriteNew(uri, data);
  }
  Status Delete(std::string_view uri) override {
    FIRN_ASSIGN_OR_RETURN(ObjectStore * store, Route(uri));
    return store->Delete(uri);
  }
  Result<bool> Exists(std::string_view uri) override {
    FIRN_ASSIGN_OR_RETURN(ObjectStore * store, Route(uri));
    return store->Exists(uri);
  }
  Result<std::vector<ObjectInfo>> List(std::string_view prefix) override {
    FIRN_ASSIGN_OR_RETURN(ObjectStore * store, Route(prefix));
    return store->List(prefix);
  }

 private:
  Result<ObjectStore*> Route(std::string_view uri) {
    if (IsLocalUri(uri)) return &local_;
    if (s3::IsS3Uri(uri)) {
      if (s3_ == nullptr) {
        return Fail(ErrorKind::kIllegalArgument, "Unsupported storage scheme: " +
                                                     std::string(SchemeOf(uri)),
                    "S3 storage is not configured (no S3 settings given to MakeObjectStore)");
      }
      return s3_.get();
    }
    std::string_view scheme = SchemeOf(uri);
    if (scheme.empty()) {
      return Fail(ErrorKind::kIllegalArgument,
                  "Storage location must be an absolute path or a URI: " + std::string(uri));
    }
    return Fail(ErrorKind::kIllegalArgument, "Unsupported storage scheme: " + std::string(scheme));
  }

  LocalObjectStore local_;
  std::unique_ptr<ObjectStore> s3_;  // null when S3 is not configured
};

}  // namespace

std::unique_ptr<ObjectStore> MakeDefaultObjectStore() {
  return std::make_unique<RoutingObjectStore>();
}

Result<std::unique_ptr<ObjectStore>> MakeObjectStore(const ObjectStoreConfig& config) {
  std::unique_ptr<ObjectStore> s3;
  if (config.s3) {
    FIRN_ASSIGN_OR_RETURN(s3, s3::S3ObjectStore::Create(*config.s3));
  }
  return std::unique_ptr<ObjectStore>(std::make_unique<RoutingObjectStore>(std::move(s3)));
}

}  // namespace firn::io
