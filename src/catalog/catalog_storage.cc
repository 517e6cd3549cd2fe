// CatalogService::ObjectsOf: which object store reaches a catalog's files (a catalog's storage
// profile may name its own internal endpoint, region, path style and server-side keys;
// docs/vending.md, "Server-side keys and endpoints"). Part of catalog_service.h.
#include <spdlog/spdlog.h>

#include <utility>

#include "catalog/catalog_service.h"
#include "catalog/location_policy.h"
#include "common/log.h"

namespace firn::catalog {
namespace {

// Every call answers the error a catalog's connection could not be built with: a catalog the
// server cannot reach fails its reads and writes clearly instead of reaching the store with
// the wrong keys.
class UnreachableStore final : public io::ObjectStore {
 public:
  explicit UnreachableStore(Error error) : error_(std::move(error)) {}
  Result<std::string> Read(std::string_view) override { return Fail(error_); }
  Result<std::string> ReadAtMost(std::string_view, size_t) override { return Fail(error_); }
  Status WriteNew(std::string_view, std::string_view) override { return Fail(error_); }
  Status Delete(std::string_view) override { return Fail(error_); }
  Result<bool> Exists(std::string_view) override { return Fail(error_); }
  Result<std::vector<io::ObjectInfo>> List(std::string_view) override { return Fail(error_); }

 private:
  const Error error_;
};

// Identifies a connection (never printed: it holds the access key id, not the secret).
std::string ConnectionKey(const io::s3::S3Config& c, const std::string& storage_name) {
  return c.endpoint + "\n" + c.region + "\n" + (c.path_style_access ? "path" : "vhost") + "\n" +
         storage_name + "\n" + c.access_key_id;
}

}  // namespace

io::ObjectStore& CatalogService::ObjectsOf(const RequestContext& ctx) {
  const CatalogInfo& catalog = CatalogOf(ctx, catalogs_);
  // The common case costs one branch: the catalog uses the server's own connection.
  if (!vendor_ || !CredentialVendor::HasOwnConnection(catalog)) return *objects_;
  auto connection = vendor_->ServerConnection(catalog);
  const std::string key = connection ? ConnectionKey(*connection, catalog.storage.storage_name)
                                     : "unreachable\n" + catalog.name;
  std::lock_guard lock(own_stores_mu_);
  auto it = own_stores_.find(key);
  if (it != own_stores_.end()) return *it->second;
  std::shared_ptr<io::ObjectStore> made;
  if (connection) {
    io::ObjectStoreConfig config;
    config.s3 = std::move(*connection);
    auto store = io::MakeObjectStore(config);
    if (store) {
      made = std::move(*store);
    } else {
      spdlog::error(R"("msg":"cannot reach a catalog's store","catalog":"{}","error":"{}")",
                    log::Escape(catalog.name), log::Escape(store.error().message));
      made = std::make_shared<UnreachableStore>(
          Error(ErrorKind::kInternal,
                "The storage of catalog '" + catalog.name + "' is not configured here",
                store.error().message));
    }
  } else {
    spdlog::error(R"("msg":"cannot reach a catalog's store","catalog":"{}","error":"{}")",
                  log::Escape(catalog.name), log::Escape(connection.error().detail));
    made = std::make_shared<UnreachableStore>(connection.error());
  }
  return *own_stores_.emplace(key, std::move(made)).first->second;
}

}  // namespace firn::catalog
