// Shared pieces of the management_routes_*.cc files: the authenticating registrar and the
// JSON encoders/decoders of the spec's schemas. Internal to firn_rest.
#pragma once

#include <boost/json/object.hpp>

#include <functional>
#include <string>
#include <string_view>

#include "access/access_state.h"
#include "access/authenticator.h"
#include "access/management_service.h"
#include "common/result.h"
#include "http/router.h"

namespace firn::rest::mgmt {

using Handler = std::function<Result<http::Response>(
    const http::Request&, const http::PathParams&, const access::ManagementContext&)>;

// Registers "/api/management/v1" + tail; each request is authenticated into a
// ManagementContext before `handler` runs, and an error becomes an ErrorModel response.
class Registrar {
 public:
  Registrar(http::Router& router, access::AccessState& state,
            const access::Authenticator& authenticator)
      : router_(router), state_(state), authenticator_(authenticator) {}
  void Add(http::Method method, std::string_view tail, Handler handler);

 private:
  http::Router& router_;
  access::AccessState& state_;
  const access::Authenticator& authenticator_;
};

void AddCatalogRoutes(Registrar& routes, access::ManagementService& service);
void AddPrincipalRoutes(Registrar& routes, access::ManagementService& service);
void AddPrincipalRoleRoutes(Registrar& routes, access::ManagementService& service);
void AddCatalogRoleRoutes(Registrar& routes, access::ManagementService& service);
void AddGrantRoutes(Registrar& routes, access::ManagementService& service);
void AddAuditRoute(Registrar& routes, access::ManagementService& service);

// A percent-decoded path parameter ('+' stays '+': path rules, not form rules).
Result<std::string> NameParam(const http::PathParams& params, std::string_view name);

// The request body as a JSON object (400 when it is not JSON or not an object). An empty
// body, or JSON null, is an empty object when `optional`.
Result<boost::json::object> BodyObject(const http::Request& req, bool optional = false);
// body[key] as an object (400 when absent or not an object).
Result<boost::json::object> MemberObject(const boost::json::object& body, std::string_view key);
Result<int64_t> RequiredInt(const boost::json::object& body, std::string_view key);
Result<std::optional<int64_t>> OptionalInt(const boost::json::object& body, std::string_view key);
// UpdatePrincipalRequest / UpdatePrincipalRoleRequest / UpdateCatalogRoleRequest:
// {"currentEntityVersion": n, "properties": {...}}.
Result<access::PropertiesUpdate> PropertiesUpdateFromBody(const boost::json::object& body);

boost::json::object PropertiesJson(const access::Properties& p);
boost::json::object PrincipalJson(const access::PrincipalView& p);
boost::json::object PrincipalWithCredentialsJson(const access::PrincipalWithCredentials& p);
boost::json::object RoleJson(const access::RoleView& r, bool principal_role);

http::Response JsonResponse(int status, const boost::json::object& body);
// Principals {principals:[..]}, PrincipalRoles / CatalogRoles {roles:[..]}.
http::Response PrincipalsResponse(const std::vector<access::PrincipalView>& principals);
http::Response RolesResponse(const std::vector<access::RoleView>& roles, bool principal_roles);

}  // namespace firn::rest::mgmt
