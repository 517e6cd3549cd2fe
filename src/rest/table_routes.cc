// Table routes: list, create (incl. stage-create), register, load, exists, commit, drop,
// rename, metrics, and the credentials a client refreshes (docs/vending.md).
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>

#include "catalog/input_rules.h"
#include "common/encoding.h"
#include "common/gzip.h"
#include "common/macros.h"
#include "common/strings.h"
#include "http/content_coding.h"
#include "metadata/table_requirement.h"
#include "metadata/table_update.h"
#include "rest/json_fields.h"
#include "rest/object_routes.h"
#include "rest/request_params.h"
#include "rest/routes.h"
#include "rest/table_change_parser.h"

namespace firn::rest {
namespace {

using catalog::CatalogService;
using catalog::LoadedTable;
using catalog::RequestContext;
using catalog::SnapshotMode;
using http::Method;
using http::PathParams;
using http::Request;
using http::Response;

// X-Iceberg-Access-Delegation: a comma-separated list; DuckDB sends it on every route, so it
// is read where it means something and ignored elsewhere.
catalog::Delegation DelegationOf(const Request& req) {
  catalog::Delegation d;
  std::string_view header = req.GetHeader("X-Iceberg-Access-Delegation");
  while (!header.empty()) {
    const size_t comma = header.find(',');
    const std::string_view item = Trim(header.substr(0, comma), " \t");
    if (EqualsIgnoreCase(item, "vended-credentials")) d.vend = true;
    if (EqualsIgnoreCase(item, "remote-signing")) d.sign = true;
    if (comma == std::string_view::npos) break;
    header.remove_prefix(comma + 1);
  }
  return d;
}

boost::json::object StringObject(const std::map<std::string, std::string>& values) {
  boost::json::object o;
  for (const auto& [k, v] : values) o[k] = v;
  return o;
}

// {"storage-credentials":[{prefix, config}]}: never an empty entry (DuckDB breaks on one).
boost::json::array StorageCredentials(const catalog::VendedCredentials* credentials) {
  boost::json::array out;
  if (credentials != nullptr) {
    boost::json::object c;
    c["prefix"] = credentials->prefix;
    c["config"] = StringObject(credentials->config);
    out.emplace_back(std::move(c));
  }
  return out;
}

// LoadTableResult, assembled from cached bytes: no re-serialisation of the metadata. A result
// carrying credentials has no ETag: a 304 would keep a client on credentials it should renew.
// The body is head + metadata JSON + tail, and only head and tail vary per request (location,
// config, credentials). Given `gzip_for` (the request, when it is a load) and when the server
// would gzip the answer, the gzip body joins the metadata's cached deflated piece with head and
// tail stored as they are (a few hundred bytes; a compressor's set-up would cost more than
// they take): a warm load compresses nothing. Create and
// register pass none: the idempotency guard keeps their answers as sent by the handler, which
// must be identity bodies (the server compresses them on the way out).
Response LoadTableResponse(const LoadedTable& t, SnapshotMode mode,
                           const catalog::TableAccess& access,
                           const Request* gzip_for = nullptr) {
  const std::string& metadata_json = t.table->MetadataJson(mode);
  std::string head = R"({"metadata-location":)";
  head += t.metadata_location.empty()
              ? std::string("null")
              : boost::json::serialize(boost::json::string(t.metadata_location));
  head += R"(,"metadata":)";
  std::string tail;
  if (access.config.empty()) {
    tail += R"(,"config":{})";
  } else {
    tail += R"(,"config":)";
    tail += boost::json::serialize(StringObject(access.config));
  }
  if (access.credentials) {
    tail += R"(,"storage-credentials":)";
    tail += boost::json::serialize(StorageCredentials(access.credentials.get()));
  }
  tail += "}";
  std::string body;
  body.reserve(head.size() + metadata_json.size() + tail.size());
  body += head;
  body += metadata_json;
  body += tail;
  Response r = Response::Json(200, std::move(body));
  if (!t.metadata_location.empty() && !access.credentials) {
    r.SetHeader("ETag", t.table->Etag(mode));
  }
  if (!access.warning.empty()) {
    // RFC 9111's Warning syntax (code 299: a persistent warning), quotes made safe.
    std::string text = access.warning;
    std::replace(text.begin(), text.end(), '"', '\'');
    r.SetHeader("Warning", "299 firn \"" + text + "\"");
  }
  if (gzip_for != nullptr && http::ShouldGzip(*gzip_for, r)) {
    if (const DeflatedPiece* metadata = t.table->MetadataGzip(mode)) {
      const DeflatedPiece head_piece = StoredPiece(head);
      const DeflatedPiece tail_piece = StoredPiece(tail);
      http::UseGzipBody(r, GzipJoin({&head_piece, metadata, &tail_piece}));
    }
  }
  return r;
}

// A table's route path relative to the catalog URI the client configured ("v1/…"; the
// client's URI may end in /api/catalog): where its refresh and sign endpoints hang.
std::string RelativeTablePath(std::string_view path) {
  const size_t v1 = path.find("/v1/");
  return std::string(v1 == std::string_view::npos ? path : path.substr(v1 + 1));
}

// createTable / registerTable: with vended credentials when asked (authorised beforehand).
Result<Response> CreatedTableResponse(CatalogService& service, const Request& req,
                                      const RequestContext& ctx, const store::Identifier& id,
                                      const LoadedTable& t) {
  std::string path = req.path;
  if (path.ends_with("/register")) path.resize(path.size() - std::string_view("register").size());
  if (!path.ends_with("/")) path += "/";
  if (!path.ends_with("/tables/")) path += "tables/";
  path += PercentEncode(id.name);
  FIRN_ASSIGN_OR_RETURN(catalog::TableAccess access,
                        service.TableAccessFor(ctx, id, t.table->metadata, DelegationOf(req),
                                               RelativeTablePath(path)));
  return LoadTableResponse(t, SnapshotMode::kAll, access);
}

// RemoteSignRequest {region, uri, method, headers: {name: [value…]}, body?, provider?}.
Result<io::s3::ClientS3Request> ParseSignRequest(std::string_view text) {
  FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(text));
  io::s3::ClientS3Request r;
  FIRN_ASSIGN_OR_RETURN(std::string region, RequiredString(body, "region"));
  (void)region;  // the catalog's own region signs; a client cannot pick another
  FIRN_ASSIGN_OR_RETURN(r.uri, RequiredString(body, "uri"));
  FIRN_ASSIGN_OR_RETURN(std::string method, RequiredString(body, "method"));
  r.method = ToUpper(method);
  FIRN_ASSIGN_OR_RETURN(std::optional<std::string> provider, OptionalString(body, "provider"));
  if (provider && !EqualsIgnoreCase(*provider, "s3")) {
    return Fail(ErrorKind::kIllegalArgument,
                "Remote signing supports the s3 provider only, not '" + *provider + "'");
  }
  FIRN_ASSIGN_OR_RETURN(std::optional<std::string> payload, OptionalString(body, "body"));
  r.body = payload.value_or("");
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* headers, RequiredObject(body, "headers"));
  for (const auto& [name, values] : headers->as_object()) {
    if (!values.is_array()) {
      return Fail(ErrorKind::kBadRequest, "Invalid sign request: headers." + std::string(name) +
                                              " must be an array of strings");
    }
    for (const auto& v : values.as_array()) {
      if (!v.is_string()) {
        return Fail(ErrorKind::kBadRequest, "Invalid sign request: headers." +
                                                std::string(name) + " must be an array of strings");
      }
      r.headers.push_back({std::string(name), std::string(v.as_string())});
    }
  }
  return r;
}

// RemoteSignResult {uri, headers: {name: [value]}}, never cached by the client.
Response SignResponse(const std::string& uri, const std::vector<io::s3::HttpHeader>& headers) {
  boost::json::object out;
  out["uri"] = uri;
  boost::json::object h;
  for (const io::s3::HttpHeader& header : headers) {
    h[header.name].emplace_array().emplace_back(header.value);
  }
  out["headers"] = std::move(h);
  Response r = Response::Json(200, boost::json::serialize(out));
  r.SetHeader("Cache-Control", "no-cache");
  return r;
}

Status AuthorizeCreateDelegation(CatalogService& service, const Request& req,
                                 const RequestContext& ctx, const store::Identifier& id) {
  if (!DelegationOf(req).vend) return Ok();
  return service.AuthorizeVending(ctx, id, /*creating=*/true);
}

Result<LoadedTable> RegisterTable(CatalogService& service, const RequestContext& ctx,
                                  const store::Namespace& ns, const RegisterRequest& r) {
  return service.RegisterTable(ctx, {ns, r.name}, r.metadata_location, r.overwrite);
}

Response CommitTableResponse(const LoadedTable& t) {
  std::string body;
  const std::string& metadata_json = t.table->MetadataJson(SnapshotMode::kAll);
  body.reserve(metadata_json.size() + t.metadata_location.size() + 48);
  body += R"({"metadata-location":)";
  body += boost::json::serialize(boost::json::string(t.metadata_location));
  body += R"(,"metadata":)";
  body += metadata_json;
  body += "}";
  Response r = Response::Json(200, std::move(body));
  r.SetHeader("ETag", t.table->Etag(SnapshotMode::kAll));
  return r;
}

Result<SnapshotMode> SnapshotModeParam(const QueryParams& query) {
  auto mode = query.Get("snapshots");
  if (!mode || mode->empty() || *mode == "all") return SnapshotMode::kAll;
  if (*mode == "refs") return SnapshotMode::kRefs;
  return Fail(ErrorKind::kBadRequest, "Invalid snapshots mode: must be 'all' or 'refs'");
}

Result<catalog::CreateTableRequest> ParseCreateTable(std::string_view text) {
  FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(text));
  catalog::CreateTableRequest req;
  FIRN_ASSIGN_OR_RETURN(req.name, RequiredString(body, "name"));
  FIRN_RETURN_IF_ERROR(catalog::ValidateName("table name", req.name));
  FIRN_ASSIGN_OR_RETURN(req.location, OptionalString(body, "location"));
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* schema, RequiredObject(body, "schema"));
  req.schema = *schema;
  if (auto* spec = body.if_contains("partition-spec"); spec && !spec->is_null()) {
    req.partition_spec = *spec;
  }
  if (auto* order = body.if_contains("write-order"); order && !order->is_null()) {
    req.write_order = *order;
  }
  FIRN_ASSIGN_OR_RETURN(req.stage_create, OptionalBool(body, "stage-create", false));
  FIRN_ASSIGN_OR_RETURN(req.properties, StringMap(body, "properties"));
  return req;
}

// createTable and registerTable; both honour Idempotency-Key.
constexpr NewObjectRoutes<catalog::CreateTableRequest, LoadedTable> kNewTableRoutes{
    "/namespaces/{namespace}/tables", ParseCreateTable, &CatalogService::CreateTable,
    RouteRegistrar::KeyedRetries::kYes, "/namespaces/{namespace}/register",
    ParseRegisterTable, RegisterTable, CreatedTableResponse, AuthorizeCreateDelegation};

}  // namespace

void AddTableRoutes(RouteRegistrar& routes, CatalogService& service) {
  constexpr std::string_view kTable = "/namespaces/{namespace}/tables/{table}";
  using Id = store::Identifier;
  AddListObjectsRoute(routes, "/namespaces/{namespace}/tables", service,
                      &CatalogService::ListTables);

  AddNewObjectRoutes(routes, service, kNewTableRoutes);

  AddObjectRoute(
      routes, Method::kGet, kTable,
      [&service](const Request& req, const Id& id, const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(req.query));
        FIRN_ASSIGN_OR_RETURN(SnapshotMode mode, SnapshotModeParam(query));
        const catalog::Delegation delegation = DelegationOf(req);
        const bool vend = delegation.vend;
        if (vend) FIRN_RETURN_IF_ERROR(service.AuthorizeVending(ctx, id, /*creating=*/false));
        FIRN_ASSIGN_OR_RETURN(LoadedTable table, service.LoadTable(ctx, id));
        const std::string& etag = table.table->Etag(mode);
        if (auto inm = req.GetHeader("If-None-Match");
            !vend && !inm.empty() && http::IfNoneMatch(inm, etag)) {
          // "Not modified" promises the client its copy is still good; check the file is
          // still there (one stat, only on this path) rather than vouch for a lost file.
          FIRN_RETURN_IF_ERROR(service.CheckMetadataFileExists(ctx, table));
          Response r = Response::Empty(304);
          r.SetHeader("ETag", etag);
          return r;
        }
        FIRN_ASSIGN_OR_RETURN(catalog::TableAccess access,
                              service.TableAccessFor(ctx, id, table.table->metadata, delegation,
                                                     RelativeTablePath(req.path)));
        return LoadTableResponse(table, mode, access, &req);
      });

  // signRequest (REST 1.11): one S3 request of an engine, signed when it stays inside the
  // table and fits the caller's privileges.
  AddObjectRoute(
      routes, Method::kPost, std::string(kTable) + "/sign",
      [&service](const Request& req, const Id& id, const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(io::s3::ClientS3Request request, ParseSignRequest(req.body));
        FIRN_ASSIGN_OR_RETURN(auto headers, service.SignRequest(ctx, id, request));
        return SignResponse(request.uri, headers);
      });

  // signS3Request (the older S3 signer API, deprecated; clients <= 1.10 and hand-configured
  // ones post to `s3.signer.uri` + "v1/aws/s3/sign"): the request names no table, so the
  // location index finds the one table holding every key it touches, and the request is signed
  // as signRequest on that table, in its catalog. Every refusal is one 403 (FindSignOwner).
  routes.AddRootRoute(
      Method::kPost, "/aws/s3/sign",
      [&service, access = routes.access(), &catalogs = routes.catalogs()](
          const Request& req, const http::PathParams&,
          const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(io::s3::ClientS3Request request, ParseSignRequest(req.body));
        FIRN_ASSIGN_OR_RETURN(catalog::SignOwner owner, service.FindSignOwner(ctx, request));
        RequestContext owner_ctx = ctx;
        owner_ctx.scope.catalog = owner.catalog;
        auto snapshot = access.state.Current();
        if (snapshot) {
          owner_ctx.catalog =
              ResolveCatalog(access, catalogs, *snapshot, ctx.scope.realm, owner.catalog);
        }
        if (!owner_ctx.catalog) {
          return catalog::SignOwnerRefusal(Error{ErrorKind::kNoSuchWarehouse, ""});
        }
        auto headers = service.SignRequest(owner_ctx, owner.id, request);
        if (!headers) return catalog::SignOwnerRefusal(headers.error());
        return SignResponse(request.uri, *headers);
      });

  // loadCredentials: what a client's refresh asks for (planId is accepted and not needed:
  // Firn plans no scans).
  AddObjectRoute(
      routes, Method::kGet, std::string(kTable) + "/credentials",
      [&service](const Request&, const Id& id, const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(auto credentials, service.LoadCredentials(ctx, id));
        boost::json::object body;
        body["storage-credentials"] = StorageCredentials(credentials.get());
        return Response::Json(200, boost::json::serialize(body));
      });

  AddObjectActionRoute(routes, Method::kHead, kTable, service, &CatalogService::TableExists,
                       RouteRegistrar::KeyedRetries::kNo);

  AddObjectRoute(
      routes, Method::kPost, kTable,
      [&service](const Request& req, const Id& id, const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(auto json, ParseJsonBody(req.body));
        FIRN_ASSIGN_OR_RETURN(catalog::TableChange change, ParseTableChange(json, &id));
        FIRN_ASSIGN_OR_RETURN(LoadedTable table, service.UpdateTable(ctx, change));
        return CommitTableResponse(table);
      },
      RouteRegistrar::KeyedRetries::kYes);

  AddObjectRoute(
      routes, Method::kDelete, kTable,
      [&service](const Request& req, const Id& id, const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(req.query));
        FIRN_ASSIGN_OR_RETURN(bool purge, BoolParam(query, "purgeRequested"));
        FIRN_RETURN_IF_ERROR(service.DropTable(ctx, id, purge));
        return Response::Empty(204);
      },
      RouteRegistrar::KeyedRetries::kYes);

  AddRenameObjectRoute(routes, "/tables/rename", service, &CatalogService::RenameTable);

  AddObjectRoute(
      routes, Method::kPost, std::string(kTable) + "/metrics",
      [&service](const Request& req, const Id& id, const RequestContext& ctx) -> Result<Response> {
        FIRN_ASSIGN_OR_RETURN(boost::json::object body, RequestObject(req.body));
        FIRN_ASSIGN_OR_RETURN(std::string type, RequiredString(body, "report-type"));
        FIRN_RETURN_IF_ERROR(service.ReportMetrics(ctx, id, type, boost::json::serialize(body)));
        return Response::Empty(204);
      });
}

}  // namespace firn::rest
