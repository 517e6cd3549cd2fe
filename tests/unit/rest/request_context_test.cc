// The request pipeline: realm header, authentication, catalog resolution, client description,
// and the ErrorModel answers of catalog routes and /v1/config.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <boost/json/parse.hpp>

#include <filesystem>

#include "access/access_state.h"
#include "access/authenticator.h"
#include "catalog/catalog_service.h"
#include "http/router.h"
#include "io/object_store.h"
#include "rest/route_registrar.h"
#include "rest/routes.h"
#include "store/sqlite/sqlite_catalog_store.h"
#include "../access/access_test_support.h"

namespace firn::rest {
namespace {

namespace fs = std::filesystem;

class RequestContextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "firn-rest-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto opened = store::OpenSqliteStore((dir_ / "catalog.db").string());
    ASSERT_TRUE(opened) << opened.error().message;
    store_ = std::move(*opened);
    state_ = std::make_unique<access::AccessState>(store_, "test-instance",
                                                   access::testing::SharedTestKeks());
    ASSERT_TRUE(state_->Start());
  }
  void TearDown() override {
    state_->Stop();
    state_.reset();
    store_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  access::Authenticator& Auth(bool enabled) {
    access::AuthConfig config;
    config.enabled = enabled;
    config.default_realm = "main";
    auth_ = std::make_unique<access::Authenticator>(config);
    return *auth_;
  }
  http::Request Get(std::string path) {
    http::Request r;
    r.method = http::Method::kGet;
    r.path = r.target = std::move(path);
    r.request_id = "req-1";
    return r;
  }

  fs::path dir_;
  std::shared_ptr<store::CatalogStore> store_;
  std::unique_ptr<access::AccessState> state_;
  std::unique_ptr<access::Authenticator> auth_;
  catalog::CatalogRegistry catalogs_{catalog::CatalogInfo{"wh", "file:///tmp/wh"}};
};

TEST_F(RequestContextTest, RealmComesFromHeaderElseDefault) {
  AccessDeps deps{*state_, Auth(false), "wh"};
  http::Request req = Get("/v1/namespaces");
  auto ctx = MakeRequestContext(deps, catalogs_, req, {});
  ASSERT_TRUE(ctx) << ctx.error().message;
  EXPECT_EQ(ctx->scope.realm, "main");
  EXPECT_EQ(ctx->scope.catalog, "wh");
  ASSERT_TRUE(ctx->catalog);
  EXPECT_EQ(ctx->catalog->base_location, "file:///tmp/wh");
  ASSERT_TRUE(ctx->caller);
  EXPECT_FALSE(ctx->caller->authorization_enabled());

  req.headers.push_back({"polaris-realm", "tenant2"});
  ctx = MakeRequestContext(deps, catalogs_, req, {});
  ASSERT_TRUE(ctx);
  EXPECT_EQ(ctx->scope.realm, "tenant2");
}

TEST_F(RequestContextTest, UnknownPrefixIsNoSuchWarehouse) {
  AccessDeps deps{*state_, Auth(false), "wh"};
  http::Request req = Get("/v1/nope/namespaces");
  http::PathParams params{{"prefix", "nope"}};
  auto ctx = MakeRequestContext(deps, catalogs_, req, params);
  ASSERT_FALSE(ctx);
  EXPECT_EQ(ctx.error().kind, ErrorKind::kNoSuchWarehouse);
  EXPECT_EQ(ctx.error().message, "Catalog does not exist: nope");
}

TEST_F(RequestContextTest, RootRoutesDoNotNeedTheDefaultCatalog) {
  // A realm without a catalog named like the default one: /v1/config must still answer.
  AccessDeps deps{*state_, Auth(false), "absent"};
  http::Request req = Get("/v1/config");
  auto ctx = MakeRequestContext(deps, catalogs_, req, {}, /*require_catalog=*/false);
  ASSERT_TRUE(ctx) << ctx.error().message;
  EXPECT_EQ(ctx->catalog, nullptr);
  auto strict = MakeRequestContext(deps, catalogs_, req, {});
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().kind, ErrorKind::kNoSuchWarehouse);
}

TEST_F(RequestContextTest, AuthenticationOnRefusesMissingOrBadTokenBeforeCatalogLookup) {
  AccessDeps deps{*state_, Auth(true), "wh"};
  http::Request req = Get("/v1/nope/namespaces");
  http::PathParams params{{"prefix", "nope"}};
  auto ctx = MakeRequestContext(deps, catalogs_, req, params);
  ASSERT_FALSE(ctx);
  EXPECT_EQ(ctx.error().kind, ErrorKind::kNotAuthorized);
  req.headers.push_back({"Authorization", "Bearer not-a-token"});
  ctx = MakeRequestContext(deps, catalogs_, req, params);
  ASSERT_FALSE(ctx);
  EXPECT_EQ(ctx.error().kind, ErrorKind::kNotAuthorized);
}

TEST_F(RequestContextTest, ClientDescriptionHasUserAgentAndXClientHeaders) {
  http::Request req = Get("/v1/config");
  req.headers = {{"User-Agent", "pyiceberg/0.9"},
                 {"X-Client-Version", "1.2"},
                 {"Accept", "json"},
                 {"x-client-git-commit", "abc"}};
  EXPECT_EQ(ClientDescription(req), "pyiceberg/0.9; X-Client-Version=1.2; x-client-git-commit=abc");
}

TEST_F(RequestContextTest, RoutesAnswerUnauthenticatedRequestsWithErrorModel401) {
  auto service = std::make_unique<catalog::CatalogService>(store_, io::MakeDefaultObjectStore(),
                                                           catalogs_);
  http::Router router(ErrorFallbacks());
  AddAllRoutes(router, *service, AccessDeps{*state_, Auth(true), "wh"}, nullptr);
  for (const char* path : {"/v1/config", "/v1/namespaces", "/v1/wh/namespaces/db/tables/t",
                           "/api/catalog/v1/config"}) {
    http::Response res = router.Dispatch(Get(path));
    EXPECT_EQ(res.status, 401) << path;
    auto body = boost::json::parse(res.body);
    EXPECT_EQ(body.at("error").at("type").as_string(), "NotAuthorizedException") << path;
    EXPECT_EQ(body.at("error").at("code").as_int64(), 401) << path;
  }
}

TEST_F(RequestContextTest, ConfigWithAuthenticationOffNamesTheWarehouse) {
  auto service = std::make_unique<catalog::CatalogService>(store_, io::MakeDefaultObjectStore(),
                                                           catalogs_);
  http::Router router(ErrorFallbacks());
  AddAllRoutes(router, *service, AccessDeps{*state_, Auth(false), "wh"}, nullptr);
  http::Request req = Get("/v1/config");
  req.query = "warehouse=wh";
  http::Response res = router.Dispatch(req);
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(boost::json::parse(res.body).at("overrides").at("prefix").as_string(), "wh");
  req.query = "warehouse=other";
  res = router.Dispatch(req);
  EXPECT_EQ(res.status, 404) << res.body;
}

}  // namespace
}  // namespace firn::rest
