#include "rest/openapi.h"

#include "rest/request_pipeline.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <set>
#include <span>
#include <string_view>

#include "rest/openapi_schemas.h"

namespace firn::rest {
namespace {

using http::Method;
namespace json = boost::json;

constexpr std::string_view kCatalogBase = "/v1";
constexpr std::string_view kCatalogAliasBase = "/api/catalog/v1";
constexpr std::string_view kManagementBase = "/api/management/v1";
constexpr std::string_view kDocName = "/openapi.json";

// How an operation's body is sent, and which error body it answers with.
enum class Body { kNone, kJson, kOptionalJson, kForm };
enum class Errors { kIceberg, kOAuth };
enum class Auth { kBearer, kNone };

// One documented operation. `path` is the registered pattern; `query` names entries of
// openapi_schemas.cc's parameter components, comma-separated; `request` / `response` name
// schema components ("" = no body). `success` is the status of a successful call; `also` is a
// second success status without a body (304 on a conditional load).
struct Operation {
  Method method;
  std::string_view path;
  std::string_view id;
  std::string_view tag;
  std::string_view summary;
  std::string_view query = "";
  Body body = Body::kNone;
  std::string_view request = "";
  int success = 200;
  std::string_view response = "";
  int also = 0;
  Errors errors = Errors::kIceberg;
  Auth auth = Auth::kBearer;
};

// Idempotency-Key is accepted on every mutation that a client may retry (RouteRegistrar's
// KeyedRetries::kYes).
constexpr Operation kCatalogOperations[] = {
    {Method::kGet, "/v1/config", "getConfig", "Configuration",
     "Catalog configuration and the endpoints this server serves", "warehouse", Body::kNone, "",
     200, "CatalogConfig"},
    {Method::kPost, "/v1/oauth/tokens", "getToken", "OAuth2",
     "Exchange client credentials (or a token) for an access token", "", Body::kForm,
     "OAuthTokenRequest", 200, "OAuthTokenResponse", 0, Errors::kOAuth, Auth::kNone},
    {Method::kGet, "/v1/{prefix}/namespaces", "listNamespaces", "Namespaces",
     "List the namespaces under a parent (top level by default)", "pageToken,pageSize,parent",
     Body::kNone, "", 200, "ListNamespacesResponse"},
    {Method::kPost, "/v1/{prefix}/namespaces", "createNamespace", "Namespaces",
     "Create a namespace with optional properties", "idempotencyKey", Body::kJson,
     "CreateNamespaceRequest", 200, "CreateNamespaceResponse"},
    {Method::kGet, "/v1/{prefix}/namespaces/{namespace}", "loadNamespaceMetadata", "Namespaces",
     "A namespace and its properties", "", Body::kNone, "", 200, "GetNamespaceResponse"},
    {Method::kHead, "/v1/{prefix}/namespaces/{namespace}", "namespaceExists", "Namespaces",
     "204 when the namespace exists, 404 when not", "", Body::kNone, "", 204},
    {Method::kDelete, "/v1/{prefix}/namespaces/{namespace}", "dropNamespace", "Namespaces",
     "Drop an empty namespace", "idempotencyKey", Body::kNone, "", 204},
    {Method::kPost, "/v1/{prefix}/namespaces/{namespace}/properties", "updateProperties",
     "Namespaces", "Set and remove namespace properties", "idempotencyKey", Body::kJson,
     "UpdateNamespacePropertiesRequest", 200, "UpdateNamespacePropertiesResponse"},
    {Method::kGet, "/v1/{prefix}/namespaces/{namespace}/tables", "listTables", "Tables",
     "List the tables of a namespace", "pageToken,pageSize", Body::kNone, "", 200,
     "ListTablesResponse"},
    {Method::kPost, "/v1/{prefix}/namespaces/{namespace}/tables", "createTable", "Tables",
     "Create a table, or stage its creation for a later commit", "idempotencyKey,accessDelegation",
     Body::kJson, "CreateTableRequest", 200, "LoadTableResult"},
    {Method::kPost, "/v1/{prefix}/namespaces/{namespace}/register", "registerTable", "Tables",
     "Register an existing metadata file as a table", "idempotencyKey,accessDelegation",
     Body::kJson, "RegisterTableRequest", 200, "LoadTableResult"},
    {Method::kGet, "/v1/{prefix}/namespaces/{namespace}/tables/{table}", "loadTable", "Tables",
     "Load a table's current metadata (304 when If-None-Match names its ETag)",
     "snapshots,ifNoneMatch,accessDelegation", Body::kNone, "", 200, "LoadTableResult", 304},
    {Method::kGet, "/v1/{prefix}/namespaces/{namespace}/tables/{table}/credentials",
     "loadCredentials", "Tables", "Vended storage credentials for a table (refresh)", "planId",
     Body::kNone, "", 200, "LoadCredentialsResponse"},
    {Method::kPost, "/v1/{prefix}/namespaces/{namespace}/tables/{table}/sign", "signRequest",
     "Tables", "Sign one S3 request inside the table's locations (remote signing)", "",
     Body::kJson, "RemoteSignRequest", 200, "RemoteSignResult"},
    {Method::kPost, "/v1/aws/s3/sign", "signS3Request", "S3 Signer API",
     "Deprecated: sign one S3 request inside the one table whose locations hold it", "",
     Body::kJson, "RemoteSignRequest", 200, "RemoteSignResult"},
    {Method::kHead, "/v1/{prefix}/namespaces/{namespace}/tables/{table}", "tableExists", "Tables",
     "204 when the table exists, 404 when not", "", Body::kNone, "", 204},
    {Method::kPost, "/v1/{prefix}/namespaces/{namespace}/tables/{table}", "updateTable",
     "Tables", "Commit requirements and updates to one table", "idempotencyKey", Body::kJson,
     "CommitTableRequest", 200, "CommitTableResponse"},
    {Method::kDelete, "/v1/{prefix}/namespaces/{namespace}/tables/{table}", "dropTable",
     "Tables", "Drop a table; purgeRequested also deletes its files", "purgeRequested,idempotencyKey",
     Body::kNone, "", 204},
    {Method::kPost, "/v1/{prefix}/tables/rename", "renameTable", "Tables",
     "Rename or move a table", "idempotencyKey", Body::kJson, "RenameTableRequest", 204},
    {Method::kPost, "/v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
     "reportMetrics", "Tables", "Accept a scan or commit report", "", Body::kJson,
     "ReportMetricsRequest", 204},
    {Method::kPost, "/v1/{prefix}/transactions/commit", "commitTransaction", "Tables",
     "Commit changes to several tables atomically", "idempotencyKey", Body::kJson,
     "CommitTransactionRequest", 204},
    {Method::kGet, "/v1/{prefix}/namespaces/{namespace}/views", "listViews", "Views",
     "List the views of a namespace", "pageToken,pageSize", Body::kNone, "", 200,
     "ListTablesResponse"},
    {Method::kPost, "/v1/{prefix}/namespaces/{namespace}/views", "createView", "Views",
     "Create a view", "", Body::kJson, "CreateViewRequest", 200, "LoadViewResult"},
    {Method::kPost, "/v1/{prefix}/namespaces/{namespace}/register-view", "registerView", "Views",
     "Register an existing view metadata file as a view", "idempotencyKey", Body::kJson,
     "RegisterViewRequest", 200, "LoadViewResult"},
    {Method::kGet, "/v1/{prefix}/namespaces/{namespace}/views/{view}", "loadView", "Views",
     "Load a view's current metadata", "", Body::kNone, "", 200, "LoadViewResult"},
    {Method::kHead, "/v1/{prefix}/namespaces/{namespace}/views/{view}", "viewExists", "Views",
     "204 when the view exists, 404 when not", "", Body::kNone, "", 204},
    {Method::kPost, "/v1/{prefix}/namespaces/{namespace}/views/{view}", "replaceView", "Views",
     "Commit requirements and updates to a view", "idempotencyKey", Body::kJson,
     "CommitViewRequest", 200, "LoadViewResult"},
    {Method::kDelete, "/v1/{prefix}/namespaces/{namespace}/views/{view}", "dropView", "Views",
     "Drop a view", "idempotencyKey", Body::kNone, "", 204},
    {Method::kPost, "/v1/{prefix}/views/rename", "renameView", "Views", "Rename or move a view",
     "idempotencyKey", Body::kJson, "RenameTableRequest", 204},
    {Method::kGet, "/v1/openapi.json", "getCatalogOpenApi", "Documentation",
     "This document", "", Body::kNone, "", 200, "OpenApiDocument", 0, Errors::kIceberg,
     Auth::kNone},
};

#define FIRN_MGMT "/api/management/v1"
constexpr Operation kManagementOperations[] = {
    {Method::kGet, FIRN_MGMT "/catalogs", "listCatalogs", "Catalogs", "List the realm's catalogs",
     "", Body::kNone, "", 200, "Catalogs"},
    {Method::kPost, FIRN_MGMT "/catalogs", "createCatalog", "Catalogs", "Create a catalog", "",
     Body::kJson, "CreateCatalogRequest", 201, "Catalog"},
    {Method::kGet, FIRN_MGMT "/catalogs/{catalogName}", "getCatalog", "Catalogs", "One catalog",
     "", Body::kNone, "", 200, "Catalog"},
    {Method::kPut, FIRN_MGMT "/catalogs/{catalogName}", "updateCatalog", "Catalogs",
     "Change a catalog's properties or storage configuration", "", Body::kJson,
     "UpdateCatalogRequest", 200, "Catalog"},
    {Method::kDelete, FIRN_MGMT "/catalogs/{catalogName}", "deleteCatalog", "Catalogs",
     "Delete an empty catalog", "", Body::kNone, "", 204},
    {Method::kGet, FIRN_MGMT "/principals", "listPrincipals", "Principals",
     "List the realm's principals", "", Body::kNone, "", 200, "Principals"},
    {Method::kPost, FIRN_MGMT "/principals", "createPrincipal", "Principals",
     "Create a principal; the answer carries its secret, once", "", Body::kJson,
     "CreatePrincipalRequest", 201, "PrincipalWithCredentials"},
    {Method::kGet, FIRN_MGMT "/principals/{principalName}", "getPrincipal", "Principals",
     "One principal", "", Body::kNone, "", 200, "Principal"},
    {Method::kPut, FIRN_MGMT "/principals/{principalName}", "updatePrincipal", "Principals",
     "Replace a principal's properties", "", Body::kJson, "UpdatePropertiesRequest", 200,
     "Principal"},
    {Method::kDelete, FIRN_MGMT "/principals/{principalName}", "deletePrincipal", "Principals",
     "Delete a principal", "", Body::kNone, "", 204},
    {Method::kPost, FIRN_MGMT "/principals/{principalName}/rotate", "rotateCredentials",
     "Principals", "Issue a new secret (the previous one keeps working until the next rotation)",
     "", Body::kNone, "", 200, "PrincipalWithCredentials"},
    {Method::kPost, FIRN_MGMT "/principals/{principalName}/reset", "resetCredentials",
     "Principals", "Replace a principal's credentials", "", Body::kOptionalJson,
     "ResetPrincipalRequest", 200, "PrincipalWithCredentials"},
    {Method::kGet, FIRN_MGMT "/principals/{principalName}/principal-roles",
     "listPrincipalRolesAssigned", "Principals", "The principal roles a principal holds", "",
     Body::kNone, "", 200, "PrincipalRoles"},
    {Method::kPut, FIRN_MGMT "/principals/{principalName}/principal-roles", "assignPrincipalRole",
     "Principals", "Give a principal a principal role", "", Body::kJson,
     "GrantPrincipalRoleRequest", 201},
    {Method::kDelete, FIRN_MGMT "/principals/{principalName}/principal-roles/{principalRoleName}",
     "revokePrincipalRole", "Principals", "Take a principal role from a principal", "",
     Body::kNone, "", 204},
    {Method::kGet, FIRN_MGMT "/principal-roles", "listPrincipalRoles", "Principal roles",
     "List the realm's principal roles", "", Body::kNone, "", 200, "PrincipalRoles"},
    {Method::kPost, FIRN_MGMT "/principal-roles", "createPrincipalRole", "Principal roles",
     "Create a principal role", "", Body::kJson, "CreatePrincipalRoleRequest", 201,
     "PrincipalRole"},
    {Method::kGet, FIRN_MGMT "/principal-roles/{principalRoleName}", "getPrincipalRole",
     "Principal roles", "One principal role", "", Body::kNone, "", 200, "PrincipalRole"},
    {Method::kPut, FIRN_MGMT "/principal-roles/{principalRoleName}", "updatePrincipalRole",
     "Principal roles", "Replace a principal role's properties", "", Body::kJson,
     "UpdatePropertiesRequest", 200, "PrincipalRole"},
    {Method::kDelete, FIRN_MGMT "/principal-roles/{principalRoleName}", "deletePrincipalRole",
     "Principal roles", "Delete a principal role", "", Body::kNone, "", 204},
    {Method::kGet, FIRN_MGMT "/principal-roles/{principalRoleName}/principals",
     "listAssigneePrincipalsForPrincipalRole", "Principal roles",
     "The principals holding a principal role", "", Body::kNone, "", 200, "Principals"},
    {Method::kGet, FIRN_MGMT "/principal-roles/{principalRoleName}/catalog-roles/{catalogName}",
     "listCatalogRolesForPrincipalRole", "Principal roles",
     "The catalog roles of one catalog that a principal role holds", "", Body::kNone, "", 200,
     "CatalogRoles"},
    {Method::kPut, FIRN_MGMT "/principal-roles/{principalRoleName}/catalog-roles/{catalogName}",
     "assignCatalogRoleToPrincipalRole", "Principal roles",
     "Give a principal role a catalog role", "", Body::kJson, "GrantCatalogRoleRequest", 201},
    {Method::kDelete,
     FIRN_MGMT "/principal-roles/{principalRoleName}/catalog-roles/{catalogName}/{catalogRoleName}",
     "revokeCatalogRoleFromPrincipalRole", "Principal roles",
     "Take a catalog role from a principal role", "", Body::kNone, "", 204},
    {Method::kGet, FIRN_MGMT "/catalogs/{catalogName}/catalog-roles", "listCatalogRoles",
     "Catalog roles", "List a catalog's roles", "", Body::kNone, "", 200, "CatalogRoles"},
    {Method::kPost, FIRN_MGMT "/catalogs/{catalogName}/catalog-roles", "createCatalogRole",
     "Catalog roles", "Create a catalog role", "", Body::kJson, "CreateCatalogRoleRequest", 201,
     "CatalogRole"},
    {Method::kGet, FIRN_MGMT "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}",
     "getCatalogRole", "Catalog roles", "One catalog role", "", Body::kNone, "", 200,
     "CatalogRole"},
    {Method::kPut, FIRN_MGMT "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}",
     "updateCatalogRole", "Catalog roles", "Replace a catalog role's properties", "",
     Body::kJson, "UpdatePropertiesRequest", 200, "CatalogRole"},
    {Method::kDelete, FIRN_MGMT "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}",
     "deleteCatalogRole", "Catalog roles", "Delete a catalog role", "", Body::kNone, "", 204},
    {Method::kGet,
     FIRN_MGMT "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/principal-roles",
     "listAssigneePrincipalRolesForCatalogRole", "Catalog roles",
     "The principal roles holding a catalog role", "", Body::kNone, "", 200, "PrincipalRoles"},
    {Method::kGet, FIRN_MGMT "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/grants",
     "listGrantsForCatalogRole", "Grants", "The privileges granted to a catalog role", "",
     Body::kNone, "", 200, "GrantResources"},
    {Method::kPut, FIRN_MGMT "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/grants",
     "addGrantToCatalogRole", "Grants", "Grant a privilege to a catalog role", "", Body::kJson,
     "AddGrantRequest", 201},
    {Method::kPost, FIRN_MGMT "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/grants",
     "revokeGrantFromCatalogRole", "Grants", "Revoke a privilege from a catalog role",
     "cascade", Body::kJson, "RevokeGrantRequest", 201},
    {Method::kGet, FIRN_MGMT "/audit", "listAuditEntries", "Audit",
     "Firn's audit trail of access decisions and changes, newest first",
     "auditCatalog,auditPrincipal,auditOperation,auditOutcome,auditObjectPrefix,auditSince,"
     "auditUntil,auditAfterId,auditLimit",
     Body::kNone, "", 200, "AuditPage"},
    {Method::kGet, FIRN_MGMT "/tasks", "listTasks", "Tasks",
     "Firn's durable tasks (purges, maintenance) of the caller's realm, newest first",
     "taskState,taskKind,taskLimit", Body::kNone, "", 200, "TaskList"},
    {Method::kGet, FIRN_MGMT "/events", "listEvents", "Events",
     "Firn's change feed of the caller's realm: CloudEvents in commit order after a cursor",
     "eventAfter,eventCatalog,taskLimit", Body::kNone, "", 200, "EventPage"},
    {Method::kGet, FIRN_MGMT "/event-sinks", "listEventSinks", "Events",
     "Webhooks of the caller's realm with their delivery state", "", Body::kNone, "", 200,
     "EventSinkList"},
    {Method::kPost, FIRN_MGMT "/event-sinks", "createEventSink", "Events",
     "Send the change feed to a webhook (CloudEvents, signed when a secret is given)", "",
     Body::kJson, "CreateEventSinkRequest", 201, "EventSink"},
    {Method::kGet, FIRN_MGMT "/event-sinks/{sinkName}", "getEventSink", "Events",
     "One webhook with its delivery state", "", Body::kNone, "", 200, "EventSink"},
    {Method::kDelete, FIRN_MGMT "/event-sinks/{sinkName}", "deleteEventSink", "Events",
     "Stop sending to a webhook and forget it", "", Body::kNone, "", 204},
    {Method::kGet, FIRN_MGMT "/catalogs/{catalogName}/dropped-objects", "listDroppedObjects",
     "Soft delete", "Dropped tables and views of a catalog, kept for its retention, oldest first",
     "pageToken,pageSize", Body::kNone, "", 200, "DroppedObjects"},
    {Method::kPost, FIRN_MGMT "/catalogs/{catalogName}/dropped-objects/{dropId}/undrop",
     "undropObject", "Soft delete",
     "Restore a dropped table or view under its old name or the target's", "",
     Body::kOptionalJson, "UndropRequest", 200, "DroppedObject"},
    {Method::kDelete, FIRN_MGMT "/catalogs/{catalogName}/dropped-objects/{dropId}",
     "expungeDroppedObject", "Soft delete",
     "End a dropped object's retention now: purge it if its drop asked for that, then forget it",
     "", Body::kNone, "", 204},
    {Method::kGet, FIRN_MGMT "/catalogs/{catalogName}/namespaces/{namespace}/tables/{table}/metrics-reports",
     "listMetricsReports", "Metrics reports",
     "The scan and commit reports engines sent for one table, oldest first after afterId",
     "reportType,auditAfterId,taskLimit", Body::kNone, "", 200, "MetricsReportPage"},
    {Method::kPost, FIRN_MGMT "/catalogs/{catalogName}/namespaces/{namespace}/tables/{table}/maintenance",
     "maintainTable", "Maintenance",
     "Expire snapshots or remove orphan files of one table (dryRun lists what would go)", "",
     Body::kJson, "MaintenanceRequest", 200, "MaintenanceReport"},
    {Method::kPost, FIRN_MGMT "/catalogs/{catalogName}/namespaces/{namespace}/tables/{table}/move-out",
     "moveTableOut", "Moves",
     "Mark a table as moving to another catalog (commits refused, loads served) and let the "
     "target take its claim over", "", Body::kOptionalJson, "MoveOutRequest", 200, "TableClaim"},
    {Method::kDelete, FIRN_MGMT "/catalogs/{catalogName}/namespaces/{namespace}/tables/{table}/move-out",
     "cancelTableMove", "Moves", "Cancel a move the target has not taken over", "",
     Body::kNone, "", 200, "TableClaim"},
    {Method::kPost, FIRN_MGMT "/catalogs/{catalogName}/namespaces/{namespace}/tables/{table}/move",
     "moveTable", "Moves",
     "Move a table to another catalog of this deployment in one transaction (files and history "
     "stay; grants do not)", "", Body::kJson, "MoveRequest", 200, "MovedObject"},
    {Method::kPost, FIRN_MGMT "/catalogs/{catalogName}/namespaces/{namespace}/views/{view}/move",
     "moveView", "Moves",
     "Move a view to another catalog of this deployment in one transaction", "", Body::kJson,
     "MoveRequest", 200, "MovedObject"},
    {Method::kGet, FIRN_MGMT "/openapi.json", "getManagementOpenApi", "Documentation",
     "This document", "", Body::kNone, "", 200, "OpenApiDocument", 0, Errors::kIceberg,
     Auth::kNone},
};
#undef FIRN_MGMT

std::string RouteKey(Method method, std::string_view pattern) {
  return std::string(http::MethodName(method)) + " " + std::string(pattern);
}

// The path parameters of a pattern, in order ("{namespace}" → "namespace").
std::vector<std::string> PathParamNames(std::string_view pattern) {
  std::vector<std::string> out;
  size_t open = pattern.find('{');
  while (open != std::string_view::npos) {
    size_t close = pattern.find('}', open);
    if (close == std::string_view::npos) break;
    out.emplace_back(pattern.substr(open + 1, close - open - 1));
    open = pattern.find('{', close);
  }
  return out;
}

json::object Ref(std::string_view kind, std::string_view name) {
  return json::object{{"$ref", "#/components/" + std::string(kind) + "/" + std::string(name)}};
}

json::object Content(std::string_view type, std::string_view schema) {
  return json::object{{std::string(type), json::object{{"schema", Ref("schemas", schema)}}}};
}

json::object OperationJson(const Operation& op) {
  json::object o;
  o["operationId"] = op.id;
  o["summary"] = op.summary;
  o["tags"] = json::array{json::string(op.tag)};
  json::array params;
  for (const std::string& name : PathParamNames(op.path)) params.push_back(Ref("parameters", name));
  std::string_view query = op.query;
  while (!query.empty()) {
    size_t comma = query.find(',');
    params.push_back(Ref("parameters", query.substr(0, comma)));
    query = comma == std::string_view::npos ? std::string_view() : query.substr(comma + 1);
  }
  if (!params.empty()) o["parameters"] = std::move(params);
  if (op.body != Body::kNone) {
    json::object body;
    body["required"] = op.body != Body::kOptionalJson;
    body["content"] = Content(
        op.body == Body::kForm ? "application/x-www-form-urlencoded" : "application/json",
        op.request);
    o["requestBody"] = std::move(body);
  }
  json::object responses;
  json::object ok;
  ok["description"] = op.response.empty() ? "Done; no body" : "Success";
  if (!op.response.empty()) ok["content"] = Content("application/json", op.response);
  responses[std::to_string(op.success)] = std::move(ok);
  if (op.also != 0) {
    responses[std::to_string(op.also)] = json::object{{"description", "Not modified"}};
  }
  if (op.errors == Errors::kOAuth) {
    responses["4XX"] = json::object{{"description", "The request was refused (OAuth2 error)"},
                                    {"content", Content("application/json", "OAuthError")}};
  } else {
    responses["4XX"] = Ref("responses", "ClientError");
  }
  responses["5XX"] = Ref("responses", "ServerError");
  o["responses"] = std::move(responses);
  if (op.auth == Auth::kNone) o["security"] = json::array();
  return o;
}

// Path of the pattern inside the document: the management document's server URL carries the
// base, so its paths are relative to it.
std::string DocPath(std::string_view pattern, std::string_view strip) {
  return std::string(pattern.substr(strip.size()));
}

json::object Document(const std::vector<http::Router::RouteEntry>& routes,
                      std::span<const Operation> operations, std::string_view title,
                      std::string_view description, std::string_view server,
                      std::string_view strip) {
  std::set<std::string> registered;
  for (const auto& r : routes) registered.insert(RouteKey(r.method, r.pattern));
  json::object paths;
  for (const Operation& op : operations) {
    if (!registered.contains(RouteKey(op.method, op.path))) continue;
    std::string method(http::MethodName(op.method));
    for (char& c : method) c = static_cast<char>(c - 'A' + 'a');
    json::value& item = paths[DocPath(op.path, strip)];
    if (!item.is_object()) item = json::object();
    item.as_object()[method] = OperationJson(op);
  }
  json::object doc;
  doc["openapi"] = "3.0.3";
  doc["info"] = json::object{{"title", title},
                             {"version", FIRN_VERSION_STRING},
                             {"description", description}};
  doc["servers"] = json::array{json::object{{"url", server}}};
  doc["security"] = json::array{json::object{{"bearer", json::array()}}};
  doc["paths"] = std::move(paths);
  doc["components"] = OpenApiComponents();
  return doc;
}

bool Documented(std::span<const Operation> operations, const http::Router::RouteEntry& r) {
  for (const Operation& op : operations) {
    if (op.method == r.method && op.path == r.pattern) return true;
  }
  return false;
}

bool IsAlias(const std::vector<http::Router::RouteEntry>& routes,
             const http::Router::RouteEntry& r) {
  if (r.pattern.starts_with(kCatalogAliasBase)) return true;
  if (!r.pattern.starts_with(std::string(kCatalogBase) + "/")) return false;
  std::string prefixed =
      std::string(kCatalogBase) + "/{prefix}" + r.pattern.substr(kCatalogBase.size());
  for (const auto& other : routes) {
    if (other.method == r.method && other.pattern == prefixed) return true;
  }
  return false;
}

}  // namespace

json::object CatalogOpenApi(const std::vector<http::Router::RouteEntry>& routes) {
  return Document(
      routes, kCatalogOperations, "Firn Iceberg REST catalog",
      "The Apache Iceberg REST catalog operations this Firn server serves, generated from its "
      "route table. Every catalog route is also served without the {prefix} segment (the "
      "realm's default catalog) and under /api/catalog/v1 instead of /v1. Errors are the "
      "Iceberg error model; the token endpoint answers OAuth2 errors.",
      "/", "");
}

json::object ManagementOpenApi(const std::vector<http::Router::RouteEntry>& routes) {
  return Document(routes, kManagementOperations, "Firn management API",
                  "Catalogs, principals, roles and grants (the Polaris management API as Firn "
                  "serves it) and Firn's audit trail, generated from the route table. Errors "
                  "are the Iceberg error model.",
                  kManagementBase, kManagementBase);
}

std::vector<std::string> UndocumentedRoutes(const std::vector<http::Router::RouteEntry>& routes) {
  std::vector<std::string> out;
  for (const auto& r : routes) {
    if (IsAlias(routes, r) || Documented(kCatalogOperations, r) ||
        Documented(kManagementOperations, r)) {
      continue;
    }
    out.push_back(RouteKey(r.method, r.pattern));
  }
  return out;
}

void AddOpenApiRoutes(http::Router& router) {
  // Registered first so that the documents list their own routes too.
  auto placeholder = [](const http::Request&, const http::PathParams&) {
    return http::Response::Empty(503);
  };
  const std::string catalog_doc = std::string(kCatalogBase) + std::string(kDocName);
  const std::string management_doc = std::string(kManagementBase) + std::string(kDocName);
  const auto kPublic = static_cast<uint32_t>(RouteKind::kPublic);  // read without a token
  router.Add(Method::kGet, catalog_doc, placeholder, kPublic);
  router.Add(Method::kGet, management_doc, placeholder, kPublic);
  const std::vector<http::Router::RouteEntry> routes = router.Routes();
  auto serve = [](std::string body) {
    return [body = std::move(body)](const http::Request&, const http::PathParams&) {
      return http::Response::Json(200, body);
    };
  };
  auto catalog = serve(json::serialize(CatalogOpenApi(routes)));
  router.Add(Method::kGet, catalog_doc, catalog, kPublic);
  router.Add(Method::kGet, std::string(kCatalogAliasBase) + std::string(kDocName), catalog,
             kPublic);
  router.Add(Method::kGet, management_doc, serve(json::serialize(ManagementOpenApi(routes))),
             kPublic);
}

}  // namespace firn::rest
