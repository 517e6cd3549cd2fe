// Firn's OpenAPI documents against the route table and against the facts of the released
// specifications (Iceberg REST catalog 1.11.0, Polaris management API): operation ids with
// their methods, paths and success statuses, and the required fields of the main bodies.
// The facts are carried here; the test reads no specification file.
#include "../access/access_test_support.h"
#include "rest/openapi.h"
#include "rest/request_pipeline.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "access/bootstrap.h"
#include "access/management_service.h"
#include "access/token_service.h"
#include "auth/operations.h"
#include "catalog/catalog_service.h"
#include "common/clock.h"
#include "io/object_store.h"
#include "rest/management_routes.h"
#include "rest/oauth_routes.h"
#include "rest/routes.h"
#include "store/sqlite/sqlite_catalog_store.h"

namespace firn::rest {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

struct SpecOperation {
  const char* id;
  const char* method;
  const char* path;
  int success;
};

// Iceberg REST catalog spec 1.11.0: every operation.
constexpr SpecOperation kIcebergOperations[] = {
    {"getConfig", "GET", "/v1/config", 200},
    {"getToken", "POST", "/v1/oauth/tokens", 200},
    {"listNamespaces", "GET", "/v1/{prefix}/namespaces", 200},
    {"createNamespace", "POST", "/v1/{prefix}/namespaces", 200},
    {"loadNamespaceMetadata", "GET", "/v1/{prefix}/namespaces/{namespace}", 200},
    {"namespaceExists", "HEAD", "/v1/{prefix}/namespaces/{namespace}", 204},
    {"dropNamespace", "DELETE", "/v1/{prefix}/namespaces/{namespace}", 204},
    {"updateProperties", "POST", "/v1/{prefix}/namespaces/{namespace}/properties", 200},
    {"listTables", "GET", "/v1/{prefix}/namespaces/{namespace}/tables", 200},
    {"createTable", "POST", "/v1/{prefix}/namespaces/{namespace}/tables", 200},
    {"planTableScan", "POST", "/v1/{prefix}/namespaces/{namespace}/tables/{table}/plan", 200},
    {"fetchPlanningResult", "GET",
     "/v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}", 200},
    {"cancelPlanning", "DELETE",
     "/v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}", 204},
    {"fetchScanTasks", "POST", "/v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks", 200},
    {"registerTable", "POST", "/v1/{prefix}/namespaces/{namespace}/register", 200},
    {"loadTable", "GET", "/v1/{prefix}/namespaces/{namespace}/tables/{table}", 200},
    {"updateTable", "POST", "/v1/{prefix}/namespaces/{namespace}/tables/{table}", 200},
    {"dropTable", "DELETE", "/v1/{prefix}/namespaces/{namespace}/tables/{table}", 204},
    {"tableExists", "HEAD", "/v1/{prefix}/namespaces/{namespace}/tables/{table}", 204},
    {"loadCredentials", "GET", "/v1/{prefix}/namespaces/{namespace}/tables/{table}/credentials",
     200},
    {"signRequest", "POST", "/v1/{prefix}/namespaces/{namespace}/tables/{table}/sign", 200},
    {"renameTable", "POST", "/v1/{prefix}/tables/rename", 204},
    {"reportMetrics", "POST", "/v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics", 204},
    {"commitTransaction", "POST", "/v1/{prefix}/transactions/commit", 204},
    {"listViews", "GET", "/v1/{prefix}/namespaces/{namespace}/views", 200},
    {"createView", "POST", "/v1/{prefix}/namespaces/{namespace}/views", 200},
    {"loadView", "GET", "/v1/{prefix}/namespaces/{namespace}/views/{view}", 200},
    {"replaceView", "POST", "/v1/{prefix}/namespaces/{namespace}/views/{view}", 200},
    {"dropView", "DELETE", "/v1/{prefix}/namespaces/{namespace}/views/{view}", 204},
    {"viewExists", "HEAD", "/v1/{prefix}/namespaces/{namespace}/views/{view}", 204},
    {"renameView", "POST", "/v1/{prefix}/views/rename", 204},
    {"registerView", "POST", "/v1/{prefix}/namespaces/{namespace}/register-view", 200},
};

// The S3 signer spec (s3-signer-open-api.yaml, deprecated in favour of signRequest).
constexpr SpecOperation kS3SignerOperations[] = {
    {"signS3Request", "POST", "/v1/aws/s3/sign", 200},
};

// The spec operations Firn does not serve (server-side scan planning). Everything else must
// be in the document.
const std::set<std::string> kNotServed = {"planTableScan", "fetchPlanningResult",
                                          "cancelPlanning", "fetchScanTasks"};

// Polaris management API: every operation (paths relative to /api/management/v1).
constexpr SpecOperation kManagementOperations[] = {
    {"listCatalogs", "GET", "/catalogs", 200},
    {"createCatalog", "POST", "/catalogs", 201},
    {"getCatalog", "GET", "/catalogs/{catalogName}", 200},
    {"updateCatalog", "PUT", "/catalogs/{catalogName}", 200},
    {"deleteCatalog", "DELETE", "/catalogs/{catalogName}", 204},
    {"listPrincipals", "GET", "/principals", 200},
    {"createPrincipal", "POST", "/principals", 201},
    {"getPrincipal", "GET", "/principals/{principalName}", 200},
    {"updatePrincipal", "PUT", "/principals/{principalName}", 200},
    {"deletePrincipal", "DELETE", "/principals/{principalName}", 204},
    {"rotateCredentials", "POST", "/principals/{principalName}/rotate", 200},
    {"resetCredentials", "POST", "/principals/{principalName}/reset", 200},
    {"listPrincipalRolesAssigned", "GET", "/principals/{principalName}/principal-roles", 200},
    {"assignPrincipalRole", "PUT", "/principals/{principalName}/principal-roles", 201},
    {"revokePrincipalRole", "DELETE",
     "/principals/{principalName}/principal-roles/{principalRoleName}", 204},
    {"listPrincipalRoles", "GET", "/principal-roles", 200},
    {"createPrincipalRole", "POST", "/principal-roles", 201},
    {"getPrincipalRole", "GET", "/principal-roles/{principalRoleName}", 200},
    {"updatePrincipalRole", "PUT", "/principal-roles/{principalRoleName}", 200},
    {"deletePrincipalRole", "DELETE", "/principal-roles/{principalRoleName}", 204},
    {"listAssigneePrincipalsForPrincipalRole", "GET",
     "/principal-roles/{principalRoleName}/principals", 200},
    {"listCatalogRolesForPrincipalRole", "GET",
     "/principal-roles/{principalRoleName}/catalog-roles/{catalogName}", 200},
    {"assignCatalogRoleToPrincipalRole", "PUT",
     "/principal-roles/{principalRoleName}/catalog-roles/{catalogName}", 201},
    {"revokeCatalogRoleFromPrincipalRole", "DELETE",
     "/principal-roles/{principalRoleName}/catalog-roles/{catalogName}/{catalogRoleName}", 204},
    {"listCatalogRoles", "GET", "/catalogs/{catalogName}/catalog-roles", 200},
    {"createCatalogRole", "POST", "/catalogs/{catalogName}/catalog-roles", 201},
    {"getCatalogRole", "GET", "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}", 200},
    {"updateCatalogRole", "PUT", "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}", 200},
    {"deleteCatalogRole", "DELETE", "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}",
     204},
    {"listAssigneePrincipalRolesForCatalogRole", "GET",
     "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/principal-roles", 200},
    {"listGrantsForCatalogRole", "GET",
     "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/grants", 200},
    {"addGrantToCatalogRole", "PUT",
     "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/grants", 201},
    {"revokeGrantFromCatalogRole", "POST",
     "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/grants", 201},
};

// Required fields of request bodies in the released specs, by operation id. Firn may require
// more than the spec (what its handler cannot do without), never less.
const std::map<std::string, std::set<std::string>> kRequiredRequestFields = {
    {"createNamespace", {"namespace"}},
    {"createTable", {"name", "schema"}},
    {"registerTable", {"name", "metadata-location"}},
    {"updateTable", {"requirements", "updates"}},
    {"renameTable", {"source", "destination"}},
    {"reportMetrics", {"report-type"}},
    {"commitTransaction", {"table-changes"}},
    {"createView", {"name", "schema", "view-version", "properties"}},
    {"replaceView", {"updates"}},
    {"renameView", {"source", "destination"}},
    {"registerView", {"name", "metadata-location"}},
    {"createCatalog", {"catalog"}},
    {"updatePrincipal", {"currentEntityVersion", "properties"}},
    {"updatePrincipalRole", {"currentEntityVersion", "properties"}},
    {"updateCatalogRole", {"currentEntityVersion", "properties"}},
};

// Required fields of success response bodies in the released specs.
const std::map<std::string, std::set<std::string>> kRequiredResponseFields = {
    {"getConfig", {"defaults", "overrides"}},
    {"createNamespace", {"namespace"}},
    {"loadNamespaceMetadata", {"namespace"}},
    {"updateProperties", {"updated", "removed"}},
    {"createTable", {"metadata"}},
    {"registerTable", {"metadata"}},
    {"loadTable", {"metadata"}},
    {"updateTable", {"metadata-location", "metadata"}},
    {"createView", {"metadata-location", "metadata"}},
    {"loadView", {"metadata-location", "metadata"}},
    {"replaceView", {"metadata-location", "metadata"}},
    {"registerView", {"metadata-location", "metadata"}},
    {"listCatalogs", {"catalogs"}},
    {"getCatalog", {"name", "type", "storageConfigInfo", "properties"}},
    {"createPrincipal", {"principal", "credentials"}},
    {"listPrincipals", {"principals"}},
    {"getPrincipal", {"name"}},
    {"listPrincipalRoles", {"roles"}},
    {"listCatalogRoles", {"roles"}},
    {"listGrantsForCatalogRole", {"grants"}},
};

class OpenApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "firn-openapi-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto opened = store::OpenSqliteStore((dir_ / "catalog.db").string());
    ASSERT_TRUE(opened) << opened.error().message;
    store_ = std::move(*opened);
    access::BootstrapOptions boot;
    boot.realm = "r1";
    boot.admin_name = "alice";
    boot.credentials = access::BootstrapCredentials{"alice-id", Secret("alice-secret")};
    boot.catalog = catalog::CatalogInfo{"wh", "file://" + (dir_ / "wh").string()};
    ASSERT_TRUE(access::Bootstrap(*store_, boot, access::testing::TestKeks(), NowMillis()));
    state_ = std::make_unique<access::AccessState>(store_, "openapi-test",
                                                   access::testing::SharedTestKeks());
    ASSERT_TRUE(state_->Start());
    access::AuthConfig config;
    config.default_realm = "r1";
    auth_ = std::make_unique<access::Authenticator>(config);
    ASSERT_TRUE(auth_->Start());
    tokens_ = std::make_unique<access::TokenService>(*auth_, [this] { return state_->Current(); });
    management_ = std::make_unique<access::ManagementService>(*store_, *store_, *state_);
    service_ = std::make_unique<catalog::CatalogService>(
        store_, io::MakeDefaultObjectStore(),
        catalog::CatalogRegistry(catalog::CatalogInfo{"wh", "file://" + (dir_ / "wh").string()}));
    router_ = std::make_unique<http::Router>(ErrorFallbacks());
    // Exactly what server_app.cc registers.
    const AccessDeps deps{*state_, *auth_, "wh"};
    AddAllRoutes(*router_, *service_, deps, nullptr);
    AddOAuthRoutes(*router_, *tokens_, deps);
    AddManagementRoutes(*router_, *management_, *state_, *auth_);
    AddOpenApiRoutes(*router_);
    pipeline_ = std::make_unique<RequestPipeline>(*router_, deps, uint64_t{16} << 20);
  }
  void TearDown() override {
    pipeline_.reset();
    router_.reset();
    service_.reset();
    management_.reset();
    tokens_.reset();
    state_->Stop();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  json::object Served(const std::string& path) {
    http::Request req;
    req.method = http::Method::kGet;
    req.path = req.target = path;
    req.request_id = "rid";
    // Through the pipeline, as a server would: admitted without an Authorization header.
    http::Admission admission = pipeline_->Admit(req);
    EXPECT_FALSE(admission.refusal) << path << ": " << admission.refusal->body;
    http::Response res = router_->Dispatch(req);
    EXPECT_EQ(res.status, 200) << path << ": " << res.body;
    EXPECT_EQ(res.GetHeader("Content-Type"), "application/json");
    return json::parse(res.body).as_object();
  }

  // operationId → {method, path, operation}.
  struct Found {
    std::string method;
    std::string path;
    const json::object* op;
  };
  static std::map<std::string, Found> Operations(const json::object& doc) {
    std::map<std::string, Found> out;
    for (const auto& [path, item] : doc.at("paths").as_object()) {
      for (const auto& [method, op] : item.as_object()) {
        std::string upper(method);
        for (char& c : upper) c = static_cast<char>(std::toupper(c));
        const json::object& o = op.as_object();
        std::string id(o.at("operationId").as_string());
        EXPECT_FALSE(out.contains(id)) << "duplicate operationId " << id;
        out[id] = Found{upper, std::string(path), &o};
      }
    }
    return out;
  }

  static const json::object& Schema(const json::object& doc, const json::value& ref_holder) {
    std::string_view ref = ref_holder.as_object().at("$ref").as_string();
    constexpr std::string_view kPrefix = "#/components/schemas/";
    EXPECT_TRUE(ref.starts_with(kPrefix)) << ref;
    return doc.at("components").at("schemas").at(ref.substr(kPrefix.size())).as_object();
  }
  static std::set<std::string> Required(const json::object& schema) {
    std::set<std::string> out;
    if (auto* r = schema.if_contains("required")) {
      for (const auto& f : r->as_array()) out.insert(std::string(f.as_string()));
    }
    return out;
  }

  fs::path dir_;
  std::shared_ptr<store::CatalogStore> store_;
  std::unique_ptr<access::AccessState> state_;
  std::unique_ptr<access::Authenticator> auth_;
  std::unique_ptr<access::TokenService> tokens_;
  std::unique_ptr<access::ManagementService> management_;
  std::unique_ptr<catalog::CatalogService> service_;
  std::unique_ptr<http::Router> router_;
  std::unique_ptr<RequestPipeline> pipeline_;
};

TEST_F(OpenApiTest, EveryRegisteredRouteIsDocumented) {
  EXPECT_EQ(UndocumentedRoutes(router_->Routes()), std::vector<std::string>{});
}

TEST_F(OpenApiTest, AnUnregisteredOperationIsLeftOutAndAnUnknownRouteIsReported) {
  std::vector<http::Router::RouteEntry> routes = {{http::Method::kGet, "/v1/config"},
                                                  {http::Method::kPost, "/v1/secret-thing"}};
  json::object doc = CatalogOpenApi(routes);
  EXPECT_EQ(doc.at("paths").as_object().size(), 1u);
  EXPECT_TRUE(doc.at("paths").as_object().contains("/v1/config"));
  EXPECT_EQ(UndocumentedRoutes(routes), std::vector<std::string>{"POST /v1/secret-thing"});
}

TEST_F(OpenApiTest, ServedUnauthenticatedAtBothCatalogBasesAndTheManagementBase) {
  json::object catalog = Served("/v1/openapi.json");
  EXPECT_EQ(Served("/api/catalog/v1/openapi.json"), catalog);
  EXPECT_EQ(catalog, CatalogOpenApi(router_->Routes()));
  EXPECT_EQ(catalog.at("openapi").as_string(), "3.0.3");
  json::object management = Served("/api/management/v1/openapi.json");
  EXPECT_EQ(management, ManagementOpenApi(router_->Routes()));
  EXPECT_EQ(management.at("servers").at(0).at("url").as_string(), "/api/management/v1");
  // The catalog routes themselves still need a token.
  http::Request req;
  req.path = req.target = "/v1/namespaces";
  EXPECT_EQ(router_->Dispatch(req).status, 401);
}

TEST_F(OpenApiTest, CatalogOperationsMatchTheReleasedSpec) {
  json::object doc = CatalogOpenApi(router_->Routes());
  auto ops = Operations(doc);
  std::set<std::string> expected;
  std::vector<SpecOperation> spec(std::begin(kIcebergOperations), std::end(kIcebergOperations));
  spec.insert(spec.end(), std::begin(kS3SignerOperations), std::end(kS3SignerOperations));
  for (const SpecOperation& s : spec) {
    if (kNotServed.contains(s.id)) {
      EXPECT_FALSE(ops.contains(s.id)) << s.id << " is documented but Firn does not serve it";
      continue;
    }
    expected.insert(s.id);
    ASSERT_TRUE(ops.contains(s.id)) << s.id;
    EXPECT_EQ(ops[s.id].method, s.method) << s.id;
    EXPECT_EQ(ops[s.id].path, s.path) << s.id;
    EXPECT_TRUE(ops[s.id].op->at("responses").as_object().contains(std::to_string(s.success)))
        << s.id << " lacks its success status " << s.success;
  }
  for (const auto& [id, found] : ops) {
    if (id == "getCatalogOpenApi") continue;  // Firn's own
    EXPECT_TRUE(expected.contains(id)) << id << " is not a spec operation";
  }
}

TEST_F(OpenApiTest, ManagementOperationsMatchThePolarisSpec) {
  json::object doc = ManagementOpenApi(router_->Routes());
  auto ops = Operations(doc);
  for (const SpecOperation& s : kManagementOperations) {
    ASSERT_TRUE(ops.contains(s.id)) << s.id;
    EXPECT_EQ(ops[s.id].method, s.method) << s.id;
    EXPECT_EQ(ops[s.id].path, s.path) << s.id;
    EXPECT_TRUE(ops[s.id].op->at("responses").as_object().contains(std::to_string(s.success)))
        << s.id << " lacks its success status " << s.success;
  }
  // Firn's additions to the management API.
  EXPECT_EQ(ops.size(), std::size(kManagementOperations) + 17);
  EXPECT_TRUE(ops.contains("listMetricsReports"));
  for (const char* id : {"listEvents", "listEventSinks", "createEventSink", "getEventSink",
                         "deleteEventSink"}) {
    EXPECT_TRUE(ops.contains(id)) << id;
  }
  EXPECT_TRUE(ops.contains("moveTableOut"));
  EXPECT_TRUE(ops.contains("cancelTableMove"));
  EXPECT_TRUE(ops.contains("maintainTable"));
  EXPECT_TRUE(ops.contains("listDroppedObjects"));
  EXPECT_TRUE(ops.contains("undropObject"));
  EXPECT_TRUE(ops.contains("expungeDroppedObject"));
  EXPECT_TRUE(ops.contains("listAuditEntries"));
  EXPECT_TRUE(ops.contains("listTasks"));
  EXPECT_TRUE(ops.contains("getManagementOpenApi"));
}

// Every operation a route serves is authorised and audited by its auth::Operation rule
// (auth/operations.h), under the same operationId and in the same API; only the documents
// themselves are unauthenticated.
TEST_F(OpenApiTest, EveryServedOperationHasAnAuthorizationRule) {
  const std::pair<json::object, auth::Api> docs[] = {
      {CatalogOpenApi(router_->Routes()), auth::Api::kIcebergRest},
      {ManagementOpenApi(router_->Routes()), auth::Api::kManagement}};
  for (const auto& [doc, api] : docs) {
    for (const auto& [id, found] : Operations(doc)) {
      if (id == "getCatalogOpenApi" || id == "getManagementOpenApi") continue;
      // The table-less signer is authorised as signRequest on the table it reaches.
      const std::string rule_id = id == "signS3Request" ? "signRequest" : id;
      EXPECT_TRUE(std::ranges::any_of(auth::OperationRules(), [&](const auth::OperationRule& r) {
        return r.operation_id == rule_id && r.api == api;
      })) << id << " has no rule in auth/operations.cc";
    }
  }
}

TEST_F(OpenApiTest, BodiesRequireAtLeastWhatTheSpecRequires) {
  json::object catalog = CatalogOpenApi(router_->Routes());
  json::object management = ManagementOpenApi(router_->Routes());
  for (const json::object* doc : {&catalog, &management}) {
    for (const auto& [id, found] : Operations(*doc)) {
      if (auto it = kRequiredRequestFields.find(id); it != kRequiredRequestFields.end()) {
        const json::value& body = found.op->at("requestBody");
        const json::object& schema =
            Schema(*doc, body.at("content").at("application/json").at("schema"));
        std::set<std::string> required = Required(schema);
        for (const std::string& f : it->second) {
          EXPECT_TRUE(required.contains(f)) << id << " request must require '" << f << "'";
          EXPECT_TRUE(schema.at("properties").as_object().contains(f)) << id << " " << f;
        }
      }
      if (auto it = kRequiredResponseFields.find(id); it != kRequiredResponseFields.end()) {
        const json::object& responses = found.op->at("responses").as_object();
        const json::value* ok = responses.if_contains("200");
        if (!ok) ok = responses.if_contains("201");
        ASSERT_NE(ok, nullptr) << id;
        const json::object& schema =
            Schema(*doc, ok->at("content").at("application/json").at("schema"));
        std::set<std::string> required = Required(schema);
        for (const std::string& f : it->second) {
          EXPECT_TRUE(required.contains(f)) << id << " response must require '" << f << "'";
        }
      }
    }
  }
}

// Every $ref of a document resolves inside it (a dangling one breaks every client generator).
void CheckRefs(const json::object& doc, const json::value& v, int& count) {
  if (v.is_array()) {
    for (const auto& e : v.as_array()) CheckRefs(doc, e, count);
    return;
  }
  if (!v.is_object()) return;
  for (const auto& [k, e] : v.as_object()) {
    if (k == "$ref") {
      ++count;
      std::string_view ref = e.as_string();
      ASSERT_TRUE(ref.starts_with("#/components/")) << ref;
      ref.remove_prefix(13);
      size_t slash = ref.find('/');
      const json::value* kind = doc.at("components").as_object().if_contains(ref.substr(0, slash));
      ASSERT_NE(kind, nullptr) << ref;
      EXPECT_TRUE(kind->as_object().contains(ref.substr(slash + 1))) << "dangling $ref " << ref;
    } else {
      CheckRefs(doc, e, count);
    }
  }
}

TEST_F(OpenApiTest, EveryReferenceResolvesAndEveryPathParameterIsDeclared) {
  for (const json::object& doc :
       {CatalogOpenApi(router_->Routes()), ManagementOpenApi(router_->Routes())}) {
    int refs = 0;
    CheckRefs(doc, doc, refs);
    EXPECT_GT(refs, 50);
    const json::object& params = doc.at("components").at("parameters").as_object();
    for (const auto& [path, item] : doc.at("paths").as_object()) {
      for (const auto& [method, op] : item.as_object()) {
        std::set<std::string> declared;
        if (auto* p = op.as_object().if_contains("parameters")) {
          for (const auto& ref : p->as_array()) {
            std::string_view name = ref.at("$ref").as_string();
            name.remove_prefix(std::string_view("#/components/parameters/").size());
            const json::object& param = params.at(name).as_object();
            if (param.at("in").as_string() == "path") {
              declared.insert(std::string(param.at("name").as_string()));
            }
          }
        }
        std::set<std::string> in_path;
        for (size_t open = path.find('{'); open != std::string::npos;
             open = path.find('{', open + 1)) {
          in_path.insert(std::string(path.substr(open + 1, path.find('}', open) - open - 1)));
        }
        EXPECT_EQ(declared, in_path) << method << " " << path;
      }
    }
  }
}

}  // namespace
}  // namespace firn::rest
