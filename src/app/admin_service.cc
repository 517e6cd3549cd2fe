#include "app/admin_service.h"

#include "access/access_records.h"
#include "access/object_grants.h"
#include "app/storage_settings.h"
#include "app/store_factory.h"
#include "catalog/store_claims.h"
#include "common/macros.h"
#include "common/uuid.h"

namespace firn::app {

Result<catalog::RequestContext> AdminService::Context(const std::string& realm,
                                                      const std::string& catalog,
                                                      std::string request_id) const {
  catalog::RequestContext ctx;
  ctx.scope = {realm, catalog.empty() ? config.catalog_name : catalog};
  ctx.request_id = std::move(request_id);
  ctx.client = "firn admin";
  auto it = catalogs.find({ctx.scope.realm, ctx.scope.catalog});
  if (it == catalogs.end()) {
    return Fail(ErrorKind::kNoSuchWarehouse, "Catalog does not exist: " + ctx.scope.catalog +
                                                 " (realm " + ctx.scope.realm + ")");
  }
  ctx.catalog = it->second;
  return ctx;
}

Result<std::unique_ptr<AdminService>> OpenAdminService(const StoreFlags& flags,
                                                       bool ensure_deployment) {
  auto admin = std::make_unique<AdminService>();
  FIRN_ASSIGN_OR_RETURN(admin->config, ConfigFromFlags(flags));
  const ServerConfig& config = admin->config;
  FIRN_ASSIGN_OR_RETURN(admin->store, OpenStoreByUrl(config.db_url, config.db_password));
  FIRN_ASSIGN_OR_RETURN(std::shared_ptr<io::ObjectStore> objects, OpenObjectStore(config));
  admin->objects = std::move(objects);
  FIRN_ASSIGN_OR_RETURN(auto roots, StorageRootsOf(config));
  const catalog::CatalogInfo configured = DefaultCatalogInfo(config);
  catalog::CatalogRegistry registry(configured);
  registry.SetStorageRoots(roots);
  admin->service =
      std::make_unique<catalog::CatalogService>(admin->store, admin->objects, registry);
  std::optional<std::string> deployment;
  if (ensure_deployment) {
    FIRN_ASSIGN_OR_RETURN(deployment, admin->store->EnsureSetting(
                                          std::string(catalog::kDeploymentIdSetting),
                                          NewUuidV4()));
  } else {
    FIRN_ASSIGN_OR_RETURN(deployment,
                          admin->store->LoadSetting(std::string(catalog::kDeploymentIdSetting)));
  }
  if (deployment) admin->service->SetDeployment(*deployment);
  admin->service->SetLoadCheckInterval(std::chrono::milliseconds(0));  // no loads to watch
  FIRN_ASSIGN_OR_RETURN(auto vending, VendingSettingsOf(config));
  if (vending) {
    admin->service->SetCredentialVendor(
        std::make_shared<catalog::CredentialVendor>(std::move(*vending)));
  }
  // The catalogs as the database holds them (no signing key is opened).
  FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, admin->store->LoadAccess());
  for (const store::AccessRecord& r : rows.records) {
    if (r.kind != store::AccessKind::kCatalog) continue;
    auto info = access::CatalogInfoFromBody(r.name, r.body);
    if (info) {
      admin->catalogs[{r.realm, r.name}] =
          std::make_shared<const catalog::CatalogInfo>(std::move(*info));
    }
  }
  // A database no server bootstrapped knows only the configured catalog.
  admin->catalogs.try_emplace({config.default_realm, configured.name},
                              std::make_shared<const catalog::CatalogInfo>(configured));
  auto found = &admin->catalogs;  // the AdminService outlives its service
  admin->service->SetCatalogResolver([found](const store::CatalogScope& scope) {
    auto it = found->find({scope.realm, scope.catalog});
    return it == found->end() ? nullptr : it->second;
  });
  admin->service->SetObjectGrants(std::make_shared<access::StoredObjectGrants>(nullptr));
  return admin;
}

}  // namespace firn::app
