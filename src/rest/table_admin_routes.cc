// Firn's administrative actions on one table, beside the management API, under
// /api/management/v1/catalogs/{catalog}/namespaces/{namespace}/tables/{table}:
//   POST   …/maintenance  {"action": "expire-snapshots" | "remove-orphan-files", "dryRun": bool,
//                          "olderThan": "3d", "retainLast": n}          (docs/maintenance.md)
//     A dry run answers with what would go; a run answers with what its task did here (it
//     goes on in the background when the inline budget runs out: GET …/tasks).
//   POST   …/move-out     {"toDeployment": uuid?, "to": text?}           (docs/moves.md)
//   DELETE …/move-out     cancel a move the target has not taken over
//   POST   …/move         {"toCatalog": c, "toNamespace": [..]?, "toName": n?}   (docs/moves.md)
//     (also …/views/{view}/move) moves the object to another catalog of this deployment
//   GET    …/metrics-reports?type=scan-report|commit-report&afterId=N&limit=N
//     the table's stored metrics reports, oldest first after afterId (docs/operations.md):
//     {"reports":[{"id","reportType","receivedMs","report":{...}}],"next":N|null}
// Both answer with JSON; errors are the ErrorModel.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "catalog/identifier_json.h"
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

boost::json::object Side(const store::CatalogScope& scope, const store::Identifier& id) {
  boost::json::object o;
  o["catalog"] = scope.catalog;
  catalog::PutIdentifier(o, id);
  return o;
}

// {"toCatalog": c, "toNamespace": [..]?, "toName": n?}: the target, with the source's namespace
// and name where it names none.
Result<std::pair<std::string, store::Identifier>> MoveTarget(const http::Request& req,
                                                             const store::Identifier& from) {
  FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(req.body));
  std::pair<std::string, store::Identifier> out{"", from};
  for (const auto& [key, value] : body) {
    if (key == "toCatalog" && value.is_string() && !value.as_string().empty()) {
      out.first = std::string(value.as_string());
    } else if (key == "toName" && value.is_string()) {
      out.second.name = std::string(value.as_string());
    } else if (key == "toNamespace" && value.is_array()) {
      out.second.ns.clear();
      for (const auto& level : value.as_array()) {
        if (!level.is_string()) {
          return Fail(ErrorKind::kBadRequest, "Invalid move: 'toNamespace' must hold strings");
        }
        out.second.ns.emplace_back(level.as_string());
      }
    } else {
      return Fail(ErrorKind::kBadRequest,
                  "Invalid move: '" + std::string(key) + "' is not a field of a move, or not "
                  "of its type (toCatalog: string, toNamespace: array of strings, toName: "
                  "string)");
    }
  }
  if (out.first.empty()) {
    return Fail(ErrorKind::kBadRequest, "Invalid move: 'toCatalog' is required");
  }
  return out;
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
  for (const auto& [tail, param, kind] :
       {std::tuple{"/namespaces/{namespace}/tables/{table}/move", "table", store::ObjectKind::kTable},
        std::tuple{"/namespaces/{namespace}/views/{view}/move", "view", store::ObjectKind::kView}}) {
    routes.AddManagementCatalogRoute(
        http::Method::kPost, tail,
        [&service, param = std::string(param), kind = kind](
            const http::Request& req, const http::PathParams& params,
            const catalog::RequestContext& ctx) -> Result<http::Response> {
          FIRN_ASSIGN_OR_RETURN(store::Identifier from, IdentifierParam(params, param));
          FIRN_ASSIGN_OR_RETURN(auto target, MoveTarget(req, from));
          FIRN_ASSIGN_OR_RETURN(catalog::MovedObject moved,
                                service.MoveObject(ctx, kind, from, target.first, target.second));
          boost::json::object o;
          o["kind"] = moved.kind == store::ObjectKind::kTable ? "table" : "view";
          o["from"] = Side(moved.from_scope, moved.from);
          o["to"] = Side(moved.to_scope, moved.to);
          o["metadataLocation"] = moved.metadata_location;
          return http::Response::Json(200, boost::json::serialize(o));
        });
  }
  routes.AddManagementCatalogRoute(
      http::Method::kGet, "/namespaces/{namespace}/tables/{table}/metrics-reports",
      [&service](const http::Request& req, const http::PathParams& params,
                 const catalog::RequestContext& ctx) -> Result<http::Response> {
        FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(req.query));
        store::MetricsReportQuery q;
        FIRN_ASSIGN_OR_RETURN(q.table, IdentifierParam(params, "table"));
        q.report_type = TextParam(query, "type").value_or("");
        if (!q.report_type.empty() && q.report_type != "scan-report" &&
            q.report_type != "commit-report") {
          return Fail(ErrorKind::kBadRequest,
                      "Invalid type: must be scan-report or commit-report");
        }
        FIRN_ASSIGN_OR_RETURN(auto after, IntParam(query, "afterId"));
        FIRN_ASSIGN_OR_RETURN(auto limit, IntParam(query, "limit"));
        q.after_id = after.value_or(0);
        if (limit && (*limit < 1 || *limit > 1000)) {
          return Fail(ErrorKind::kBadRequest, "Invalid limit: must be between 1 and 1000");
        }
        q.limit = static_cast<int>(limit.value_or(100));
        FIRN_ASSIGN_OR_RETURN(auto reports, service.ListMetricsReports(ctx, q));
        boost::json::array list;
        for (const store::MetricsReport& r : reports) {
          boost::json::object o;
          o["id"] = r.id;
          o["reportType"] = r.report_type;
          o["receivedMs"] = r.received_ms;
          boost::system::error_code ec;
          boost::json::value report = boost::json::parse(r.json, ec);
          o["report"] = ec ? boost::json::value(nullptr) : std::move(report);
          list.push_back(std::move(o));
        }
        boost::json::object body;
        const bool full = static_cast<int>(reports.size()) == q.limit;
        body["next"] = full ? boost::json::value(reports.back().id) : boost::json::value(nullptr);
        body["reports"] = std::move(list);
        return http::Response::Json(200, boost::json::serialize(body));
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
