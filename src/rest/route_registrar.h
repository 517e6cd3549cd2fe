// RouteRegistrar: registers each Iceberg REST route under every base path clients use —
// /v1/{prefix}/..., /v1/..., and the same under /api/catalog (Polaris-configured clients) —
// and records the "<VERB> /v1/{prefix}/..." strings that /v1/config advertises, so the
// `endpoints` list is exactly what is served.
//
// Every catalog route runs on the request pipeline (request_pipeline.h): realm, caller, client
// and clock come from the request's RequestCall, established once from the header before the
// body was read; the route adds the catalog from the prefix (or the realm's default) and calls
// the handler with a RequestContext carrying the caller (MakeRequestContext). Authorisation
// itself happens in CatalogService.
//
// Thread-safety: registration happens before serving; handlers then run concurrently.
// Ownership: the registrar and its handlers borrow `router`, `catalogs` and `access`; they must
// outlive serving.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog_registry.h"
#include "catalog/request_context.h"
#include "common/result.h"
#include "http/router.h"
#include "rest/idempotency_guard.h"
#include "rest/request_pipeline.h"

namespace firn::rest {

using CatalogHandler = std::function<Result<http::Response>(
    const http::Request&, const http::PathParams&, const catalog::RequestContext&)>;

// Realm, caller and catalog of one request, from its RequestCall (the one admission attached,
// else established now: CallOf). Errors: kNotAuthorized (401) and kServiceUnavailable from
// establishing the call; kNoSuchWarehouse "Catalog does not exist: x" for an unknown prefix.
// With authentication off, a catalog missing from the snapshot is taken from `catalogs` (the
// configured catalog serves before any bootstrap). `params` may be empty (routes without a
// prefix, e.g. /v1/config). With require_catalog false (root routes) a realm without its
// default catalog still gets a context (catalog null).
Result<catalog::RequestContext> MakeRequestContext(const AccessDeps& access,
                                                   const catalog::CatalogRegistry& catalogs,
                                                   const http::Request& req,
                                                   const http::PathParams& params,
                                                   bool require_catalog = true);

// The catalog `name` of `realm` in `snapshot`; with authentication off, a catalog missing from
// the snapshot comes from `catalogs`. Null when it exists in neither.
std::shared_ptr<const catalog::CatalogInfo> ResolveCatalog(const AccessDeps& access,
                                                           const catalog::CatalogRegistry& catalogs,
                                                           const access::AccessSnapshot& snapshot,
                                                           std::string_view realm,
                                                           std::string_view name);

class RouteRegistrar {
 public:
  // `idempotency` may be null (Idempotency-Key then has no effect).
  RouteRegistrar(http::Router& router, const catalog::CatalogRegistry& catalogs,
                 const AccessDeps& access, IdempotencyGuard* idempotency)
      : router_(router), catalogs_(catalogs), access_(access), idempotency_(idempotency) {}

  enum class KeyedRetries { kNo, kYes };  // does the route honour Idempotency-Key?

  // `tail` follows "/v1/{prefix}", e.g. "/namespaces/{namespace}". Advertised in endpoints.
  void AddCatalogRoute(http::Method method, std::string_view tail, CatalogHandler handler,
                       KeyedRetries keyed = KeyedRetries::kNo);
  const IdempotencyGuard* idempotency() const { return idempotency_; }
  // A route outside any catalog (e.g. "/config"); also under /api/catalog. Not advertised.
  // The handler gets the authenticated context of the realm's default catalog.
  void AddRootRoute(http::Method method, std::string_view tail, CatalogHandler handler);

  // A Firn route of one catalog beside the management API:
  // /api/management/v1/catalogs/{catalogName} + tail, with the catalog's context as a
  // catalog route gets it from its prefix. Not advertised (not an Iceberg REST endpoint).
  void AddManagementCatalogRoute(http::Method method, std::string_view tail,
                                 CatalogHandler handler);
  const std::vector<std::string>& endpoints() const { return endpoints_; }
  const AccessDeps& access() const { return access_; }
  const catalog::CatalogRegistry& catalogs() const { return catalogs_; }

 private:
  http::Router& router_;
  const catalog::CatalogRegistry& catalogs_;
  AccessDeps access_;
  IdempotencyGuard* idempotency_;
  std::vector<std::string> endpoints_;
};

// Looks up a path parameter captured by the router ("" if absent).
std::string_view PathParam(const http::PathParams& params, std::string_view name);

}  // namespace firn::rest
