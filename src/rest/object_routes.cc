#include "rest/object_routes.h"

#include <string>
#include <type_traits>

#include "catalog/input_rules.h"
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/page_responses.h"
#include "rest/request_params.h"

namespace firn::rest {
namespace {

// The name of the path's last {parameter} ("table" in ".../tables/{table}/metrics").
std::string LastParam(std::string_view path) {
  size_t open = path.rfind('{');
  size_t close = path.find('}', open);
  return std::string(path.substr(open + 1, close - open - 1));
}

template <typename Key>
void AddKeyedRoute(RouteRegistrar& routes, http::Method method, std::string_view path,
                   KeyedHandler<Key> handler, RouteRegistrar::KeyedRetries keyed) {
  routes.AddCatalogRoute(
      method, path,
      [handler = std::move(handler), param = LastParam(path)](
          const http::Request& req, const http::PathParams& params,
          const catalog::RequestContext& ctx) -> Result<http::Response> {
        if constexpr (std::is_same_v<Key, store::Namespace>) {
          FIRN_ASSIGN_OR_RETURN(store::Namespace ns, NamespaceParam(params));
          return handler(req, ns, ctx);
        } else {
          FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, param));
          return handler(req, id, ctx);
        }
      },
      keyed);
}

template <typename Key>
void AddActionRoute(RouteRegistrar& routes, http::Method method, std::string_view path,
                    catalog::CatalogService& service, KeyActionFn<Key> action,
                    RouteRegistrar::KeyedRetries keyed) {
  AddKeyedRoute<Key>(
      routes, method, path,
      [&service, action](const http::Request&, const Key& key,
                         const catalog::RequestContext& ctx) -> Result<http::Response> {
        FIRN_RETURN_IF_ERROR((service.*action)(ctx, key));
        return http::Response::Empty(204);
      },
      keyed);
}

// `name_rule` names the name's rule in the 400 ("table name").
Result<RegisterRequest> ParseRegisterRequest(std::string_view text, std::string_view name_rule,
                                             bool with_overwrite) {
  FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(text));
  RegisterRequest out;
  FIRN_ASSIGN_OR_RETURN(out.name, RequiredString(body, "name"));
  FIRN_ASSIGN_OR_RETURN(out.metadata_location, RequiredString(body, "metadata-location"));
  if (with_overwrite) {
    FIRN_ASSIGN_OR_RETURN(out.overwrite, OptionalBool(body, "overwrite", false));
  }
  FIRN_RETURN_IF_ERROR(catalog::ValidateName(name_rule, out.name));
  return out;
}

}  // namespace

void AddNamespaceRoute(RouteRegistrar& routes, http::Method method, std::string_view path,
                       KeyedHandler<store::Namespace> handler,
                       RouteRegistrar::KeyedRetries keyed) {
  AddKeyedRoute(routes, method, path, std::move(handler), keyed);
}

void AddObjectRoute(RouteRegistrar& routes, http::Method method, std::string_view path,
                    KeyedHandler<store::Identifier> handler, RouteRegistrar::KeyedRetries keyed) {
  AddKeyedRoute(routes, method, path, std::move(handler), keyed);
}

void AddListObjectsRoute(RouteRegistrar& routes, std::string_view path,
                         catalog::CatalogService& service, ListObjectsFn list) {
  AddNamespaceRoute(
      routes, http::Method::kGet, path,
      [&service, list](const http::Request& req, const store::Namespace& ns,
                       const catalog::RequestContext& ctx) -> Result<http::Response> {
        FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(req.query));
        FIRN_ASSIGN_OR_RETURN(store::PageRequest page, PageParams(query));
        FIRN_ASSIGN_OR_RETURN(auto result, (service.*list)(ctx, ns, page));
        return IdentifierPageResponse(ns, result);
      });
}

void AddNamespaceActionRoute(RouteRegistrar& routes, http::Method method, std::string_view path,
                             catalog::CatalogService& service,
                             KeyActionFn<store::Namespace> action,
                             RouteRegistrar::KeyedRetries keyed) {
  AddActionRoute(routes, method, path, service, action, keyed);
}

void AddObjectActionRoute(RouteRegistrar& routes, http::Method method, std::string_view path,
                          catalog::CatalogService& service, KeyActionFn<store::Identifier> action,
                          RouteRegistrar::KeyedRetries keyed) {
  AddActionRoute(routes, method, path, service, action, keyed);
}

void AddRenameObjectRoute(RouteRegistrar& routes, std::string_view path,
                          catalog::CatalogService& service, RenameObjectFn rename) {
  routes.AddCatalogRoute(
      http::Method::kPost, path,
      [&service, rename](const http::Request& req, const http::PathParams&,
                         const catalog::RequestContext& ctx) -> Result<http::Response> {
        FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(req.body));
        FIRN_ASSIGN_OR_RETURN(store::Identifier from, IdentifierField(body, "source"));
        FIRN_ASSIGN_OR_RETURN(store::Identifier to, IdentifierField(body, "destination"));
        FIRN_RETURN_IF_ERROR((service.*rename)(ctx, from, to));
        return http::Response::Empty(204);
      },
      RouteRegistrar::KeyedRetries::kYes);
}

Result<RegisterRequest> ParseRegisterTable(std::string_view body) {
  return ParseRegisterRequest(body, "table name", /*with_overwrite=*/true);
}

Result<RegisterRequest> ParseRegisterView(std::string_view body) {
  return ParseRegisterRequest(body, "view name", /*with_overwrite=*/false);
}

}  // namespace firn::rest
