// The request pipeline over every route family (catalog, management, token): what admission
// refuses from the header alone, the realm and client every route gets, that handlers use the
// admitted caller instead of authenticating again, and the shape of each refusal.
#include "rest/request_pipeline.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "../access/management_test_support.h"
#include "access/token_service.h"
#include "catalog/catalog_service.h"
#include "common/clock.h"
#include "io/object_store.h"
#include "rest/management_routes.h"
#include "rest/oauth_routes.h"
#include "rest/route_registrar.h"
#include "rest/routes.h"

namespace firn::rest {
namespace {

namespace json = boost::json;
using http::Method;

// Realms r1 and r2, each with admin alice ("alice-id"/"alice-secret") and catalog "wh"; the
// realm header is X-Realm, so no route may fall back to Polaris-Realm.
class RequestPipelineTest : public access::testing::ManagementTest {
 protected:
  void SetUp() override {
    ManagementTest::SetUp();
    ASSERT_TRUE(access::Bootstrap(*store_, access::testing::AliceOptions("r2"), access::testing::TestKeks(),
                                  NowMillis()));
    ASSERT_TRUE(state_->Refresh());
    access::AuthConfig config;
    config.realm_header = "X-Realm";
    config.default_realm = "r1";
    authenticator_ = std::make_unique<access::Authenticator>(config);
    ASSERT_TRUE(authenticator_->Start());
    tokens_ = std::make_unique<access::TokenService>(*authenticator_,
                                                     [this] { return state_->Current(); });
    catalog_ = std::make_unique<catalog::CatalogService>(
        store_, io::MakeDefaultObjectStore(), catalog::CatalogRegistry({"wh", "file:///tmp/x"}));
    router_ = std::make_unique<http::Router>(ErrorFallbacks());
    AccessDeps deps{*state_, *authenticator_, "wh"};
    AddAllRoutes(*router_, *catalog_, deps, nullptr);
    AddOAuthRoutes(*router_, *tokens_, deps);
    AddManagementRoutes(*router_, *service_, *state_, *authenticator_);
    pipeline_ = std::make_unique<RequestPipeline>(*router_, deps, 16u << 20);
    r1_token_ = Token("r1");
  }

  void TearDown() override {
    pipeline_.reset();
    router_.reset();
    catalog_.reset();
    tokens_.reset();
    ManagementTest::TearDown();
  }

  std::string Token(const std::string& realm) {
    http::Request req = Request(Method::kPost, "/v1/oauth/tokens", {{"X-Realm", realm}});
    req.body = "grant_type=client_credentials&client_id=alice-id&client_secret=alice-secret"
               "&scope=PRINCIPAL_ROLE:ALL";
    http::Response res = Serve(req);
    EXPECT_EQ(res.status, 200) << res.body;
    return std::string(json::parse(res.body).at("access_token").as_string());
  }

  static http::Request Request(Method method, std::string path,
                               std::vector<http::Header> headers = {}) {
    http::Request req;
    req.method = method;
    req.path = req.target = std::move(path);
    req.headers = std::move(headers);
    req.request_id = "rid";
    req.remote_address = "127.0.0.1";
    return req;
  }

  // What the server does: admit from the header, then (when admitted) handle.
  http::Response Serve(http::Request& req) {
    http::Admission a = pipeline_->Admit(req);
    if (a.refusal) return std::move(*a.refusal);
    return pipeline_->Handle(req);
  }

  static json::object Body(const http::Response& r) { return json::parse(r.body).as_object(); }

  std::unique_ptr<access::Authenticator> authenticator_;
  std::unique_ptr<access::TokenService> tokens_;
  std::unique_ptr<catalog::CatalogService> catalog_;
  std::unique_ptr<http::Router> router_;
  std::unique_ptr<RequestPipeline> pipeline_;
  std::string r1_token_;
};

TEST_F(RequestPipelineTest, UnknownRoutesAreRefusedFromTheHeaderWithTheRouterFallback) {
  http::Request nowhere = Request(Method::kPost, "/v1/nowhere/at/all");
  http::Admission a = pipeline_->Admit(nowhere);
  ASSERT_TRUE(a.refusal);
  EXPECT_EQ(a.refusal->status, 404);
  EXPECT_EQ(Body(*a.refusal).at("error").at("type").as_string(), "NotFoundException");
  http::Request wrong_method = Request(Method::kDelete, "/v1/oauth/tokens");
  a = pipeline_->Admit(wrong_method);
  ASSERT_TRUE(a.refusal);
  EXPECT_EQ(a.refusal->status, 405);
  EXPECT_EQ(a.refusal->GetHeader("Allow"), "POST");
}

TEST_F(RequestPipelineTest, MissingOrForgedTokenIsRefusedFromTheHeaderOnEveryAuthenticatedRoute) {
  for (const auto& [method, path] : std::vector<std::pair<Method, std::string>>{
           {Method::kPost, "/v1/namespaces"},
           {Method::kPost, "/v1/wh/namespaces/db/tables"},
           {Method::kGet, "/v1/config"},
           {Method::kPost, "/api/management/v1/principals"}}) {
    for (std::string auth : {"", "Bearer forged.token.value", "Basic cjEtaWQ6cjEtc2VjcmV0"}) {
      http::Request req = Request(method, path);
      if (!auth.empty()) req.headers.push_back({"Authorization", auth});
      http::Admission a = pipeline_->Admit(req);
      ASSERT_TRUE(a.refusal) << path << " " << auth;
      EXPECT_EQ(a.refusal->status, 401) << path;
      auto body = Body(*a.refusal);
      EXPECT_EQ(body.at("error").at("type").as_string(), "NotAuthorizedException") << path;
      EXPECT_FALSE(req.context.has_value()) << path;
    }
  }
}

TEST_F(RequestPipelineTest, TokenRouteIsAdmittedWithoutBearerUnderItsOwnBodyCap) {
  for (std::string path : {"/v1/oauth/tokens", "/api/catalog/v1/oauth/tokens"}) {
    http::Request req = Request(Method::kPost, path);
    http::Admission a = pipeline_->Admit(req);
    EXPECT_FALSE(a.refusal) << path;
    EXPECT_EQ(a.max_body_bytes, kTokenMaxBodyBytes) << path;
    const RequestCall* call = std::any_cast<RequestCall>(&req.context);
    ASSERT_NE(call, nullptr) << path;
    EXPECT_EQ(call->kind, RouteKind::kToken);
    EXPECT_EQ(call->caller, nullptr);
  }
  // Other admitted routes keep the server's limit.
  http::Request req = Request(Method::kPost, "/v1/namespaces",
                              {{"Authorization", "Bearer " + r1_token_}});
  http::Admission a = pipeline_->Admit(req);
  EXPECT_FALSE(a.refusal);
  EXPECT_GT(a.max_body_bytes, uint64_t{16} << 20);
}

TEST_F(RequestPipelineTest, HandlersUseTheAdmittedCallerAndDoNotAuthenticateAgain) {
  for (std::string path : {"/api/management/v1/principals", "/v1/namespaces", "/v1/config"}) {
    http::Request req = Request(Method::kGet, path, {{"Authorization", "Bearer " + r1_token_}});
    ASSERT_FALSE(pipeline_->Admit(req).refusal) << path;
    // Without its token the request would be refused if the handler authenticated again.
    req.headers.clear();
    http::Response res = pipeline_->Handle(req);
    EXPECT_EQ(res.status, 200) << path << ": " << res.body;
    // Not admitted and without a token: the handler establishes the call itself, and refuses.
    http::Request bare = Request(Method::kGet, path);
    EXPECT_EQ(pipeline_->Handle(bare).status, 401) << path;
  }
}

TEST_F(RequestPipelineTest, EveryRouteTakesTheRealmFromTheConfiguredHeaderOnly) {
  // Polaris-Realm is not the configured header here: every route lands in the default realm.
  std::vector<http::Header> decoy = {{"Polaris-Realm", "r2"},
                                     {"Authorization", "Bearer " + r1_token_}};
  for (std::string path : {"/v1/namespaces", "/api/management/v1/principals", "/v1/config"}) {
    http::Request req = Request(Method::kGet, path, decoy);
    http::Response res = Serve(req);
    EXPECT_EQ(res.status, 200) << path << ": " << res.body;
    const RequestCall* call = std::any_cast<RequestCall>(&req.context);
    ASSERT_NE(call, nullptr) << path;
    EXPECT_EQ(call->realm, "r1") << path;
  }
  http::Request token = Request(Method::kPost, "/v1/oauth/tokens", {{"Polaris-Realm", "r2"}});
  token.body = "grant_type=client_credentials&client_id=alice-id&client_secret=alice-secret";
  http::Response issued = Serve(token);
  ASSERT_EQ(issued.status, 200) << issued.body;
  EXPECT_EQ(std::any_cast<RequestCall>(&token.context)->realm, "r1");
  // ...and the token it issued is r1's: accepted with r1's realm, refused in r2.
  const std::string r1_issued(Body(issued).at("access_token").as_string());
  http::Request in_r1 = Request(Method::kGet, "/v1/config",
                                {{"Authorization", "Bearer " + r1_issued}});
  EXPECT_EQ(Serve(in_r1).status, 200);

  // The configured header moves every route to r2 (so r1's token is refused everywhere).
  for (std::string path : {"/v1/namespaces", "/api/management/v1/principals", "/v1/config"}) {
    http::Request req =
        Request(Method::kGet, path, {{"X-Realm", "r2"}, {"Authorization", "Bearer " + r1_token_}});
    EXPECT_EQ(Serve(req).status, 401) << path;
  }
  token = Request(Method::kPost, "/v1/oauth/tokens", {{"X-Realm", "r2"}});
  token.body = "grant_type=client_credentials&client_id=alice-id&client_secret=alice-secret";
  issued = Serve(token);
  ASSERT_EQ(issued.status, 200) << issued.body;
  EXPECT_EQ(std::any_cast<RequestCall>(&token.context)->realm, "r2");
  const std::string r2_issued(Body(issued).at("access_token").as_string());
  in_r1.headers = {{"Authorization", "Bearer " + r2_issued}};
  EXPECT_EQ(Serve(in_r1).status, 401);  // an r2 token is not valid in r1
}

TEST_F(RequestPipelineTest, CatalogAndManagementContextsCarryTheSameClient) {
  std::vector<http::Header> headers = {{"Authorization", "Bearer " + r1_token_},
                                       {"User-Agent", "probe/1"},
                                       {"X-Client-Name", "pipeline"},
                                       {"X-Client-Pad", std::string(600, 'p')}};
  http::Request req = Request(Method::kGet, "/v1/namespaces", headers);
  ASSERT_FALSE(pipeline_->Admit(req).refusal);
  const RequestCall* call = std::any_cast<RequestCall>(&req.context);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->client.size(), kMaxClientBytes);
  EXPECT_TRUE(call->client.starts_with("probe/1; X-Client-Name=pipeline; X-Client-Pad=ppp"));
  AccessDeps deps{*state_, *authenticator_, "wh"};
  auto ctx = MakeRequestContext(deps, catalog_->catalogs(), req, {});
  ASSERT_TRUE(ctx) << ctx.error().message;
  EXPECT_EQ(ctx->client, call->client);
  EXPECT_EQ(ctx->scope.realm, call->realm);
  // The management route records what it was given in its audit row: the same string.
  http::Request create = Request(Method::kPost, "/api/management/v1/principals", headers);
  create.body = R"({"principal":{"name":"probe"}})";
  ASSERT_EQ(Serve(create).status, 201);
  store::AuditFilter q;
  q.realm = "r1";
  q.operation = "createPrincipal";
  auto rows = store_->ListAudit(q);
  ASSERT_TRUE(rows) << rows.error().message;
  bool found = false;
  for (const auto& e : *rows) {
    found = true;
    EXPECT_EQ(e.client, call->client);
  }
  EXPECT_TRUE(found);
}

TEST_F(RequestPipelineTest, RefusalsHaveTheShapeOfTheirRoute) {
  http::Request token = Request(Method::kPost, "/v1/oauth/tokens");
  http::Request catalog_req = Request(Method::kPost, "/v1/namespaces");
  // Before admission (worker queue full) the route alone decides the shape.
  http::Response busy = pipeline_->Overloaded(token);
  EXPECT_EQ(busy.status, 503);
  EXPECT_EQ(Body(busy).at("error").as_string(), "temporarily_unavailable");
  EXPECT_EQ(busy.GetHeader("Retry-After"), "1");
  EXPECT_EQ(busy.GetHeader("Cache-Control"), "no-store");
  busy = pipeline_->Overloaded(catalog_req);
  EXPECT_EQ(busy.status, 503);
  EXPECT_EQ(Body(busy).at("error").at("type").as_string(), "ServiceUnavailableException");
  EXPECT_EQ(busy.GetHeader("Retry-After"), "1");

  ASSERT_FALSE(pipeline_->Admit(token).refusal);
  http::Response big = pipeline_->TooLarge(token);
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(Body(big).at("error").as_string(), "invalid_request");
  EXPECT_NE(Body(big).at("error_description").as_string().find("65536"), std::string::npos);
  big = pipeline_->TooLarge(catalog_req);
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(Body(big).at("error").at("code").as_int64(), 413);
  EXPECT_EQ(pipeline_->InternalError(token).status, 500);
  EXPECT_EQ(Body(pipeline_->InternalError(token)).at("error").as_string(), "server_error");
}

}  // namespace
}  // namespace firn::rest
