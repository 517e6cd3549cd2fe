// Management routes: /catalogs (list, create, get, update, delete).
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"

namespace firn::rest::mgmt {
namespace {

// Catalogs are stored and answered as the spec's Catalog JSON already.
const json::object& CatalogJson(const json::object& catalog) { return catalog; }

// UpdateCatalogRequest: absent (or null) fields stay as they are.
Result<access::CatalogUpdate> CatalogUpdateFromBody(const json::object& body) {
  access::CatalogUpdate update;
  FIRN_ASSIGN_OR_RETURN(update.current_entity_version, OptionalInt(body, "currentEntityVersion"));
  if (const json::value* p = body.if_contains("properties"); p && !p->is_null()) {
    FIRN_ASSIGN_OR_RETURN(update.properties, StringMap(body, "properties"));
  }
  if (const json::value* s = body.if_contains("storageConfigInfo"); s && !s->is_null()) {
    FIRN_ASSIGN_OR_RETURN(update.storage_config_info, MemberObject(body, "storageConfigInfo"));
  }
  return update;
}

}  // namespace

void AddCatalogRoutes(Registrar& routes, access::ManagementService& service) {
  AddListRoute(routes, "/catalogs", service, &Service::ListCatalogs, "catalogs", CatalogJson);

  routes.Add(Method::kPost, "/catalogs", [&service](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(c.req));
    FIRN_ASSIGN_OR_RETURN(json::object catalog, MemberObject(body, "catalog"));
    FIRN_ASSIGN_OR_RETURN(json::object created, service.CreateCatalog(c.ctx, catalog));
    return JsonResponse(201, created);
  });

  AddEntityRoutes(routes, "/catalogs/{catalogName}", service, &Service::GetCatalog,
                  &Service::UpdateCatalog, &Service::DeleteCatalog, CatalogUpdateFromBody,
                  CatalogJson);
}

}  // namespace firn::rest::mgmt
