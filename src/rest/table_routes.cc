// Table routes: list, create (incl. stage-create), register, load, exists, commit, drop,
// rename, metrics.
#include <boost/json/serialize.hpp>

#include "common/macros.h"
#include "metadata/table_requirement.h"
#include "metadata/table_update.h"
#include "rest/json_fields.h"
#include "rest/page_responses.h"
#include "rest/request_params.h"
#include "rest/routes.h"
#include "rest/table_change_parser.h"

namespace firn::rest {
namespace {

using catalog::CatalogService;
using catalog::LoadedTable;
using catalog::RequestContext;
using http::Method;
using http::PathParams;
using http::Request;
using http::Response;

enum class SnapshotMode { kAll, kRefs };

// LoadTableResult, assembled from cached bytes: no re-serialisation of the metadata.
Response LoadTableResponse(const LoadedTable& t, SnapshotMode mode) {
  const catalog::CachedTable& c = *t.table;
  const std::string& metadata_json = mode == SnapshotMode::kRefs ? c.JsonRefs() : c.json_all;
  std::string body;
  body.reserve(metadata_json.size() + t.metadata_location.size() + 64);
  body += R"({"metadata-location":)";
  body += t.metadata_location.empty() ? std::string("null")
                                      : boost::json::serialize(boost::json::string(t.metadata_location));
  body += R"(,"metadata":)";
  body += metadata_json;
  body += R"(,"config":{}})";
  Response r = Response::Json(200, std::move(body));
  if (!t.metadata_location.empty()) {
    r.SetHeader("ETag", mode == SnapshotMode::kRefs ? c.etag_refs : c.etag_all);
  }
  return r;
}

Response CommitTableResponse(const LoadedTable& t) {
  std::string body;
  body.reserve(t.table->json_all.size() + t.metadata_location.size() + 48);
  body += R"({"metadata-location":)";
  body += boost::json::serialize(boost::json::string(t.metadata_location));
  body += R"(,"metadata":)";
  body += t.table->json_all;
  body += "}";
  Response r = Response::Json(200, std::move(body));
  r.SetHeader("ETag", t.table->etag_all);
  return r;
}

// True when an If-None-Match header names `etag` (or is "*").
bool MatchesIfNoneMatch(std::string_view header, std::string_view etag) {
  size_t start = 0;
  while (start < header.size()) {
    size_t comma = header.find(',', start);
    std::string_view tag = header.substr(start, comma == std::string_view::npos ? comma : comma - start);
    while (!tag.empty() && tag.front() == ' ') tag.remove_prefix(1);
    while (!tag.empty() && tag.back() == ' ') tag.remove_suffix(1);
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == "*" || tag == etag) return true;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return false;
}

Result<SnapshotMode> SnapshotModeParam(const QueryParams& query) {
  auto mode = query.Get("snapshots");
  if (!mode || mode->empty() || *mode == "all") return SnapshotMode::kAll;
  if (*mode == "refs") return SnapshotMode::kRefs;
  return Fail(ErrorKind::kBadRequest, "Invalid snapshots mode: must be 'all' or 'refs'");
}

Result<catalog::CreateTableRequest> ParseCreateTable(std::string_view text) {
  FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(text));
  FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "request"));
  catalog::CreateTableRequest req;
  FIRN_ASSIGN_OR_RETURN(req.name, RequiredString(*body, "name"));
  if (req.name.empty()) return Fail(ErrorKind::kBadRequest, "Invalid table name: empty");
  FIRN_ASSIGN_OR_RETURN(req.location, OptionalString(*body, "location"));
  const boost::json::value* schema = body->if_contains("schema");
  if (!schema || !schema->is_object()) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid request body: field 'schema' must be an object (required)");
  }
  req.schema = *schema;
  if (auto* spec = body->if_contains("partition-spec"); spec && !spec->is_null()) {
    req.partition_spec = *spec;
  }
  if (auto* order = body->if_contains("write-order"); order && !order->is_null()) {
    req.write_order = *order;
  }
  FIRN_ASSIGN_OR_RETURN(req.stage_create, OptionalBool(*body, "stage-create", false));
  FIRN_ASSIGN_OR_RETURN(req.properties, StringMap(*body, "properties"));
  return req;
}

}  // namespace

void AddTableRoutes(RouteRegistrar& routes, CatalogService& service) {
  routes.AddCatalogRoute(
      Method::kGet, "/namespaces/{namespace}/tables",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Namespace ns, NamespaceParam(params));
        FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(req.query));
        FIRN_ASSIGN_OR_RETURN(store::PageRequest page, PageParams(query));
        FIRN_ASSIGN_OR_RETURN(auto result, service.ListTables(ctx, ns, page));
        return IdentifierPageResponse(ns, result);
      });

  routes.AddCatalogRoute(
      Method::kPost, "/namespaces/{namespace}/tables",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Namespace ns, NamespaceParam(params));
        FIRN_ASSIGN_OR_RETURN(catalog::CreateTableRequest create, ParseCreateTable(req.body));
        FIRN_ASSIGN_OR_RETURN(LoadedTable table, service.CreateTable(ctx, ns, create));
        return LoadTableResponse(table, SnapshotMode::kAll);
      },
      RouteRegistrar::KeyedRetries::kYes);

  routes.AddCatalogRoute(
      Method::kPost, "/namespaces/{namespace}/register",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Namespace ns, NamespaceParam(params));
        FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(req.body));
        FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "request"));
        FIRN_ASSIGN_OR_RETURN(std::string name, RequiredString(*body, "name"));
        FIRN_ASSIGN_OR_RETURN(std::string location, RequiredString(*body, "metadata-location"));
        FIRN_ASSIGN_OR_RETURN(bool overwrite, OptionalBool(*body, "overwrite", false));
        if (name.empty()) return Fail(ErrorKind::kBadRequest, "Invalid table name: empty");
        FIRN_ASSIGN_OR_RETURN(LoadedTable table,
                              service.RegisterTable(ctx, {ns, name}, location, overwrite));
        return LoadTableResponse(table, SnapshotMode::kAll);
      },
      RouteRegistrar::KeyedRetries::kYes);

  routes.AddCatalogRoute(
      Method::kGet, "/namespaces/{namespace}/tables/{table}",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "table"));
        FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(req.query));
        FIRN_ASSIGN_OR_RETURN(SnapshotMode mode, SnapshotModeParam(query));
        FIRN_ASSIGN_OR_RETURN(LoadedTable table, service.LoadTable(ctx, id));
        const std::string& etag =
            mode == SnapshotMode::kRefs ? table.table->etag_refs : table.table->etag_all;
        if (auto inm = req.GetHeader("If-None-Match");
            !inm.empty() && MatchesIfNoneMatch(inm, etag)) {
          // "Not modified" promises the client its copy is still good; check the file is
          // still there (one stat, only on this path) rather than vouch for a lost file.
          FIRN_RETURN_IF_ERROR(service.CheckMetadataFileExists(table));
          Response r = Response::Empty(304);
          r.SetHeader("ETag", etag);
          return r;
        }
        return LoadTableResponse(table, mode);
      });

  routes.AddCatalogRoute(
      Method::kHead, "/namespaces/{namespace}/tables/{table}",
      [&service](const Request&, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "table"));
        FIRN_RETURN_IF_ERROR(service.TableExists(ctx, id));
        return Response::Empty(204);
      });

  routes.AddCatalogRoute(
      Method::kPost, "/namespaces/{namespace}/tables/{table}",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "table"));
        FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(req.body));
        FIRN_ASSIGN_OR_RETURN(catalog::TableChange change, ParseTableChange(json, &id));
        FIRN_ASSIGN_OR_RETURN(LoadedTable table, service.UpdateTable(ctx, change));
        return CommitTableResponse(table);
      },
      RouteRegistrar::KeyedRetries::kYes);

  routes.AddCatalogRoute(
      Method::kDelete, "/namespaces/{namespace}/tables/{table}",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "table"));
        FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(req.query));
        FIRN_ASSIGN_OR_RETURN(bool purge, BoolParam(query, "purgeRequested"));
        FIRN_RETURN_IF_ERROR(service.DropTable(ctx, id, purge));
        return Response::Empty(204);
      },
      RouteRegistrar::KeyedRetries::kYes);

  routes.AddCatalogRoute(
      Method::kPost, "/tables/rename",
      [&service](const Request& req, const PathParams&, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(req.body));
        FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "request"));
        FIRN_ASSIGN_OR_RETURN(store::Identifier from, IdentifierField(*body, "source"));
        FIRN_ASSIGN_OR_RETURN(store::Identifier to, IdentifierField(*body, "destination"));
        FIRN_RETURN_IF_ERROR(service.RenameTable(ctx, from, to));
        return Response::Empty(204);
      },
      RouteRegistrar::KeyedRetries::kYes);

  routes.AddCatalogRoute(
      Method::kPost, "/namespaces/{namespace}/tables/{table}/metrics",
      [&service](const Request& req, const PathParams& params, const RequestContext& ctx)
          -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(store::Identifier id, IdentifierParam(params, "table"));
        FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(req.body));
        FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "request"));
        FIRN_ASSIGN_OR_RETURN(std::string type, RequiredString(*body, "report-type"));
        FIRN_RETURN_IF_ERROR(
            service.ReportMetrics(ctx, id, type, boost::json::serialize(*body)));
        return Response::Empty(204);
      });
}

}  // namespace firn::rest
