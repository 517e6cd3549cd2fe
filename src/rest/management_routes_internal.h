// Shared pieces of the management_routes_*.cc files: the authenticating registrar, the JSON
// encoders/decoders of the spec's schemas, and the routes of the shapes several resources
// share (list, get/update/delete of one entity, an action answered with an empty status).
// Internal to firn_rest.
//
// Errors: decoding failures are kBadRequest (400 ErrorModel); the rest come from
// ManagementService. Thread-safety: registration happens before serving; `service` must
// outlive serving.
#pragma once

#include <boost/json/object.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "access/access_state.h"
#include "access/authenticator.h"
#include "access/management_service.h"
#include "common/macros.h"
#include "common/result.h"
#include "http/router.h"
#include "rest/request_pipeline.h"

namespace firn::rest::mgmt {

// mgmt is internal to firn_rest; its route files share these names.
using access::ManagementContext;
using http::Method;
using http::PathParams;
using http::Request;
using http::Response;
namespace json = boost::json;

using Service = access::ManagementService;

// What a handler is given: the request, the path's {parameters} percent-decoded (NameParam) in
// the order the path names them, and who is asking.
struct Call {
  const http::Request& req;
  const std::vector<std::string>& names;
  const access::ManagementContext& ctx;
};
using Handler = std::function<Result<http::Response>(const Call&)>;

// Registers "/api/management/v1" + tail; `handler` gets a ManagementContext made from the
// request's RequestCall (realm, caller, client: request_pipeline.h) and the decoded names (a
// name that does not decode is a 400 before the handler runs), and an error becomes an
// ErrorModel response.
class Registrar {
 public:
  Registrar(http::Router& router, AccessDeps access)
      : router_(router), access_(std::move(access)) {}
  void Add(http::Method method, std::string_view tail, Handler handler);

 private:
  http::Router& router_;
  AccessDeps access_;
};

void AddCatalogRoutes(Registrar& routes, access::ManagementService& service);
void AddPrincipalRoutes(Registrar& routes, access::ManagementService& service);
void AddPrincipalRoleRoutes(Registrar& routes, access::ManagementService& service);
void AddCatalogRoleRoutes(Registrar& routes, access::ManagementService& service);
void AddGrantRoutes(Registrar& routes, access::ManagementService& service);
void AddAuditRoute(Registrar& routes, access::ManagementService& service);
void AddTasksRoute(Registrar& routes, access::ManagementService& service);
void AddEventRoutes(Registrar& routes, access::ManagementService& service);

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

// The "name" of the body object's [key] entity (assignments, which ignore the rest).
Result<std::string> MemberName(const http::Request& req, std::string_view key);
// CreatePrincipalRequest / CreatePrincipalRoleRequest / CreateCatalogRoleRequest: the body
// object, and its [key] {"name": .., "properties": {..}, ...} as `entity` for further fields.
struct NewEntity {
  boost::json::object body;
  boost::json::object entity;
  std::string name;
  store::Properties properties;
};
Result<NewEntity> NewEntityRequest(const http::Request& req, std::string_view key);

boost::json::object PropertiesJson(const access::Properties& p);
boost::json::object PrincipalJson(const access::PrincipalView& p);
boost::json::object PrincipalWithCredentialsJson(const access::PrincipalWithCredentials& p);
boost::json::object RoleJson(const access::RoleView& r, bool principal_role);
inline boost::json::object PrincipalRoleJson(const access::RoleView& r) {
  return RoleJson(r, true);
}
inline boost::json::object CatalogRoleJson(const access::RoleView& r) {
  return RoleJson(r, false);
}

http::Response JsonResponse(int status, const boost::json::object& body);

// {key: [encode(item), ...]}: the body of every management list response.
template <typename Item, typename Encode>
boost::json::object ListBody(std::string_view key, const std::vector<Item>& items,
                             Encode encode) {
  boost::json::array out;
  for (const auto& item : items) out.emplace_back(encode(item));
  boost::json::object body;
  body[key] = std::move(out);
  return body;
}

// --- Routes of the shapes most management resources share. Each calls a ManagementService
// method whose arguments after the context are the path's names, in path order, so one code
// path decodes, answers and fails alike for principals, principal roles, catalog roles,
// catalogs and grants.

template <typename R, typename... Names>
using NamedFn = R (Service::*)(const ManagementContext&, Names...);

// (service.*fn)(ctx, names[0], ..., names[N-1], extra...).
template <size_t N, typename Fn, typename... Extra>
auto CallNamed(Service& service, Fn fn, const Call& c, const Extra&... extra) {
  return [&]<size_t... I>(std::index_sequence<I...>) {
    return (service.*fn)(c.ctx, std::string_view(c.names[I])..., extra...);
  }(std::make_index_sequence<N>{});
}

// GET `path`: 200 ListBody(key, list(names...), encode).
template <typename Item, typename Encode, typename... Names>
void AddListRoute(Registrar& routes, std::string_view path, Service& service,
                  NamedFn<Result<std::vector<Item>>, Names...> list, std::string_view key,
                  Encode encode) {
  routes.Add(Method::kGet, path,
             [&service, list, key = std::string(key), encode](const Call& c) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(auto items, CallNamed<sizeof...(Names)>(service, list, c));
               return JsonResponse(200, ListBody(key, items, encode));
             });
}

// `method` `path`: fn(names...), answered with an empty `status` (204 for a delete).
template <typename... Names>
void AddNamedActionRoute(Registrar& routes, Method method, std::string_view path,
                         Service& service, NamedFn<Status, Names...> fn, int status) {
  routes.Add(method, path, [&service, fn, status](const Call& c) -> Result<Response> {
    FIRN_RETURN_IF_ERROR(CallNamed<sizeof...(Names)>(service, fn, c));
    return Response::Empty(status);
  });
}

// GET, PUT and DELETE of the one entity `path` names: GET answers 200 encode(get(names...));
// PUT decodes the body object with `parse` and answers 200 encode(update(names..., update));
// DELETE answers 204.
// `update` is (ctx, names..., const Update&) -> Result<View>.
template <typename View, typename UpdateFn, typename Update, typename Encode, typename... Names>
void AddEntityRoutes(Registrar& routes, std::string_view path, Service& service,
                     NamedFn<Result<View>, Names...> get, UpdateFn update,
                     NamedFn<Status, Names...> remove,
                     Result<Update> (*parse)(const boost::json::object&), Encode encode) {
  constexpr size_t kNames = sizeof...(Names);
  routes.Add(Method::kGet, path, [&service, get, encode](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(View view, CallNamed<kNames>(service, get, c));
    return JsonResponse(200, encode(view));
  });
  routes.Add(Method::kPut, path,
             [&service, update, parse, encode](const Call& c) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(boost::json::object body, BodyObject(c.req));
               FIRN_ASSIGN_OR_RETURN(Update request, parse(body));
               FIRN_ASSIGN_OR_RETURN(View view, CallNamed<kNames>(service, update, c, request));
               return JsonResponse(200, encode(view));
             });
  AddNamedActionRoute(routes, Method::kDelete, path, service, remove, 204);
}

}  // namespace firn::rest::mgmt
