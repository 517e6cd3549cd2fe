// GET /v1/config: defaults, overrides (prefix when a warehouse is named) and the endpoints
// this server really serves. Authenticated (no privilege needed, as in Polaris). The warehouse
// is a catalog of the caller's realm, named, or given as a location (Spark and PyIceberg users
// often pass a path): the catalog whose base location holds it, when exactly one does. An
// unknown warehouse is a 404 naming the catalogs the caller may list.
#include <boost/json/serialize.hpp>

#include <optional>
#include <vector>

#include "common/strings.h"
#include "rest/error_model.h"
#include "rest/path_codec.h"
#include "rest/routes.h"

namespace firn::rest {

namespace {

// The catalog among `names` whose base location is `location` or holds it ("" when none, or
// when several would: then the caller must name one).
std::string CatalogAtLocation(const access::AccessSnapshot& snapshot, std::string_view realm,
                              const std::vector<std::string>& names, std::string_view location) {
  if (location.find("://") == std::string_view::npos) return "";
  const std::string wanted(StripTrailingSlash(location));
  std::string found;
  for (const std::string& name : names) {
    auto info = snapshot.FindCatalog(realm, name);
    if (!info) continue;
    const std::string base(StripTrailingSlash(info->base_location));
    if (wanted == base || wanted.starts_with(base + "/")) {
      if (!found.empty()) return "";  // ambiguous
      found = name;
    }
  }
  return found;
}

}  // namespace

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
          std::string name(*warehouse);
          // A location is looked for among the catalogs the caller may list only, so a path
          // never reveals a catalog the 404 below would not name.
          std::optional<std::vector<std::string>> visible;
          if (access.visible_catalogs) {
            visible = access.visible_catalogs(ctx.scope.realm, ctx.caller);
          }
          if (snapshot && !ResolveCatalog(access, catalogs, *snapshot, ctx.scope.realm, name)) {
            name = visible ? CatalogAtLocation(*snapshot, ctx.scope.realm, *visible, *warehouse)
                           : std::string();
          }
          if (!snapshot || name.empty() ||
              !ResolveCatalog(access, catalogs, *snapshot, ctx.scope.realm, name)) {
            std::string message = "Warehouse does not exist: " + std::string(*warehouse);
            if (visible) {
              message += visible->empty()
                             ? std::string("; you may list no catalog")
                             : "; catalogs you may use: " + JoinStrings(*visible, ", ");
            }
            return Fail(ErrorKind::kNoSuchWarehouse, message);
          }
          overrides["prefix"] = name;
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
