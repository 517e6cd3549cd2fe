// Management API registration: authentication per request, shared JSON helpers.
#include "rest/management_routes.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <spdlog/spdlog.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"
#include "rest/error_model.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"
#include "rest/route_registrar.h"

namespace firn::rest {
namespace mgmt {
namespace {

constexpr std::string_view kBase = "/api/management/v1";

// User-Agent and X-Client-* headers, for the audit trail.
std::string ClientOf(const http::Request& req) {
  std::string out(req.GetHeader("User-Agent"));
  for (const auto& h : req.headers) {
    if (h.name.size() > 9 && http::EqualsIgnoreCase(h.name.substr(0, 9), "X-Client-")) {
      if (!out.empty()) out += "; ";
      out += h.name + "=" + h.value;
    }
  }
  return out.substr(0, 512);
}

Result<access::ManagementContext> Authenticate(const http::Request& req,
                                               access::AccessState& state,
                                               const access::Authenticator& authenticator) {
  const access::AuthConfig& config = authenticator.config();
  std::string_view realm = req.GetHeader(config.realm_header);
  if (realm.empty()) realm = req.GetHeader("Polaris-Realm");
  if (realm.empty()) realm = config.default_realm;
  auto snapshot = state.Current();
  if (!snapshot) {
    // Before the first access snapshot loads there is nothing to judge a caller by.
    return Fail(ErrorKind::kServiceUnavailable, "Service is starting, retry later",
                "no access snapshot loaded");
  }
  access::ManagementContext ctx;
  ctx.realm = std::string(realm);
  ctx.client = ClientOf(req);
  ctx.request_id = req.request_id;
  FIRN_ASSIGN_OR_RETURN(ctx.caller,
                        authenticator.Authenticate(realm, req.GetHeader("Authorization"),
                                                   *snapshot, NowMillis() / 1000));
  return ctx;
}

http::Response Finish(const http::Request& req, Result<http::Response> result) {
  if (result) return std::move(*result);
  const Error& e = result.error();
  if (MapError(e.kind).status >= 500) {
    spdlog::error(
        R"("msg":"management request failed","request_id":"{}","kind":"{}","message":"{}","detail":"{}")",
        req.request_id, ErrorKindName(e.kind), log::Escape(e.message), log::Escape(e.detail));
  }
  return ErrorResponse(e);
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void Registrar::Add(http::Method method, std::string_view tail, Handler handler) {
  router_.Add(method, std::string(kBase) + std::string(tail),
              [handler = std::move(handler), &state = state_, &auth = authenticator_](
                  const http::Request& req, const http::PathParams& params) {
                auto ctx = Authenticate(req, state, auth);
                if (!ctx) return Finish(req, std::unexpected(ctx.error()));
                return Finish(req, handler(req, params, *ctx));
              });
}

Result<std::string> NameParam(const http::PathParams& params, std::string_view name) {
  std::string_view raw = PathParam(params, name);
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '%') {
      out.push_back(raw[i]);
      continue;
    }
    int hi = i + 2 < raw.size() ? HexValue(raw[i + 1]) : -1;
    int lo = i + 2 < raw.size() ? HexValue(raw[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      return Fail(ErrorKind::kBadRequest, "Malformed percent-encoding in " + std::string(name));
    }
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  if (out.empty()) return Fail(ErrorKind::kBadRequest, std::string(name) + " must not be empty");
  return out;
}

Result<boost::json::object> BodyObject(const http::Request& req, bool optional) {
  if (optional && req.body.find_first_not_of(" \t\r\n") == std::string::npos) {
    return boost::json::object();
  }
  FIRN_ASSIGN_OR_RETURN(boost::json::value v, ParseJsonBody(req.body));
  if (optional && v.is_null()) return boost::json::object();
  if (!v.is_object()) {
    return Fail(ErrorKind::kBadRequest, "Invalid request body: must be a JSON object");
  }
  return std::move(v.as_object());
}

Result<boost::json::object> MemberObject(const boost::json::object& body, std::string_view key) {
  const boost::json::value* v = body.if_contains(key);
  if (!v || !v->is_object()) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid request body: field '" + std::string(key) + "' must be an object");
  }
  return v->as_object();
}

Result<std::optional<int64_t>> OptionalInt(const boost::json::object& body,
                                           std::string_view key) {
  const boost::json::value* v = body.if_contains(key);
  if (!v || v->is_null()) return std::optional<int64_t>();
  if (v->is_int64()) return std::optional<int64_t>(v->as_int64());
  if (v->is_uint64() && v->as_uint64() <= static_cast<uint64_t>(INT64_MAX)) {
    return std::optional<int64_t>(static_cast<int64_t>(v->as_uint64()));
  }
  return Fail(ErrorKind::kBadRequest,
              "Invalid request body: field '" + std::string(key) + "' must be an integer");
}

Result<int64_t> RequiredInt(const boost::json::object& body, std::string_view key) {
  FIRN_ASSIGN_OR_RETURN(auto v, OptionalInt(body, key));
  if (!v) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid request body: field '" + std::string(key) + "' is required");
  }
  return *v;
}

Result<access::PropertiesUpdate> PropertiesUpdateFromBody(const boost::json::object& body) {
  access::PropertiesUpdate update;
  FIRN_ASSIGN_OR_RETURN(update.current_entity_version, RequiredInt(body, "currentEntityVersion"));
  FIRN_ASSIGN_OR_RETURN(update.properties, StringMap(body, "properties"));
  return update;
}

boost::json::object PropertiesJson(const access::Properties& p) {
  boost::json::object o;
  for (const auto& [k, v] : p) o[k] = v;
  return o;
}

boost::json::object PrincipalJson(const access::PrincipalView& p) {
  boost::json::object o;
  o["name"] = p.name;
  o["clientId"] = p.client_id;
  o["properties"] = PropertiesJson(p.properties);
  o["createTimestamp"] = p.created_ms;
  o["lastUpdateTimestamp"] = p.updated_ms;
  o["entityVersion"] = p.entity_version;
  return o;
}

boost::json::object PrincipalWithCredentialsJson(const access::PrincipalWithCredentials& p) {
  boost::json::object creds;
  creds["clientId"] = p.credentials.client_id;
  creds["clientSecret"] = p.credentials.client_secret.Reveal();  // the one place it is shown
  boost::json::object o;
  o["principal"] = PrincipalJson(p.principal);
  o["credentials"] = std::move(creds);
  return o;
}

boost::json::object RoleJson(const access::RoleView& r, bool principal_role) {
  boost::json::object o;
  o["name"] = r.name;
  if (principal_role) o["federated"] = r.federated;
  o["properties"] = PropertiesJson(r.properties);
  o["createTimestamp"] = r.created_ms;
  o["lastUpdateTimestamp"] = r.updated_ms;
  o["entityVersion"] = r.entity_version;
  return o;
}

http::Response JsonResponse(int status, const boost::json::object& body) {
  return http::Response::Json(status, boost::json::serialize(body));
}

http::Response PrincipalsResponse(const std::vector<access::PrincipalView>& principals) {
  boost::json::array items;
  for (const auto& p : principals) items.emplace_back(PrincipalJson(p));
  boost::json::object body;
  body["principals"] = std::move(items);
  return JsonResponse(200, body);
}

http::Response RolesResponse(const std::vector<access::RoleView>& roles, bool principal_roles) {
  boost::json::array items;
  for (const auto& r : roles) items.emplace_back(RoleJson(r, principal_roles));
  boost::json::object body;
  body["roles"] = std::move(items);
  return JsonResponse(200, body);
}

}  // namespace mgmt

void AddManagementRoutes(http::Router& router, access::ManagementService& service,
                         access::AccessState& state, const access::Authenticator& authenticator) {
  mgmt::Registrar routes(router, state, authenticator);
  mgmt::AddCatalogRoutes(routes, service);
  mgmt::AddPrincipalRoutes(routes, service);
  mgmt::AddPrincipalRoleRoutes(routes, service);
  mgmt::AddCatalogRoleRoutes(routes, service);
  mgmt::AddGrantRoutes(routes, service);
  mgmt::AddAuditRoute(routes, service);
}

}  // namespace firn::rest
