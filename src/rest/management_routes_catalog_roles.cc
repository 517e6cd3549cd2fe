// Management routes: /catalogs/{catalogName}/catalog-roles (CRUD, assignees).
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

void AddCatalogRoleRoutes(Registrar& routes, access::ManagementService& service) {
  routes.Add(Method::kGet, "/catalogs/{catalogName}/catalog-roles",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string catalog, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(auto roles, service.ListCatalogRoles(ctx, catalog));
               return RolesResponse(roles, false);
             });

  routes.Add(Method::kPost, "/catalogs/{catalogName}/catalog-roles",
             [&service](const Request& req, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string catalog, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
               FIRN_ASSIGN_OR_RETURN(json::object role, MemberObject(body, "catalogRole"));
               FIRN_ASSIGN_OR_RETURN(std::string name, RequiredString(role, "name"));
               FIRN_ASSIGN_OR_RETURN(store::Properties props, StringMap(role, "properties"));
               FIRN_ASSIGN_OR_RETURN(auto created,
                                     service.CreateCatalogRole(ctx, catalog, name, props));
               return JsonResponse(201, RoleJson(created, false));
             });

  routes.Add(Method::kGet, "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string catalog, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "catalogRoleName"));
               FIRN_ASSIGN_OR_RETURN(auto role, service.GetCatalogRole(ctx, catalog, name));
               return JsonResponse(200, RoleJson(role, false));
             });

  routes.Add(Method::kPut, "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}",
             [&service](const Request& req, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string catalog, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "catalogRoleName"));
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
               FIRN_ASSIGN_OR_RETURN(access::PropertiesUpdate update,
                                     PropertiesUpdateFromBody(body));
               FIRN_ASSIGN_OR_RETURN(auto role,
                                     service.UpdateCatalogRole(ctx, catalog, name, update));
               return JsonResponse(200, RoleJson(role, false));
             });

  routes.Add(Method::kDelete, "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string catalog, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "catalogRoleName"));
               FIRN_RETURN_IF_ERROR(service.DeleteCatalogRole(ctx, catalog, name));
               return Response::Empty(204);
             });

  routes.Add(Method::kGet,
             "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/principal-roles",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string catalog, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "catalogRoleName"));
               FIRN_ASSIGN_OR_RETURN(auto roles,
                                     service.ListAssigneePrincipalRoles(ctx, catalog, name));
               return RolesResponse(roles, true);
             });
}

}  // namespace firn::rest::mgmt
