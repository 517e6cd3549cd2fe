// Firn's administrative actions on one table, beside the management API, under
// /api/management/v1/catalogs/{catalog}/namespaces/{namespace}/tables/{table}:
//   POST   …/maintenance  {"action": "expire-snapshots" | "remove-orphan-files", "dryRun": bool,
//                          "olderThan": "3d", "retainLast": n}          (docs/maintenance.md)
//     A dry run answers with what would go; a run answers with what its task did here (it
//     goes on in the background when the inline budget runs out: GET …/tasks).
//   POST   …/move-out     {"toDeployment": uuid?, "to": text?}           (docs/moves.md)
//   DELETE …/move-out     cancel a move the target has not taken over
// Both answer with JSON; errors are the ErrorModel.
#include <boost/json/serialize.hpp>

#include "catalog/maintenance.h"
#include "catalog/store_claims.h"
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/request_params.h"
#include "rest/routes.h"

namespace firn::rest {

namespace {

boost::json::object ClaimJson(const catalog::StoreClaim& claim) {
  boost::json::object o;
  o["deployment"] = claim.deployment;
  o["state"] = claim.state;
  o["movingTo"] = claim.moving_to;
  o["tableUuid"] = claim.table_uuid;
  o["location"] = claim.location;
  return o;
}

Result<std::string> OptionalText(const boost::json::object& body, std::string_view key) {
  const auto* v = body.if_contains(key);
  if (!v || v->is_null()) return std::string();
  if (!v->is_string()) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid move: '" + std::string(key) + "' must be a string");
  }
  return std::string(v->as_string());
}

}  // namespace

void AddTableAdminRoutes(RouteRegistrar& routes, catalog::CatalogService& service) {
  constexpr std::string_view kMove = "/namespaces/{namespace}/tables/{table}/move-out";
  routes.AddManagementCatalogRoute(
      http::Method::kPost, kMove,
      [&service](const http::Request& req, const http::PathParams& params,
                 const catalog::RequestContext& ctx) -> Result<http::Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "table"));
        boost::json::object body;
        if (!req.body.empty()) {
          FIRN_ASSIGN_OR_RETURN(body, RequestObject(req.body));
        }
        for (const auto& [key, value] : body) {
          if (key != "toDeployment" && key != "to") {
            return Fail(ErrorKind::kBadRequest,
                        "Invalid move: '" + std::string(key) + "' is not a field of a move");
          }
        }
        FIRN_ASSIGN_OR_RETURN(std::string to_deployment, OptionalText(body, "toDeployment"));
        FIRN_ASSIGN_OR_RETURN(std::string to, OptionalText(body, "to"));
        FIRN_ASSIGN_OR_RETURN(catalog::StoreClaim claim,
                              service.MoveOut(ctx, id, to_deployment, to));
        return http::Response::Json(200, boost::json::serialize(ClaimJson(claim)));
      });
  routes.AddManagementCatalogRoute(
      http::Method::kDelete, kMove,
      [&service](const http::Request&, const http::PathParams& params,
                 const catalog::RequestContext& ctx) -> Result<http::Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "table"));
        FIRN_ASSIGN_OR_RETURN(catalog::StoreClaim claim, service.CancelMove(ctx, id));
        return http::Response::Json(200, boost::json::serialize(ClaimJson(claim)));
      });
  routes.AddManagementCatalogRoute(
      http::Method::kPost, "/namespaces/{namespace}/tables/{table}/maintenance",
      [&service](const http::Request& req, const http::PathParams& params,
                 const catalog::RequestContext& ctx) -> Result<http::Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "table"));
        FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(req.body));
        FIRN_ASSIGN_OR_RETURN(catalog::MaintenanceRequest request,
                              catalog::ParseMaintenanceRequest(body));
        FIRN_ASSIGN_OR_RETURN(catalog::MaintenanceReport report,
                              service.Maintain(ctx, id, request));
        return http::Response::Json(
            200, boost::json::serialize(catalog::MaintenanceReportJson(report)));
      });
}

}  // namespace firn::rest
