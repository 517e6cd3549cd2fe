// Management API registration on the request pipeline, shared JSON helpers.
#include "rest/management_routes.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "common/encoding.h"
#include "common/macros.h"
#include "common/strings.h"
#include "rest/error_model.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"
#include "rest/request_pipeline.h"
#include "rest/route_registrar.h"

namespace firn::rest {
namespace mgmt {
namespace {

constexpr std::string_view kBase = "/api/management/v1";

// The {parameter} names of `tail`, in order.
std::vector<std::string> ParamNames(std::string_view tail) {
  std::vector<std::string> out;
  for (size_t open = tail.find('{'); open != std::string_view::npos;
       open = tail.find('{', open + 1)) {
    size_t close = tail.find('}', open);
    out.emplace_back(tail.substr(open + 1, close - open - 1));
  }
  return out;
}

Result<Response> Run(const Handler& handler, const std::vector<std::string>& param_names,
                     const http::Request& req, const http::PathParams& params,
                     const access::ManagementContext& ctx) {
  std::vector<std::string> names;
  for (const std::string& param : param_names) {
    FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, param));
    names.push_back(std::move(name));
  }
  return handler(Call{req, names, ctx});
}

}  // namespace

void Registrar::Add(http::Method method, std::string_view tail, Handler handler) {
  router_.Add(method, std::string(kBase) + std::string(tail),
              [handler = std::move(handler), param_names = ParamNames(tail),
               access = access_](const http::Request& req, const http::PathParams& params) {
                RequestCall storage;
                auto call = CallOf(access, req, RouteKind::kAuthenticated, storage);
                if (!call) return Finish(req, std::unexpected(call.error()));
                access::ManagementContext ctx;
                ctx.realm = (*call)->realm;
                ctx.caller = (*call)->caller;
                ctx.client = (*call)->client;
                ctx.request_id = req.request_id;
                return Finish(req, Run(handler, param_names, req, params, ctx));
              });
}

Result<std::string> NameParam(const http::PathParams& params, std::string_view name) {
  auto out = PercentDecodePath(PathParam(params, name));
  if (!out) {
    return Fail(ErrorKind::kBadRequest, "Malformed percent-encoding in " + std::string(name));
  }
  if (out->empty()) return Fail(ErrorKind::kBadRequest, std::string(name) + " must not be empty");
  return std::move(*out);
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

Result<std::string> MemberName(const http::Request& req, std::string_view key) {
  FIRN_ASSIGN_OR_RETURN(boost::json::object body, BodyObject(req));
  FIRN_ASSIGN_OR_RETURN(boost::json::object entity, MemberObject(body, key));
  return RequiredString(entity, "name");
}

Result<NewEntity> NewEntityRequest(const http::Request& req, std::string_view key) {
  NewEntity out;
  FIRN_ASSIGN_OR_RETURN(out.body, BodyObject(req));
  FIRN_ASSIGN_OR_RETURN(out.entity, MemberObject(out.body, key));
  FIRN_ASSIGN_OR_RETURN(out.name, RequiredString(out.entity, "name"));
  FIRN_ASSIGN_OR_RETURN(out.properties, StringMap(out.entity, "properties"));
  return out;
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

}  // namespace mgmt

void AddManagementRoutes(http::Router& router, access::ManagementService& service,
                         access::AccessState& state, const access::Authenticator& authenticator) {
  mgmt::Registrar routes(router, AccessDeps{state, authenticator, /*default_catalog=*/""});
  mgmt::AddCatalogRoutes(routes, service);
  mgmt::AddPrincipalRoutes(routes, service);
  mgmt::AddPrincipalRoleRoutes(routes, service);
  mgmt::AddCatalogRoleRoutes(routes, service);
  mgmt::AddGrantRoutes(routes, service);
  mgmt::AddAuditRoute(routes, service);
  mgmt::AddTasksRoute(routes, service);
  mgmt::AddEventRoutes(routes, service);
}

}  // namespace firn::rest
