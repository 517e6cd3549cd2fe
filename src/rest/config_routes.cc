// GET /v1/config: defaults, overrides (prefix when a warehouse is named) and the endpoints
// this server really serves.
#include <boost/json/serialize.hpp>

#include "rest/error_model.h"
#include "rest/path_codec.h"
#include "rest/routes.h"

namespace firn::rest {

void AddConfigRoute(RouteRegistrar& routes, const catalog::CatalogService& service) {
  boost::json::array endpoints;
  for (const std::string& e : routes.endpoints()) endpoints.emplace_back(e);
  const catalog::CatalogRegistry& catalogs = service.catalogs();
  const std::string lifetime =
      routes.idempotency() ? routes.idempotency()->LifetimeIso8601() : std::string();
  routes.AddRootRoute(
      http::Method::kGet, "/config",
      [endpoints, lifetime, &catalogs](const http::Request& req, const http::PathParams&) {
        auto query = QueryParams::Parse(req.query);
        if (!query) return ErrorResponse(query.error());
        boost::json::object overrides;
        if (auto warehouse = query->Get("warehouse"); warehouse && !warehouse->empty()) {
          if (!catalogs.Find(*warehouse)) {
            return ErrorResponse(Error(ErrorKind::kNoSuchWarehouse,
                                       "Warehouse does not exist: " + std::string(*warehouse)));
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
