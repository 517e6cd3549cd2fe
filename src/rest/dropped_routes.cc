// Firn's soft-delete routes (docs/soft-delete.md), beside the management API:
//   GET    /api/management/v1/catalogs/{catalog}/dropped-objects            list (paged)
//   POST   /api/management/v1/catalogs/{catalog}/dropped-objects/{id}/undrop  restore
//   DELETE /api/management/v1/catalogs/{catalog}/dropped-objects/{id}       expunge now
// The catalog comes from the path as a catalog route's prefix does, so the routes run with the
// caller's RequestContext and CatalogService authorises them (CATALOG_MANAGE_CONTENT).
#include <boost/json/serialize.hpp>

#include "catalog/soft_delete.h"
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/path_codec.h"
#include "rest/request_params.h"
#include "rest/routes.h"

namespace firn::rest {
namespace {

using http::Method;
using http::Request;
using http::Response;

Result<std::string> DropIdParam(const http::PathParams& params) {
  FIRN_ASSIGN_OR_RETURN(std::string id, DecodeNameSegment(PathParam(params, "dropId")));
  return id;
}

}  // namespace

void AddDroppedObjectRoutes(RouteRegistrar& routes, catalog::CatalogService& service) {
  routes.AddManagementCatalogRoute(
      Method::kGet, "/dropped-objects",
      [&service](const Request& req, const http::PathParams&,
                 const catalog::RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(req.query));
        FIRN_ASSIGN_OR_RETURN(store::PageRequest page, PageParams(query));
        FIRN_ASSIGN_OR_RETURN(auto listed, service.ListDropped(ctx, page));
        boost::json::array items;
        for (const auto& d : listed.items) items.push_back(catalog::DroppedObjectJson(d));
        boost::json::object body;
        body["droppedObjects"] = std::move(items);
        if (listed.next_token) {
          body["nextPageToken"] = *listed.next_token;
        } else {
          body["nextPageToken"] = nullptr;
        }
        return Response::Json(200, boost::json::serialize(body));
      });
  routes.AddManagementCatalogRoute(
      Method::kPost, "/dropped-objects/{dropId}/undrop",
      [&service](const Request& req, const http::PathParams& params,
                 const catalog::RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(std::string drop_id, DropIdParam(params));
        // Optional body {"target": TableIdentifier}: restore under another name.
        std::optional<store::Identifier> target;
        if (!req.body.empty()) {
          FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(req.body));
          if (body.contains("target") && !body.at("target").is_null()) {
            FIRN_ASSIGN_OR_RETURN(target, IdentifierField(body, "target"));
          }
        }
        FIRN_ASSIGN_OR_RETURN(store::DroppedObject restored,
                              service.Undrop(ctx, drop_id, target));
        return Response::Json(200, boost::json::serialize(catalog::DroppedObjectJson(restored)));
      });
  routes.AddManagementCatalogRoute(
      Method::kDelete, "/dropped-objects/{dropId}",
      [&service](const Request&, const http::PathParams& params,
                 const catalog::RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(std::string drop_id, DropIdParam(params));
        FIRN_RETURN_IF_ERROR(service.Expunge(ctx, drop_id));
        return Response::Empty(204);
      });
}

}  // namespace firn::rest
