// Routes that work the same for namespaces, tables and views. The keyed routes decode the
// path's namespace (and the object's name) before the handler runs, so every route addressing
// one namespace or one object decodes and fails alike. The list, exists/drop and rename routes
// take the CatalogService method that does the work, so the decoding, the errors and the
// responses are one code path for both kinds of object.
//
// Thread-safety: registration happens before serving; `service` must outlive serving.
// Errors: as the routes they register (decoding failures are 400 ErrorModel responses).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "catalog/catalog_service.h"
#include "common/macros.h"
#include "rest/route_registrar.h"

namespace firn::rest {

// A handler of a route under one namespace (Key = store::Namespace, from {namespace}) or one
// table or view (Key = store::Identifier, from {namespace} and the path's last parameter).
template <typename Key>
using KeyedHandler = std::function<Result<http::Response>(
    const http::Request&, const Key&, const catalog::RequestContext&)>;

void AddNamespaceRoute(RouteRegistrar& routes, http::Method method, std::string_view path,
                       KeyedHandler<store::Namespace> handler,
                       RouteRegistrar::KeyedRetries keyed = RouteRegistrar::KeyedRetries::kNo);
void AddObjectRoute(RouteRegistrar& routes, http::Method method, std::string_view path,
                    KeyedHandler<store::Identifier> handler,
                    RouteRegistrar::KeyedRetries keyed = RouteRegistrar::KeyedRetries::kNo);

using ListObjectsFn = Result<store::Page<std::string>> (catalog::CatalogService::*)(
    const catalog::RequestContext&, const store::Namespace&, const store::PageRequest&);
template <typename Key>
using KeyActionFn = Status (catalog::CatalogService::*)(const catalog::RequestContext&,
                                                        const Key&);
using RenameObjectFn = Status (catalog::CatalogService::*)(const catalog::RequestContext&,
                                                           const store::Identifier&,
                                                           const store::Identifier&);

// GET `path` ("/namespaces/{namespace}/tables"): ListTablesResponse, paged by the query.
void AddListObjectsRoute(RouteRegistrar& routes, std::string_view path,
                         catalog::CatalogService& service, ListObjectsFn list);
// `method` `path` ("/namespaces/{namespace}/tables/{table}"): 204 when `action` succeeds
// (exists, drop).
void AddNamespaceActionRoute(RouteRegistrar& routes, http::Method method, std::string_view path,
                             catalog::CatalogService& service,
                             KeyActionFn<store::Namespace> action,
                             RouteRegistrar::KeyedRetries keyed);
void AddObjectActionRoute(RouteRegistrar& routes, http::Method method, std::string_view path,
                          catalog::CatalogService& service, KeyActionFn<store::Identifier> action,
                          RouteRegistrar::KeyedRetries keyed);
// POST `path` ("/tables/rename") with RenameTableRequest {source, destination}: 204.
void AddRenameObjectRoute(RouteRegistrar& routes, std::string_view path,
                          catalog::CatalogService& service, RenameObjectFn rename);

// RegisterTableRequest {name, metadata-location, overwrite?} and RegisterViewRequest
// {name, metadata-location}; the name is held to the table or view name rule.
struct RegisterRequest {
  std::string name;
  std::string metadata_location;
  bool overwrite = false;
};
Result<RegisterRequest> ParseRegisterTable(std::string_view body);
Result<RegisterRequest> ParseRegisterView(std::string_view body);

// The two ways a table or view comes into a namespace, both answered by `respond`
// (LoadTableResult / LoadViewResult, from the request and the new object's identifier): POST
// `create_path` ("/namespaces/{namespace}/tables") with a definition decoded by `parse`,
// created by (service.*create)(ctx, namespace, request) (`create_keyed` says whether it
// honours Idempotency-Key); and POST `register_path` (".../register") with a RegisterRequest
// (`parse_register`), passed to register_fn(service, ctx, namespace, request) (keyed).
// `authorize`, when set, runs after parsing and before the create or register (what the
// request's headers ask for beyond the operation itself, e.g. vended credentials).
template <typename Create, typename Loaded>
struct NewObjectRoutes {
  std::string_view create_path;
  Result<Create> (*parse)(std::string_view body);
  Result<Loaded> (catalog::CatalogService::*create)(const catalog::RequestContext&,
                                                    const store::Namespace&, const Create&);
  RouteRegistrar::KeyedRetries create_keyed;
  std::string_view register_path;
  Result<RegisterRequest> (*parse_register)(std::string_view body);
  Result<Loaded> (*register_fn)(catalog::CatalogService&, const catalog::RequestContext&,
                                const store::Namespace&, const RegisterRequest&);
  Result<http::Response> (*respond)(catalog::CatalogService&, const http::Request&,
                                    const catalog::RequestContext&, const store::Identifier&,
                                    const Loaded&);
  Status (*authorize)(catalog::CatalogService&, const http::Request&,
                      const catalog::RequestContext&, const store::Identifier&) = nullptr;
};

template <typename Create, typename Loaded>
void AddNewObjectRoutes(RouteRegistrar& routes, catalog::CatalogService& service,
                        const NewObjectRoutes<Create, Loaded>& r) {
  AddNamespaceRoute(
      routes, http::Method::kPost, r.create_path,
      [&service, r](const http::Request& req, const store::Namespace& ns,
                    const catalog::RequestContext& ctx) -> Result<http::Response> {
        FIRN_ASSIGN_OR_RETURN(Create request, r.parse(req.body));
        const store::Identifier id{ns, request.name};
        if (r.authorize) FIRN_RETURN_IF_ERROR(r.authorize(service, req, ctx, id));
        FIRN_ASSIGN_OR_RETURN(Loaded loaded, (service.*r.create)(ctx, ns, request));
        return r.respond(service, req, ctx, id, loaded);
      },
      r.create_keyed);
  AddNamespaceRoute(
      routes, http::Method::kPost, r.register_path,
      [&service, r](const http::Request& req, const store::Namespace& ns,
                    const catalog::RequestContext& ctx) -> Result<http::Response> {
        FIRN_ASSIGN_OR_RETURN(RegisterRequest request, r.parse_register(req.body));
        const store::Identifier id{ns, request.name};
        if (r.authorize) FIRN_RETURN_IF_ERROR(r.authorize(service, req, ctx, id));
        FIRN_ASSIGN_OR_RETURN(Loaded loaded, r.register_fn(service, ctx, ns, request));
        return r.respond(service, req, ctx, id, loaded);
      },
      RouteRegistrar::KeyedRetries::kYes);
}

}  // namespace firn::rest
