// Management routes: /principals (CRUD, rotate, reset) and their principal roles.
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"

namespace firn::rest::mgmt {
namespace {

// Credentials are in the body: no intermediary may keep a copy.
Response CredentialsResponse(int status, const access::PrincipalWithCredentials& p) {
  Response r = JsonResponse(status, PrincipalWithCredentialsJson(p));
  r.SetHeader("Cache-Control", "no-store");
  return r;
}

}  // namespace

void AddPrincipalRoutes(Registrar& routes, access::ManagementService& service) {
  AddListRoute(routes, "/principals", service, &Service::ListPrincipals, "principals",
               PrincipalJson);

  routes.Add(Method::kPost, "/principals", [&service](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(NewEntity principal, NewEntityRequest(c.req, "principal"));
    FIRN_ASSIGN_OR_RETURN(bool rotation_required,
                          OptionalBool(principal.body, "credentialRotationRequired", false));
    if (rotation_required) {
      return Fail(ErrorKind::kBadRequest, "credentialRotationRequired is not supported by Firn");
    }
    FIRN_ASSIGN_OR_RETURN(auto created,
                          service.CreatePrincipal(c.ctx, principal.name, principal.properties));
    return CredentialsResponse(201, created);
  });

  AddEntityRoutes(routes, "/principals/{principalName}", service, &Service::GetPrincipal,
                  &Service::UpdatePrincipal, &Service::DeletePrincipal,
                  PropertiesUpdateFromBody, PrincipalJson);

  routes.Add(Method::kPost, "/principals/{principalName}/rotate",
             [&service](const Call& c) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(auto p, service.RotateCredentials(c.ctx, c.names[0]));
               return CredentialsResponse(200, p);
             });

  routes.Add(Method::kPost, "/principals/{principalName}/reset",
             [&service](const Call& c) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(c.req, /*optional=*/true));
               access::CredentialsReset reset;
               FIRN_ASSIGN_OR_RETURN(reset.client_id, OptionalString(body, "clientId"));
               FIRN_ASSIGN_OR_RETURN(auto secret, OptionalString(body, "clientSecret"));
               if (secret) reset.client_secret = Secret(std::move(*secret));
               FIRN_ASSIGN_OR_RETURN(auto p, service.ResetCredentials(c.ctx, c.names[0], reset));
               return CredentialsResponse(200, p);
             });

  AddListRoute(routes, "/principals/{principalName}/principal-roles", service,
               &Service::ListPrincipalRolesAssigned, "roles", PrincipalRoleJson);

  routes.Add(Method::kPut, "/principals/{principalName}/principal-roles",
             [&service](const Call& c) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string role, MemberName(c.req, "principalRole"));
               FIRN_RETURN_IF_ERROR(service.AssignPrincipalRole(c.ctx, c.names[0], role));
               return Response::Empty(201);
             });

  AddNamedActionRoute(routes, Method::kDelete,
                      "/principals/{principalName}/principal-roles/{principalRoleName}", service,
                      &Service::RevokePrincipalRole, 204);
}

}  // namespace firn::rest::mgmt
