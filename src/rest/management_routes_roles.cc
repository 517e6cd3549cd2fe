// Management routes: /principal-roles (CRUD, assignees, catalog roles of a principal role).
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"

namespace firn::rest::mgmt {

void AddPrincipalRoleRoutes(Registrar& routes, access::ManagementService& service) {
  AddListRoute(routes, "/principal-roles", service, &Service::ListPrincipalRoles, "roles",
               PrincipalRoleJson);

  routes.Add(Method::kPost, "/principal-roles", [&service](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(NewEntity role, NewEntityRequest(c.req, "principalRole"));
    FIRN_ASSIGN_OR_RETURN(bool federated, OptionalBool(role.entity, "federated", false));
    if (federated) {
      return Fail(ErrorKind::kBadRequest,
                  "Federated principal roles are not supported by Firn; external "
                  "(OIDC) roles need no principal role entity");
    }
    FIRN_ASSIGN_OR_RETURN(auto created,
                          service.CreatePrincipalRole(c.ctx, role.name, role.properties));
    return JsonResponse(201, PrincipalRoleJson(created));
  });

  AddEntityRoutes(routes, "/principal-roles/{principalRoleName}", service,
                  &Service::GetPrincipalRole, &Service::UpdatePrincipalRole,
                  &Service::DeletePrincipalRole, PropertiesUpdateFromBody, PrincipalRoleJson);

  AddListRoute(routes, "/principal-roles/{principalRoleName}/principals", service,
               &Service::ListAssigneePrincipals, "principals", PrincipalJson);

  constexpr std::string_view kCatalogRolesPath =
      "/principal-roles/{principalRoleName}/catalog-roles/{catalogName}";
  AddListRoute(routes, kCatalogRolesPath, service, &Service::ListCatalogRolesForPrincipalRole,
               "roles", CatalogRoleJson);

  routes.Add(Method::kPut, kCatalogRolesPath, [&service](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(std::string role, MemberName(c.req, "catalogRole"));
    FIRN_RETURN_IF_ERROR(service.AssignCatalogRole(c.ctx, c.names[0], c.names[1], role));
    return Response::Empty(201);
  });

  AddNamedActionRoute(routes, Method::kDelete,
                      std::string(kCatalogRolesPath) + "/{catalogRoleName}", service,
                      &Service::RevokeCatalogRole, 204);
}

}  // namespace firn::rest::mgmt
