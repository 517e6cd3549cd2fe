// POST /v1/{prefix}/transactions/commit: several tables, all or nothing, 204.
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/routes.h"
#include "rest/table_change_parser.h"

namespace firn::rest {

void AddTransactionRoutes(RouteRegistrar& routes, catalog::CatalogService& service) {
  routes.AddCatalogRoute(
      http::Method::kPost, "/transactions/commit",
      [&service](const http::Request& req, const http::PathParams&,
                 const catalog::RequestContext& ctx) -> Result<http::Response> {
        FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(req.body));
        const boost::json::value* changes = body.if_contains("table-changes");
        if (!changes || !changes->is_array() || changes->get_array().empty()) {
          return Fail(ErrorKind::kBadRequest,
                      "Invalid request body: field 'table-changes' must be a non-empty array");
        }
        std::vector<catalog::TableChange> parsed;
        for (const auto& c : changes->get_array()) {
          FIRN_ASSIGN_OR_RETURN(auto change, ParseTableChange(c, nullptr));
          parsed.push_back(std::move(change));
        }
        FIRN_RETURN_IF_ERROR(service.CommitTransaction(ctx, parsed));
        return http::Response::Empty(204);
      },
      RouteRegistrar::KeyedRetries::kYes);
}

}  // namespace firn::rest
