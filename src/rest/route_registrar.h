// RouteRegistrar: registers each Iceberg REST route under every base path clients use —
// /v1/{prefix}/..., /v1/..., and the same under /api/catalog (Polaris-configured clients) —
// and records the "<VERB> /v1/{prefix}/..." strings that /v1/config advertises, so the
// `endpoints` list is exactly what is served.
//
// Thread-safety: registration happens before serving; handlers then run concurrently.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog_registry.h"
#include "catalog/request_context.h"
#include "common/result.h"
#include "http/router.h"
#include "rest/idempotency_guard.h"

namespace firn::rest {

using CatalogHandler = std::function<Result<http::Response>(
    const http::Request&, const http::PathParams&, const catalog::RequestContext&)>;

class RouteRegistrar {
 public:
  // `idempotency` may be null (Idempotency-Key then has no effect).
  RouteRegistrar(http::Router& router, const catalog::CatalogRegistry& catalogs,
                 IdempotencyGuard* idempotency)
      : router_(router), catalogs_(catalogs), idempotency_(idempotency) {}

  enum class KeyedRetries { kNo, kYes };  // does the route honour Idempotency-Key?

  // `tail` follows "/v1/{prefix}", e.g. "/namespaces/{namespace}". Advertised in endpoints.
  void AddCatalogRoute(http::Method method, std::string_view tail, CatalogHandler handler,
                       KeyedRetries keyed = KeyedRetries::kNo);
  const IdempotencyGuard* idempotency() const { return idempotency_; }
  // A route outside any catalog (e.g. "/config"); also under /api/catalog. Not advertised.
  void AddRootRoute(http::Method method, std::string_view tail, http::Handler handler);

  const std::vector<std::string>& endpoints() const { return endpoints_; }

 private:
  http::Router& router_;
  const catalog::CatalogRegistry& catalogs_;
  IdempotencyGuard* idempotency_;
  std::vector<std::string> endpoints_;
};

// Looks up a path parameter captured by the router ("" if absent).
std::string_view PathParam(const http::PathParams& params, std::string_view name);

}  // namespace firn::rest
