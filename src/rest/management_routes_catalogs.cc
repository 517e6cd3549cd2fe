// Management routes: /catalogs (list, create, get, update, delete).
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"

namespace firn::rest::mgmt {

using access::ManagementContext;
using http::Method;
using http::PathParams;
using http::Request;
using http::Response;
namespace json = boost::json;

void AddCatalogRoutes(Registrar& routes, access::ManagementService& service) {
  routes.Add(Method::kGet, "/catalogs",
             [&service](const Request&, const PathParams&,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(auto catalogs, service.ListCatalogs(ctx));
               json::array items;
               for (auto& c : catalogs) items.emplace_back(std::move(c));
               json::object body;
               body["catalogs"] = std::move(items);
               return JsonResponse(200, body);
             });

  routes.Add(Method::kPost, "/catalogs",
             [&service](const Request& req, const PathParams&,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
               FIRN_ASSIGN_OR_RETURN(json::object catalog, MemberObject(body, "catalog"));
               FIRN_ASSIGN_OR_RETURN(json::object created, service.CreateCatalog(ctx, catalog));
               return JsonResponse(201, created);
             });

  routes.Add(Method::kGet, "/catalogs/{catalogName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(json::object catalog, service.GetCatalog(ctx, name));
               return JsonResponse(200, catalog);
             });

  routes.Add(Method::kPut, "/catalogs/{catalogName}",
             [&service](const Request& req, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "catalogName"));
               FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
               access::CatalogUpdate update;
               FIRN_ASSIGN_OR_RETURN(update.current_entity_version,
                                     OptionalInt(body, "currentEntityVersion"));
               if (const json::value* p = body.if_contains("properties"); p && !p->is_null()) {
                 FIRN_ASSIGN_OR_RETURN(update.properties, StringMap(body, "properties"));
               }
               if (const json::value* s = body.if_contains("storageConfigInfo");
                   s && !s->is_null()) {
                 FIRN_ASSIGN_OR_RETURN(update.storage_config_info,
                                       MemberObject(body, "storageConfigInfo"));
               }
               FIRN_ASSIGN_OR_RETURN(json::object catalog,
                                     service.UpdateCatalog(ctx, name, update));
               return JsonResponse(200, catalog);
             });

  routes.Add(Method::kDelete, "/catalogs/{catalogName}",
             [&service](const Request&, const PathParams& params,
                        const ManagementContext& ctx) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(std::string name, NameParam(params, "catalogName"));
               FIRN_RETURN_IF_ERROR(service.DeleteCatalog(ctx, name));
               return Response::Empty(204);
             });
}

}  // namespace firn::rest::mgmt
