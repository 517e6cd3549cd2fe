// Namespace routes: list, create, load, exists, drop, update properties.
#include <boost/json/serialize.hpp>

#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/object_routes.h"
#include "rest/page_responses.h"
#include "rest/request_params.h"
#include "rest/routes.h"

namespace firn::rest {
namespace {

using catalog::CatalogService;
using catalog::RequestContext;
using http::Method;
using http::PathParams;
using http::Request;
using http::Response;

boost::json::object PropertiesToJson(const store::Properties& props) {
  boost::json::object o;
  for (const auto& [k, v] : props) o[k] = v;
  return o;
}

boost::json::array StringsToJson(const std::vector<std::string>& items) {
  boost::json::array a;
  for (const auto& s : items) a.emplace_back(s);
  return a;
}

Response NamespaceBody(const store::Namespace& ns, const store::Properties& props) {
  boost::json::object body;
  body["namespace"] = NamespaceToJson(ns);
  body["properties"] = PropertiesToJson(props);
  return Response::Json(200, boost::json::serialize(body));
}

}  // namespace

void AddNamespaceRoutes(RouteRegistrar& routes, CatalogService& service) {
  constexpr std::string_view kNamespace = "/namespaces/{namespace}";
  using Ns = store::Namespace;
  routes.AddCatalogRoute(
      Method::kGet, "/namespaces",
      [&service](const Request& req, const PathParams&, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(req.query));
        FIRN_ASSIGN_OR_RETURN(store::PageRequest page, PageParams(query));
        FIRN_ASSIGN_OR_RETURN(store::Namespace parent, ParentParam(query));
        FIRN_ASSIGN_OR_RETURN(auto result, service.ListNamespaces(ctx, parent, page));
        boost::json::array namespaces;
        for (const auto& ns : result.items) namespaces.push_back(NamespaceToJson(ns));
        boost::json::object body;
        body["namespaces"] = std::move(namespaces);
        body["next-page-token"] = NextPageToken(result.next_token);
        return Response::Json(200, boost::json::serialize(body));
      });

  routes.AddCatalogRoute(
      Method::kPost, "/namespaces",
      [&service](const Request& req, const PathParams&, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(req.body));
        FIRN_ASSIGN_OR_RETURN(store::Namespace ns, NamespaceField(body, "namespace"));
        FIRN_ASSIGN_OR_RETURN(store::Properties props, StringMap(body, "properties"));
        FIRN_ASSIGN_OR_RETURN(store::Properties stored, service.CreateNamespace(ctx, ns, props));
        return NamespaceBody(ns, stored);
      },
      RouteRegistrar::KeyedRetries::kYes);

  AddNamespaceRoute(
      routes, Method::kGet, kNamespace,
      [&service](const Request&, const Ns& ns, const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Properties props, service.LoadNamespaceMetadata(ctx, ns));
        return NamespaceBody(ns, props);
      });

  AddNamespaceActionRoute(routes, Method::kHead, kNamespace, service,
                          &CatalogService::NamespaceExists, RouteRegistrar::KeyedRetries::kNo);
  AddNamespaceActionRoute(routes, Method::kDelete, kNamespace, service,
                          &CatalogService::DropNamespace, RouteRegistrar::KeyedRetries::kYes);

  AddNamespaceRoute(
      routes, Method::kPost, std::string(kNamespace) + "/properties",
      [&service](const Request& req, const Ns& ns, const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(req.body));
        FIRN_ASSIGN_OR_RETURN(auto removals, OptionalStringArray(body, "removals"));
        FIRN_ASSIGN_OR_RETURN(store::Properties updates, StringMap(body, "updates"));
        FIRN_ASSIGN_OR_RETURN(
            auto result,
            service.UpdateProperties(ctx, ns, removals.value_or(std::vector<std::string>{}),
                                     updates));
        boost::json::object out;
        out["updated"] = StringsToJson(result.updated);
        out["removed"] = StringsToJson(result.removed);
        out["missing"] = StringsToJson(result.missing);
        return Response::Json(200, boost::json::serialize(out));
      },
      RouteRegistrar::KeyedRetries::kYes);
}

}  // namespace firn::rest
