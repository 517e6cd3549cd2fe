// The management routes end to end over the Router: real SQLite store, bootstrapped realm,
// tokens from the TokenService, JSON shapes and status codes of polaris-management-service.yml.
#include "rest/management_routes.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>

#include "access/bootstrap.h"
#include "access/token_service.h"
#include "common/clock.h"
#include "store/sqlite/sqlite_catalog_store.h"
#include "../access/access_test_support.h"

namespace firn::rest {
namespace {

namespace json = boost::json;
using http::Method;

class ManagementRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("firn-mgmt-routes-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto opened = store::OpenSqliteStore((dir_ / "firn.db").string());
    ASSERT_TRUE(opened) << opened.error().message;
    store_ = std::shared_ptr<store::CatalogStore>(std::move(*opened));
    access::BootstrapOptions boot;
    boot.realm = "r1";
    boot.admin_name = "alice";
    boot.credentials = access::BootstrapCredentials{"alice-id", Secret("alice-secret")};
    catalog::CatalogInfo wh;
    wh.name = "wh";
    wh.base_location = "file:///tmp/wh";
    boot.catalog = wh;
    ASSERT_TRUE(access::Bootstrap(*store_, boot, access::testing::TestKeks(), NowMillis()));
    state_ = std::make_unique<access::AccessState>(store_, "routes-test",
                                                   access::testing::SharedTestKeks());
    ASSERT_TRUE(state_->Start());
    access::AuthConfig config;
    config.default_realm = "r1";
    authenticator_ = std::make_unique<access::Authenticator>(config);
    ASSERT_TRUE(authenticator_->Start());
    tokens_ = std::make_unique<access::TokenService>(
        *authenticator_, [this] { return state_->Current(); });
    access::ManagementOptions mo;
    mo.scrypt = auth::ScryptParams{.log2_n = 4, .r = 8, .p = 1};
    service_ = std::make_unique<access::ManagementService>(*store_, *store_, *state_, mo);
    router_ = std::make_unique<http::Router>(http::Router::Fallbacks{});
    AddManagementRoutes(*router_, *service_, *state_, *authenticator_);
    admin_token_ = Token("alice-id", "alice-secret");
  }

  void TearDown() override {
    router_.reset();
    service_.reset();
    tokens_.reset();
    if (state_) state_->Stop();
    std::filesystem::remove_all(dir_);
  }

  std::string Token(const std::string& id, const std::string& secret) {
    access::TokenRequest req;
    req.realm = "r1";
    req.body = "grant_type=client_credentials&client_id=" + id + "&client_secret=" + secret +
               "&scope=PRINCIPAL_ROLE:ALL";
    auto resp = tokens_->Handle(req, NowMillis() / 1000);
    EXPECT_EQ(resp.status, 200) << resp.body;
    auto v = json::parse(resp.body);
    return std::string(v.as_object().at("access_token").as_string());
  }

  http::Response Call(Method method, std::string target, std::string body = "",
                      std::string token = "") {
    http::Request req;
    req.method = method;
    req.target = target;
    auto q = target.find('?');
    req.path = target.substr(0, q);
    req.query = q == std::string::npos ? "" : target.substr(q + 1);
    req.body = std::move(body);
    req.request_id = "rid";
    req.headers.push_back({"Polaris-Realm", "r1"});
    req.headers.push_back({"User-Agent", "routes-test"});
    if (token.empty()) token = admin_token_;
    if (token != "none") req.headers.push_back({"Authorization", "Bearer " + token});
    return router_->Dispatch(req);
  }

  static json::object Body(const http::Response& r) {
    return json::parse(r.body).as_object();
  }

  std::filesystem::path dir_;
  std::shared_ptr<store::CatalogStore> store_;
  std::unique_ptr<access::AccessState> state_;
  std::unique_ptr<access::Authenticator> authenticator_;
  std::unique_ptr<access::TokenService> tokens_;
  std::unique_ptr<access::ManagementService> service_;
  std::unique_ptr<http::Router> router_;
  std::string admin_token_;
};

constexpr const char* kBase = "/api/management/v1";

std::string Url(const std::string& tail) { return std::string(kBase) + tail; }

TEST_F(ManagementRoutesTest, CatalogLifecycleFollowsTheSpec) {
  auto created = Call(Method::kPost, Url("/catalogs"), R"({"catalog":{
      "type":"INTERNAL","name":"c2",
      "properties":{"default-base-location":"s3://b/c2"},
      "storageConfigInfo":{"storageType":"S3","allowedLocations":["s3://b/c2"],
                           "roleArn":"arn:aws:iam::1:role/r"}}})");
  ASSERT_EQ(created.status, 201) << created.body;
  auto c = Body(created);
  EXPECT_EQ(c.at("name").as_string(), "c2");
  EXPECT_EQ(c.at("type").as_string(), "INTERNAL");
  EXPECT_EQ(c.at("entityVersion").as_int64(), 1);
  EXPECT_EQ(c.at("storageConfigInfo").as_object().at("roleArn").as_string(),
            "arn:aws:iam::1:role/r");

  auto listed = Call(Method::kGet, Url("/catalogs"));
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(Body(listed).at("catalogs").as_array().size(), 2u);

  auto updated = Call(Method::kPut, Url("/catalogs/c2"),
                      R"({"currentEntityVersion":1,"properties":{"k":"v"}})");
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(Body(updated).at("entityVersion").as_int64(), 2);
  auto stale = Call(Method::kPut, Url("/catalogs/c2"),
                    R"({"currentEntityVersion":1,"properties":{"k":"w"}})");
  EXPECT_EQ(stale.status, 409);

  EXPECT_EQ(Call(Method::kDelete, Url("/catalogs/c2")).status, 204);
  auto gone = Call(Method::kGet, Url("/catalogs/c2"));
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(Body(gone).at("error").as_object().at("code").as_int64(), 404);
}

TEST_F(ManagementRoutesTest, PrincipalRolesAndGrantsGiveANewPrincipalAccess) {
  auto created = Call(Method::kPost, Url("/principals"),
                      R"({"principal":{"name":"bob","properties":{}}})");
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.GetHeader("Cache-Control"), "no-store");
  auto pwc = Body(created);
  EXPECT_EQ(pwc.at("principal").as_object().at("name").as_string(), "bob");
  std::string id(pwc.at("credentials").as_object().at("clientId").as_string());
  std::string secret(pwc.at("credentials").as_object().at("clientSecret").as_string());
  EXPECT_EQ(pwc.at("principal").as_object().at("clientId").as_string(), id);
  // Reads never show the secret again.
  EXPECT_EQ(Call(Method::kGet, Url("/principals/bob")).body.find(secret), std::string::npos);

  std::string bob = Token(id, secret);
  auto denied = Call(Method::kGet, Url("/catalogs/wh/catalog-roles"), "", bob);
  EXPECT_EQ(denied.status, 403);
  EXPECT_EQ(Body(denied).at("error").as_object().at("type").as_string(), "ForbiddenException");

  EXPECT_EQ(Call(Method::kPost, Url("/principal-roles"),
                 R"({"principalRole":{"name":"wh_admins"}})").status, 201);
  EXPECT_EQ(Call(Method::kPut, Url("/principals/bob/principal-roles"),
                 R"({"principalRole":{"name":"wh_admins"}})").status, 201);
  EXPECT_EQ(Call(Method::kPost, Url("/catalogs/wh/catalog-roles"),
                 R"({"catalogRole":{"name":"admins"}})").status, 201);
  EXPECT_EQ(Call(Method::kPut, Url("/principal-roles/wh_admins/catalog-roles/wh"),
                 R"({"catalogRole":{"name":"admins"}})").status, 201);
  EXPECT_EQ(Call(Method::kPut, Url("/catalogs/wh/catalog-roles/admins/grants"),
                 R"({"grant":{"type":"catalog","privilege":"CATALOG_MANAGE_ACCESS"}})").status,
            201);
  EXPECT_EQ(Call(Method::kPut, Url("/catalogs/wh/catalog-roles/admins/grants"),
                 R"({"grant":{"type":"table","namespace":["db"],"tableName":"t",
                     "privilege":"TABLE_READ_DATA"}})").status,
            201);
  auto grants = Call(Method::kGet, Url("/catalogs/wh/catalog-roles/admins/grants"));
  ASSERT_EQ(grants.status, 200);
  auto list = Body(grants).at("grants").as_array();
  ASSERT_EQ(list.size(), 2u);
  bool saw_table = false;
  for (const auto& g : list) {
    const auto& o = g.as_object();
    if (o.at("type").as_string() == "table") {
      saw_table = true;
      EXPECT_EQ(o.at("tableName").as_string(), "t");
      EXPECT_EQ(o.at("namespace").as_array().at(0).as_string(), "db");
      EXPECT_EQ(o.at("privilege").as_string(), "TABLE_READ_DATA");
    }
  }
  EXPECT_TRUE(saw_table);

  // The same token now passes: grants are judged per request from the current snapshot.
  auto allowed = Call(Method::kGet, Url("/catalogs/wh/catalog-roles"), "", bob);
  ASSERT_EQ(allowed.status, 200) << allowed.body;
  EXPECT_EQ(Body(allowed).at("roles").as_array().size(), 2u);

  auto revoke = Call(Method::kPost, Url("/catalogs/wh/catalog-roles/admins/grants?cascade=false"),
                     R"({"grant":{"type":"catalog","privilege":"CATALOG_MANAGE_ACCESS"}})");
  EXPECT_EQ(revoke.status, 201);
  EXPECT_EQ(Call(Method::kGet, Url("/catalogs/wh/catalog-roles"), "", bob).status, 403);
}

TEST_F(ManagementRoutesTest, RotationRevokesTokensIssuedBefore) {
  auto created = Call(Method::kPost, Url("/principals"), R"({"principal":{"name":"bob"}})");
  ASSERT_EQ(created.status, 201);
  auto creds = Body(created).at("credentials").as_object();
  std::string id(creds.at("clientId").as_string());
  std::string bob = Token(id, std::string(creds.at("clientSecret").as_string()));
  auto rotated = Call(Method::kPost, Url("/principals/bob/rotate"), "", bob);
  ASSERT_EQ(rotated.status, 200) << rotated.body;
  EXPECT_EQ(Call(Method::kPost, Url("/principals/bob/rotate"), "", bob).status, 401);
}

TEST_F(ManagementRoutesTest, BeforeTheFirstAccessSnapshotIs503) {
  // Never started: no snapshot yet.
  access::AccessState cold(store_, "cold-instance", access::testing::SharedTestKeks());
  access::ManagementService service(*store_, *store_, cold, access::ManagementOptions{});
  http::Router router(http::Router::Fallbacks{});
  AddManagementRoutes(router, service, cold, *authenticator_);
  http::Request req;
  req.method = Method::kGet;
  req.target = req.path = Url("/principals");
  req.request_id = "rid";
  req.headers.push_back({"Authorization", "Bearer " + admin_token_});
  auto r = router.Dispatch(req);
  EXPECT_EQ(r.status, 503);
  EXPECT_NE(r.body.find("Service is starting"), std::string::npos) << r.body;
}

TEST_F(ManagementRoutesTest, BadRequestsAndMissingAuthentication) {
  EXPECT_EQ(Call(Method::kGet, Url("/catalogs"), "", "none").status, 401);
  auto bad_json = Call(Method::kPost, Url("/catalogs"), "{not json");
  EXPECT_EQ(bad_json.status, 400);
  EXPECT_TRUE(Body(bad_json).contains("error"));
  EXPECT_EQ(Call(Method::kPost, Url("/catalogs"), R"({"name":"x"})").status, 400);
  EXPECT_EQ(Call(Method::kPut, Url("/catalogs/wh/catalog-roles/catalog_admin/grants"),
                 R"({"grant":{"type":"view","namespace":["db"],"viewName":"v",
                     "privilege":"TABLE_READ_DATA"}})").status,
            400);
  EXPECT_EQ(Call(Method::kPut, Url("/principals/alice"), R"({"properties":{}})").status, 400);
}

TEST_F(ManagementRoutesTest, AuditListsChangesWithFilters) {
  ASSERT_EQ(Call(Method::kPost, Url("/principal-roles"),
                 R"({"principalRole":{"name":"r"}})").status, 201);
  auto audit = Call(Method::kGet, Url("/audit?operation=createPrincipalRole&limit=10"));
  ASSERT_EQ(audit.status, 200) << audit.body;
  auto body = Body(audit);
  auto entries = body.at("entries").as_array();
  ASSERT_EQ(entries.size(), 1u);
  const auto& e = entries[0].as_object();
  EXPECT_EQ(e.at("principal").as_string(), "alice");
  EXPECT_EQ(e.at("object").as_string(), "principal-role r");
  EXPECT_EQ(e.at("client").as_string(), "routes-test");
  EXPECT_EQ(e.at("outcome").as_string(), "success");
  EXPECT_TRUE(body.at("next").is_null());
  EXPECT_EQ(Call(Method::kGet, Url("/audit?limit=abc")).status, 400);
}

}  // namespace
}  // namespace firn::rest
