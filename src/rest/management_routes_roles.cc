// Management routes: /principal-roles (CRUD, assignees, catalog roles of a principal role).
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"

namespace firn::rest::mgmt {

using access::ManagementContext;
using http::Method;
using http::PathParams;
using http::Request;
using http::Response;
namespace json = boost::json;

void AddPrincipalRoleRoutes(Registrar& routes, access::ManagementService& service) {
  routes.Add(Method::kGet, "/principal-roles",
             [&service](const Request&, const PathParams&,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(auto roles, service.ListPrincipalRoles(ctx));
               return RolesResponse(roles, true);
             });

  routes.Add(Method::kPost, "/principal-roles",
             [&service](const Request& req, const PathParams&,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
               FIRN_ASSIGN_OR_RETURN(json::object role, MemberObject(body, "principalRole"));
               FIRN_ASSIGN_OR_RETURN(std::string name, RequiredString(role, "name"));
               FIRN_ASSIGN_OR_RETURN(store::Properties props, StringMap(role, "properties"));
               FIRN_ASSIGN_OR_RETURN(bool federated, OptionalBool(role, "federated", false));
               if (federated) {
                 return Fail(ErrorKind::kBadRequest,
                             "Federated principal roles are not supported by Firn; external "
                             "(OIDC) roles need no principal role entity");
               }
               FIRN_ASSIGN_OR_RETURN(auto created, service.CreatePrincipalRole(ctx, name, props));
               return JsonResponse(201, RoleJson(created, true));
             });

  routes.Add(Method::kGet, "/principal-roles/{principalRoleName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalRoleName"));
               FIRN_ASSIGN_OR_RETURN(auto role, service.GetPrincipalRole(ctx, name));
               return JsonResponse(200, RoleJson(role, true));
             });

  routes.Add(Method::kPut, "/principal-roles/{principalRoleName}",
             [&service](const Request& req, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalRoleName"));
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
               FIRN_ASSIGN_OR_RETURN(access::PropertiesUpdate update,
                                     PropertiesUpdateFromBody(body));
               FIRN_ASSIGN_OR_RETURN(auto role, service.UpdatePrincipalRole(ctx, name, update));
               return JsonResponse(200, RoleJson(role, true));
             });

  routes.Add(Method::kDelete, "/principal-roles/{principalRoleName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalRoleName"));
               FIRN_RETURN_IF_ERROR(service.DeletePrincipalRole(ctx, name));
               return Response::Empty(204);
             });

  routes.Add(Method::kGet, "/principal-roles/{principalRoleName}/principals",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalRoleName"));
               FIRN_ASSIGN_OR_RETURN(auto principals, service.ListAssigneePrincipals(ctx, name));
               return PrincipalsResponse(principals);
             });

  routes.Add(Method::kGet, "/principal-roles/{principalRoleName}/catalog-roles/{catalogName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string role, NameParam(params, "principalRoleName"));
               FIRN_ASSIGN_OR_RETURN(std::string catalog, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(auto roles,
                                     service.ListCatalogRolesForPrincipalRole(ctx, role, catalog));
               return RolesResponse(roles, false);
             });

  routes.Add(Method::kPut, "/principal-roles/{principalRoleName}/catalog-roles/{catalogName}",
             [&service](const Request& req, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string role, NameParam(params, "principalRoleName"));
               FIRN_ASSIGN_OR_RETURN(std::string catalog, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
               FIRN_ASSIGN_OR_RETURN(json::object cr, MemberObject(body, "catalogRole"));
               FIRN_ASSIGN_OR_RETURN(std::string cr_name, RequiredString(cr, "name"));
               FIRN_RETURN_IF_ERROR(service.AssignCatalogRole(ctx, role, catalog, cr_name));
               return Response::Empty(201);
             });

  routes.Add(Method::kDelete,
             "/principal-roles/{principalRoleName}/catalog-roles/{catalogName}/{catalogRoleName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string role, NameParam(params, "principalRoleName"));
               FIRN_ASSIGN_OR_RETURN(std::string catalog, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(std::string cr, NameParam(params, "catalogRoleName"));
               FIRN_RETURN_IF_ERROR(service.RevokeCatalogRole(ctx, role, catalog, cr));
               return Response::Empty(204);
             });
}

}  // namespace firn::rest::mgmt
