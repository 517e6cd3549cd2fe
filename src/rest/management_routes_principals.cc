// Management routes: /principals (CRUD, rotate, reset) and their principal roles.
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"

namespace firn::rest::mgmt {
namespace {

using access::ManagementContext;
using http::Method;
using http::PathParams;
using http::Request;
using http::Response;
namespace json = boost::json;

// Credentials are in the body: no intermediary may keep a copy.
Response CredentialsResponse(int status, const access::PrincipalWithCredentials& p) {
  Response r = JsonResponse(status, PrincipalWithCredentialsJson(p));
  r.SetHeader("Cache-Control", "no-store");
  return r;
}

}  // namespace

void AddPrincipalRoutes(Registrar& routes, access::ManagementService& service) {
  routes.Add(Method::kGet, "/principals",
             [&service](const Request&, const PathParams&,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(auto principals, service.ListPrincipals(ctx));
               return PrincipalsResponse(principals);
             });

  routes.Add(Method::kPost, "/principals",
             [&service](const Request& req, const PathParams&,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
               FIRN_ASSIGN_OR_RETURN(json::object principal, MemberObject(body, "principal"));
               FIRN_ASSIGN_OR_RETURN(std::string name, RequiredString(principal, "name"));
               FIRN_ASSIGN_OR_RETURN(store::Properties props, StringMap(principal, "properties"));
               FIRN_ASSIGN_OR_RETURN(bool rotation_required,
                                     OptionalBool(body, "credentialRotationRequired", false));
               if (rotation_required) {
                 return Fail(ErrorKind::kBadRequest,
                             "credentialRotationRequired is not supported by Firn");
               }
               FIRN_ASSIGN_OR_RETURN(auto created, service.CreatePrincipal(ctx, name, props));
               return CredentialsResponse(201, created);
             });

  routes.Add(Method::kGet, "/principals/{principalName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalName"));
               FIRN_ASSIGN_OR_RETURN(auto p, service.GetPrincipal(ctx, name));
               return JsonResponse(200, PrincipalJson(p));
             });

  routes.Add(Method::kPut, "/principals/{principalName}",
             [&service](const Request& req, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalName"));
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
               FIRN_ASSIGN_OR_RETURN(access::PropertiesUpdate update,
                                     PropertiesUpdateFromBody(body));
               FIRN_ASSIGN_OR_RETURN(auto p, service.UpdatePrincipal(ctx, name, update));
               return JsonResponse(200, PrincipalJson(p));
             });

  routes.Add(Method::kDelete, "/principals/{principalName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalName"));
               FIRN_RETURN_IF_ERROR(service.DeletePrincipal(ctx, name));
               return Response::Empty(204);
             });

  routes.Add(Method::kPost, "/principals/{principalName}/rotate",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalName"));
               FIRN_ASSIGN_OR_RETURN(auto p, service.RotateCredentials(ctx, name));
               return CredentialsResponse(200, p);
             });

  routes.Add(Method::kPost, "/principals/{principalName}/reset",
             [&service](const Request& req, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalName"));
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req, /*optional=*/true));
               access::CredentialsReset reset;
               FIRN_ASSIGN_OR_RETURN(reset.client_id, OptionalString(body, "clientId"));
               FIRN_ASSIGN_OR_RETURN(auto secret, OptionalString(body, "clientSecret"));
               if (secret) reset.client_secret = Secret(std::move(*secret));
               FIRN_ASSIGN_OR_RETURN(auto p, service.ResetCredentials(ctx, name, reset));
               return CredentialsResponse(200, p);
             });

  routes.Add(Method::kGet, "/principals/{principalName}/principal-roles",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalName"));
               FIRN_ASSIGN_OR_RETURN(auto roles, service.ListPrincipalRolesAssigned(ctx, name));
               return RolesResponse(roles, true);
             });

  routes.Add(Method::kPut, "/principals/{principalName}/principal-roles",
             [&service](const Request& req, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalName"));
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
               FIRN_ASSIGN_OR_RETURN(json::object role, MemberObject(body, "principalRole"));
               FIRN_ASSIGN_OR_RETURN(std::string role_name, RequiredString(role, "name"));
               FIRN_RETURN_IF_ERROR(service.AssignPrincipalRole(ctx, name, role_name));
               return Response::Empty(201);
             });

  routes.Add(Method::kDelete, "/principals/{principalName}/principal-roles/{principalRoleName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "principalName"));
               FIRN_ASSIGN_OR_RETURN(std::string role, NameParam(params, "principalRoleName"));
               FIRN_RETURN_IF_ERROR(service.RevokePrincipalRole(ctx, name, role));
               return Response::Empty(204);
             });
}

}  // namespace firn::rest::mgmt
