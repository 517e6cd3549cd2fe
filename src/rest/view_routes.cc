// View routes: list, create, load, exists, replace (commit), drop, rename, register.
#include <boost/json/serialize.hpp>

#include "catalog/input_rules.h"
#include "common/macros.h"
#include "metadata/view_serde.h"
#include "rest/json_fields.h"
#include "rest/object_routes.h"
#include "rest/request_params.h"
#include "rest/routes.h"
#include "rest/table_change_parser.h"

namespace firn::rest {
namespace {

using catalog::CatalogService;
using catalog::LoadedView;
using catalog::RequestContext;
using http::Method;
using http::PathParams;
using http::Request;
using http::Response;

// LoadViewResult {metadata-location, metadata, config}.
Response LoadViewResponse(const LoadedView& v) {
  boost::json::object body;
  body["metadata-location"] = v.metadata_location;
  body["metadata"] = metadata::ViewMetadataToJson(*v.metadata);
  body["config"] = boost::json::object();
  return Response::Json(200, boost::json::serialize(body));
}

Result<LoadedView> RegisterView(CatalogService& service, const RequestContext& ctx,
                                const store::Namespace& ns, const RegisterRequest& r) {
  return service.RegisterView(ctx, {ns, r.name}, r.metadata_location);
}

Result<catalog::CreateViewRequest> ParseCreateView(std::string_view text) {
  FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(text));
  catalog::CreateViewRequest req;
  FIRN_ASSIGN_OR_RETURN(req.name, RequiredString(body, "name"));
  FIRN_RETURN_IF_ERROR(catalog::ValidateName("view name", req.name));
  FIRN_ASSIGN_OR_RETURN(req.location, OptionalString(body, "location"));
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* schema, RequiredObject(body, "schema"));
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* version, RequiredObject(body, "view-version"));
  req.schema = *schema;
  req.view_version = *version;
  FIRN_ASSIGN_OR_RETURN(req.properties, StringMap(body, "properties"));
  return req;
}

// createView (without Idempotency-Key) and registerView (with it).
constexpr NewObjectRoutes<catalog::CreateViewRequest, LoadedView> kNewViewRoutes{
    "/namespaces/{namespace}/views", ParseCreateView, &CatalogService::CreateView,
    RouteRegistrar::KeyedRetries::kNo, "/namespaces/{namespace}/register-view",
    ParseRegisterView, RegisterView,
    [](CatalogService&, const http::Request&, const RequestContext&, const store::Identifier&,
       const LoadedView& v) -> Result<http::Response> { return LoadViewResponse(v); }};

}  // namespace

void AddViewRoutes(RouteRegistrar& routes, CatalogService& service) {
  constexpr std::string_view kView = "/namespaces/{namespace}/views/{view}";
  using Id = store::Identifier;
  AddListObjectsRoute(routes, "/namespaces/{namespace}/views", service,
                      &CatalogService::ListViews);

  AddNewObjectRoutes(routes, service, kNewViewRoutes);

  // `referenced-by` is informational (authorization only) and not needed here.
  AddObjectRoute(
      routes, Method::kGet, kView,
      [&service](const Request&, const Id& id, const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(LoadedView view, service.LoadView(ctx, id));
        return LoadViewResponse(view);
      });

  AddObjectActionRoute(routes, Method::kHead, kView, service, &CatalogService::ViewExists,
                       RouteRegistrar::KeyedRetries::kNo);

  AddObjectRoute(
      routes, Method::kPost, kView,
      [&service](const Request& req, const Id& id, const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(req.body));
        FIRN_ASSIGN_OR_RETURN(catalog::ViewChange change, ParseViewChange(json, id));
        FIRN_ASSIGN_OR_RETURN(LoadedView view, service.ReplaceView(ctx, change));
        return LoadViewResponse(view);
      },
      RouteRegistrar::KeyedRetries::kYes);

  AddObjectActionRoute(routes, Method::kDelete, kView, service, &CatalogService::DropView,
                       RouteRegistrar::KeyedRetries::kYes);

  AddRenameObjectRoute(routes, "/views/rename", service, &CatalogService::RenameView);
}

}  // namespace firn::rest
