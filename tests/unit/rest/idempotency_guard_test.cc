// IdempotencyGuard and principals: a key's stored response is replayed only to the principal
// that used it first; anyone else gets 422 and the handler never runs for them.
#include "rest/idempotency_guard.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "store/sqlite/sqlite_catalog_store.h"

namespace firn::rest {
namespace {

namespace fs = std::filesystem;

class IdempotencyGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "firn-idem-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto opened = store::OpenSqliteStore((dir_ / "catalog.db").string());
    ASSERT_TRUE(opened) << opened.error().message;
    store_ = std::move(*opened);
    guard_ = std::make_unique<IdempotencyGuard>(*store_, std::chrono::minutes(30));
  }
  void TearDown() override {
    guard_.reset();
    store_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  static http::Request Post(std::string key) {
    http::Request r;
    r.method = http::Method::kPost;
    r.path = r.target = "/v1/namespaces/db/tables";
    r.body = R"({"name":"t"})";
    r.headers.push_back({"Idempotency-Key", std::move(key)});
    return r;
  }
  http::Response Run(const http::Request& req, std::string_view principal, int& calls) {
    return guard_->Run(req, scope_, principal, [&] {
      ++calls;
      return http::Response::Json(200, R"({"created":)" + std::to_string(calls) + "}");
    });
  }

  fs::path dir_;
  std::unique_ptr<store::CatalogStore> store_;
  std::unique_ptr<IdempotencyGuard> guard_;
  store::CatalogScope scope_{"default", "wh"};
};

TEST_F(IdempotencyGuardTest, SamePrincipalGetsTheStoredResponseWithoutRerunning) {
  int calls = 0;
  auto first = Run(Post("0190b0a0-0000-7000-8000-000000000001"), "alice", calls);
  auto again = Run(Post("0190b0a0-0000-7000-8000-000000000001"), "alice", calls);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(again.body, first.body);
}

TEST_F(IdempotencyGuardTest, AnotherPrincipalReusingTheKeyIs422AndNeverSeesTheResponse) {
  int calls = 0;
  auto first = Run(Post("0190b0a0-0000-7000-8000-000000000002"), "alice", calls);
  ASSERT_EQ(first.status, 200);
  auto other = Run(Post("0190b0a0-0000-7000-8000-000000000002"), "mallory", calls);
  EXPECT_EQ(calls, 1) << "the handler (and its authorisation check) must not be bypassed";
  EXPECT_EQ(other.status, 422);
  EXPECT_EQ(other.body.find("created"), std::string::npos);
}

}  // namespace
}  // namespace firn::rest
