#include "io/object_store.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "common/macros.h"
#include "io/local/local_object_store.h"
#include "io/s3/s3_object_store.h"
#include "io/storage_schemes.h"

namespace firn::io {
namespace {

using Stores = std::array<std::unique_ptr<ObjectStore>, kStoreKindCount>;

// Sends each URI to the store its scheme's registry entry names (io/storage_schemes.h).
// Thread-safe: the stores are.
class RoutingObjectStore final : public ObjectStore {
 public:
  // stores[k] serves StoreKind k; null when that kind is not configured.
  explicit RoutingObjectStore(Stores stores) : stores_(std::move(stores)) {}

  Result<std::string> Read(std::string_view uri) override {
    FIRN_ASSIGN_OR_RETURN(ObjectStore * store, Route(uri));
    return store->Read(uri);
  }
  Result<std::string> ReadAtMost(std::string_view uri, size_t max_bytes) override {
    FIRN_ASSIGN_OR_RETURN(ObjectStore * store, Route(uri));
    return store->ReadAtMost(uri, max_bytes);
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
  Result<Children> ListChildren(std::string_view dir) override {
    FIRN_ASSIGN_OR_RETURN(ObjectStore * store, Route(dir));
    return store->ListChildren(dir);
  }

 private:
  Result<ObjectStore*> Route(std::string_view uri) {
    const std::string_view written = UriScheme(uri);
    if (const StorageScheme* scheme = StorageSchemeOf(uri)) {
      if (ObjectStore* store = stores_[static_cast<size_t>(scheme->store)].get()) return store;
      const std::string kind(StoreKindName(scheme->store));
      return Fail(ErrorKind::kIllegalArgument,
                  "Unsupported storage scheme: " + std::string(written),
                  kind + " storage is not configured (no " + kind +
                      " settings given to MakeObjectStore)");
    }
    if (written.empty()) {
      return Fail(ErrorKind::kIllegalArgument,
                  "Storage location must be an absolute path or a URI: " + std::string(uri));
    }
    return Fail(ErrorKind::kIllegalArgument, "Unsupported storage scheme: " + std::string(written));
  }

  Stores stores_;
};

// The store of one kind; null when the configuration leaves that kind out. A StoreKind added
// to the registry without a case here does not compile (-Wswitch, warnings are errors).
Result<std::unique_ptr<ObjectStore>> MakeStore(StoreKind kind, const ObjectStoreConfig& config) {
  switch (kind) {
    case StoreKind::kLocal:
      return std::unique_ptr<ObjectStore>(std::make_unique<LocalObjectStore>());
    case StoreKind::kS3: {
      if (!config.s3) return std::unique_ptr<ObjectStore>();
      FIRN_ASSIGN_OR_RETURN(auto s3, s3::S3ObjectStore::Create(*config.s3));
      return std::unique_ptr<ObjectStore>(std::move(s3));
    }
  }
  return Fail(ErrorKind::kInternal, "Unknown store kind");
}

}  // namespace

Result<ObjectStore::Children> ObjectStore::ListChildren(std::string_view dir) {
  std::string prefix(dir);
  if (prefix.empty() || prefix.back() != '/') prefix.push_back('/');
  FIRN_ASSIGN_OR_RETURN(std::vector<ObjectInfo> all, List(prefix));
  Children out;
  std::string last_dir;
  for (ObjectInfo& info : all) {
    if (!info.uri.starts_with(prefix)) continue;
    const size_t slash = info.uri.find('/', prefix.size());
    if (slash == std::string::npos) {
      out.objects.push_back(std::move(info));
    } else if (std::string sub = info.uri.substr(0, slash + 1); sub != last_dir) {
      last_dir = sub;
      if (std::find(out.dirs.begin(), out.dirs.end(), sub) == out.dirs.end()) {
        out.dirs.push_back(std::move(sub));
      }
    }
  }
  return out;
}

Error ObjectTooLargeError(std::string_view uri, size_t max_bytes) {
  return Error(ErrorKind::kPayloadTooLarge, "Object is larger than " +
                                                std::to_string(max_bytes) + " bytes: " +
                                                std::string(uri));
}

std::unique_ptr<ObjectStore> MakeDefaultObjectStore() {
  // Without S3 settings nothing can fail: the local store is always there.
  return std::move(*MakeObjectStore({}));
}

Result<std::unique_ptr<ObjectStore>> MakeObjectStore(const ObjectStoreConfig& config) {
  Stores stores;
  for (int k = 0; k < kStoreKindCount; ++k) {
    FIRN_ASSIGN_OR_RETURN(stores[k], MakeStore(static_cast<StoreKind>(k), config));
  }
  return std::unique_ptr<ObjectStore>(std::make_unique<RoutingObjectStore>(std::move(stores)));
}

}  // namespace firn::io
