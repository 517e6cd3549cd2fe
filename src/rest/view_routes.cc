// View routes: list, create, load, exists, replace (commit), drop, rename, register.
#include <boost/json/serialize.hpp>

#include "common/macros.h"
#include "metadata/view_requirement.h"
#include "metadata/view_serde.h"
#include "metadata/view_update.h"
#include "rest/json_fields.h"
#include "rest/page_responses.h"
#include "rest/request_params.h"
#include "rest/routes.h"

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

Result<catalog::CreateViewRequest> ParseCreateView(std::string_view text) {
  FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(text));
  FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "request"));
  catalog::CreateViewRequest req;
  FIRN_ASSIGN_OR_RETURN(req.name, RequiredString(*body, "name"));
  if (req.name.empty()) return Fail(ErrorKind::kBadRequest, "Invalid view name: empty");
  FIRN_ASSIGN_OR_RETURN(req.location, OptionalString(*body, "location"));
  for (std::string_view key : {"schema", "view-version"}) {
    const boost::json::value* v = body->if_contains(key);
    if (!v || !v->is_object()) {
      return Fail(ErrorKind::kBadRequest, "Invalid request body: field '" + std::string(key) +
                                              "' must be an object (required)");
    }
  }
  req.schema = body->at("schema");
  req.view_version = body->at("view-version");
  FIRN_ASSIGN_OR_RETURN(req.properties, StringMap(*body, "properties"));
  return req;
}

// CommitViewRequest {identifier?, requirements?, updates}; the path names the view.
Result<catalog::ViewChange> ParseViewChange(const boost::json::value& json,
                                            const store::Identifier& id) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "commit request"));
  catalog::ViewChange change;
  change.id = id;
  if (const auto* r = body->if_contains("requirements"); r && !r->is_null()) {
    FIRN_ASSIGN_OR_RETURN(change.requirements, metadata::ParseViewRequirements(*r));
  }
  const boost::json::value* updates = body->if_contains("updates");
  if (!updates || !updates->is_array()) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid request body: field 'updates' must be an array (required)");
  }
  FIRN_ASSIGN_OR_RETURN(change.updates, metadata::ParseViewUpdates(*updates));
  return change;
}

}  // namespace

void AddViewRoutes(RouteRegistrar& routes, CatalogService& service) {
  routes.AddCatalogRoute(
      Method::kGet, "/namespaces/{namespace}/views",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Namespace ns, NamespaceParam(params));
        FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(req.query));
        FIRN_ASSIGN_OR_RETURN(store::PageRequest page, PageParams(query));
        FIRN_ASSIGN_OR_RETURN(auto result, service.ListViews(ctx, ns, page));
        return IdentifierPageResponse(ns, result);
      });

  routes.AddCatalogRoute(
      Method::kPost, "/namespaces/{namespace}/views",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Namespace ns, NamespaceParam(params));
        FIRN_ASSIGN_OR_RETURN(catalog::CreateViewRequest create, ParseCreateView(req.body));
        FIRN_ASSIGN_OR_RETURN(LoadedView view, service.CreateView(ctx, ns, create));
        return LoadViewResponse(view);
      });

  routes.AddCatalogRoute(
      Method::kPost, "/namespaces/{namespace}/register-view",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Namespace ns, NamespaceParam(params));
        FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(req.body));
        FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "request"));
        FIRN_ASSIGN_OR_RETURN(std::string name, RequiredString(*body, "name"));
        FIRN_ASSIGN_OR_RETURN(std::string location, RequiredString(*body, "metadata-location"));
        if (name.empty()) return Fail(ErrorKind::kBadRequest, "Invalid view name: empty");
        FIRN_ASSIGN_OR_RETURN(LoadedView view, service.RegisterView(ctx, {ns, name}, location));
        return LoadViewResponse(view);
      },
      RouteRegistrar::KeyedRetries::kYes);

  // `referenced-by` is informational (authorization only) and not needed here.
  routes.AddCatalogRoute(
      Method::kGet, "/namespaces/{namespace}/views/{view}",
      [&service](const Request&, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "view"));
        FIRN_ASSIGN_OR_RETURN(LoadedView view, service.LoadView(ctx, id));
        return LoadViewResponse(view);
      });

  routes.AddCatalogRoute(
      Method::kHead, "/namespaces/{namespace}/views/{view}",
      [&service](const Request&, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "view"));
        FIRN_RETURN_IF_ERROR(service.ViewExists(ctx, id));
        return Response::Empty(204);
      });

  routes.AddCatalogRoute(
      Method::kPost, "/namespaces/{namespace}/views/{view}",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "view"));
        FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(req.body));
        FIRN_ASSIGN_OR_RETURN(catalog::ViewChange change, ParseViewChange(json, id));
        FIRN_ASSIGN_OR_RETURN(LoadedView view, service.ReplaceView(ctx, change));
        return LoadViewResponse(view);
      },
      RouteRegistrar::KeyedRetries::kYes);

  routes.AddCatalogRoute(
      Method::kDelete, "/namespaces/{namespace}/views/{view}",
      [&service](const Request&, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "view"));
        FIRN_RETURN_IF_ERROR(service.DropView(ctx, id));
        return Response::Empty(204);
      },
      RouteRegistrar::KeyedRetries::kYes);

  routes.AddCatalogRoute(
      Method::kPost, "/views/rename",
      [&service](const Request& req, const PathParams&, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(req.body));
        FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "request"));
        FIRN_ASSIGN_OR_RETURN(store::Identifier from, IdentifierField(*body, "source"));
        FIRN_ASSIGN_OR_RETURN(store::Identifier to, IdentifierField(*body, "destination"));
        FIRN_RETURN_IF_ERROR(service.RenameView(ctx, from, to));
        return Response::Empty(204);
      },
      RouteRegistrar::KeyedRetries::kYes);
}

}  // namespace firn::rest
