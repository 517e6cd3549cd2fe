// Management routes: /catalogs/{catalogName}/catalog-roles (CRUD, assignees).
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"

namespace firn::rest::mgmt {

void AddCatalogRoleRoutes(Registrar& routes, access::ManagementService& service) {
  AddListRoute(routes, "/catalogs/{catalogName}/catalog-roles", service,
               &Service::ListCatalogRoles, "roles", CatalogRoleJson);

  routes.Add(Method::kPost, "/catalogs/{catalogName}/catalog-roles",
             [&service](const Call& c) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(NewEntity role, NewEntityRequest(c.req, "catalogRole"));
               FIRN_ASSIGN_OR_RETURN(auto created, service.CreateCatalogRole(
                                                       c.ctx, c.names[0], role.name,
                                                       role.properties));
               return JsonResponse(201, CatalogRoleJson(created));
             });

  AddEntityRoutes(routes, "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}", service,
                  &Service::GetCatalogRole, &Service::UpdateCatalogRole,
                  &Service::DeleteCatalogRole, PropertiesUpdateFromBody, CatalogRoleJson);

  AddListRoute(routes, "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/principal-roles",
               service, &Service::ListAssigneePrincipalRoles, "roles", PrincipalRoleJson);
}

}  // namespace firn::rest::mgmt
