// GET /v1/config: defaults, overrides (prefix when a warehouse is named) and the endpoints
// this server really serves. Authenticated (no privilege needed, as in Polaris); the
// warehouse must be a catalog of the caller's realm.
#include <boost/json/serialize.hpp>

#include "rest/error_model.h"
#include "rest/path_codec.h"
#include "rest/routes.h"

namespace firn::rest {

void AddConfigRoute(RouteRegistrar& routes, const catalog::CatalogService&) {
  boost::json::array endpoints;
  for (const std::string& e : routes.endpoints()) endpoints.emplace_back(e);
  const std::string lifetime =
      routes.idempotency() ? routes.idempotency()->LifetimeIso8601() : std::string();
  routes.AddRootRoute(
      http::Method::kGet, "/config",
      [endpoints, lifetime, access = routes.access(), &catalogs = routes.catalogs()](
          const http::Request& req, const http::PathParams&,
          const catalog::RequestContext& ctx) -> Result<http::Response> {
        auto query = QueryParams::Parse(req.query);
        if (!query) return std::unexpected(query.error());
        boost::json::object overrides;
        if (auto warehouse = query->Get("warehouse"); warehouse && !warehouse->empty()) {
          auto snapshot = access.state.Current();
          if (!snapshot ||
              !ResolveCatalog(access, catalogs, *snapshot, ctx.scope.realm, *warehouse)) {
            return Fail(ErrorKind::kNoSuchWarehouse,
                        "Warehouse does not exist: " + std::string(*warehouse));
          }
          overrides["prefix"] = *warehouse;
        }
        boost::json::object body;
        body["defaults"] = boost::json::object();
        body["overrides"] = std::move(overrides);
        body["endpoints"] = endpoints;
        if (!lifetime.empty()) body["idempotency-key-lifetime"] = lifetime;
        return http::Response::Json(200, boost::json::serialize(body));
      });
}

}  // namespace firn::rest
