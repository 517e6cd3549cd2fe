#include "app/admin_moves.h"

#include <boost/json.hpp>

#include <iostream>
#include <memory>

#include "access/access_records.h"
#include "access/object_grants.h"
#include "app/admin_commands.h"
#include "app/storage_settings.h"
#include "app/store_factory.h"
#include "catalog/catalog_service.h"
#include "catalog/identifier_json.h"
#include "catalog/store_claims.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::app {
namespace {

int Failed(const Error& e, int code = 1) {
  ReportAdminFailure("firn admin move-table", e);
  return code;
}

boost::json::object Side(const store::CatalogScope& scope, const store::Identifier& id) {
  boost::json::object o;
  o["catalog"] = scope.catalog;
  catalog::PutIdentifier(o, id);
  return o;
}

Result<catalog::MovedObject> Move(const MoveTableArgs& args, const store::Identifier& from,
                                  const store::Identifier& to) {
  FIRN_ASSIGN_OR_RETURN(ServerConfig config, ConfigFromFlags(args.store));
  FIRN_ASSIGN_OR_RETURN(std::shared_ptr<store::CatalogStore> store,
                        OpenStoreByUrl(config.db_url, config.db_password));
  FIRN_ASSIGN_OR_RETURN(std::shared_ptr<io::ObjectStore> objects, OpenObjectStore(config));
  FIRN_ASSIGN_OR_RETURN(auto roots, StorageRootsOf(config));
  catalog::CatalogRegistry catalogs(DefaultCatalogInfo(config));
  catalogs.SetStorageRoots(roots);
  catalog::CatalogService service(store, objects, catalogs);
  FIRN_ASSIGN_OR_RETURN(auto deployment,
                        store->LoadSetting(std::string(catalog::kDeploymentIdSetting)));
  if (deployment) service.SetDeployment(*deployment);
  FIRN_ASSIGN_OR_RETURN(auto vending, VendingSettingsOf(config));
  if (vending) {
    service.SetCredentialVendor(std::make_shared<catalog::CredentialVendor>(std::move(*vending)));
  }
  // The catalogs as the database holds them (no signing key is opened).
  FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, store->LoadAccess());
  auto found = std::make_shared<std::map<std::pair<std::string, std::string>,
                                         std::shared_ptr<const catalog::CatalogInfo>>>();
  for (const store::AccessRecord& r : rows.records) {
    if (r.kind != store::AccessKind::kCatalog) continue;
    auto info = access::CatalogInfoFromBody(r.name, r.body);
    if (info) {
      (*found)[{r.realm, r.name}] = std::make_shared<const catalog::CatalogInfo>(std::move(*info));
    }
  }
  service.SetCatalogResolver([found](const store::CatalogScope& scope) {
    auto it = found->find({scope.realm, scope.catalog});
    return it == found->end() ? nullptr : it->second;
  });
  service.SetObjectGrants(std::make_shared<access::StoredObjectGrants>(nullptr));
  catalog::RequestContext ctx;  // no caller: the operator holds the database itself
  ctx.scope = {args.realm, args.catalog.empty() ? config.catalog_name : args.catalog};
  ctx.request_id = "admin-move-table";
  ctx.client = "firn admin move-table";
  auto it = found->find({ctx.scope.realm, ctx.scope.catalog});
  if (it == found->end()) {
    return Fail(ErrorKind::kNoSuchWarehouse, "Catalog does not exist: " + ctx.scope.catalog);
  }
  ctx.catalog = it->second;
  return service.MoveObject(ctx, args.view ? store::ObjectKind::kView : store::ObjectKind::kTable,
                            from, args.to_catalog, to);
}

}  // namespace

int RunAdminMoveTable(const MoveTableArgs& args) {
  log::Init("info");  // log lines to stderr: stdout is the result's JSON line
  auto from = ParseTableArg(args.table, "--table");
  if (!from) return Failed(from.error(), 2);
  store::Identifier to = *from;
  if (!args.to.empty()) {
    auto parsed = ParseTableArg(args.to, "--to");
    if (!parsed) return Failed(parsed.error(), 2);
    to = std::move(*parsed);
  }
  if (args.to_catalog.empty()) {
    return Failed(Error(ErrorKind::kIllegalArgument, "--to-catalog is required"), 2);
  }
  auto moved = Move(args, *from, to);
  if (!moved) return Failed(moved.error());
  boost::json::object line;
  line["kind"] = moved->kind == store::ObjectKind::kTable ? "table" : "view";
  line["from"] = Side(moved->from_scope, moved->from);
  line["to"] = Side(moved->to_scope, moved->to);
  line["metadata_location"] = moved->metadata_location;
  std::cout << boost::json::serialize(line) << "\n";
  return 0;
}

}  // namespace firn::app
