// Whole requests through Firn's real route table, in process: every catalog route (namespaces,
// tables, views, transactions, config), the OAuth token endpoint and the management API, on a
// real SQLite store and the local object store in a temporary directory, authentication off.
// This reaches every request-body decoder (create/register/rename/commit bodies, management
// bodies) and the commit engine behind them.
//
// Input (HTTP-like): "<METHOD> <target>\n", then "Name: value\n" header lines, a blank line,
// and the body. Property: no crash, no uncaught exception, and never a 5xx: hostile input is
// always answered with a 4xx. The store and warehouse are recreated every kRecycleEvery inputs
// so disk use stays bounded.
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "access/access_state.h"
#include "access/authenticator.h"
#include "access/management_service.h"
#include "access/token_service.h"
#include "auth/key_encryption.h"
#include "common/secret.h"
#include "catalog/catalog_service.h"
#include "common/log.h"
#include "http/router.h"
#include "io/object_store.h"
#include "rest/idempotency_guard.h"
#include "rest/management_routes.h"
#include "rest/oauth_routes.h"
#include "rest/routes.h"
#include "store/sqlite/sqlite_catalog_store.h"
#include "fuzz_support.h"

namespace {

namespace fs = std::filesystem;
using namespace firn;  // NOLINT: test driver

constexpr int kRecycleEvery = 2000;

class Server {
 public:
  Server() {
    std::string pattern = (fs::temp_directory_path() / "firn-fuzz-rest-XXXXXX").string();
    FIRN_FUZZ_CHECK(mkdtemp(pattern.data()) != nullptr, "temp dir");
    dir_ = pattern;
    fs::create_directories(dir_ / "wh");
    auto opened = store::OpenSqliteStore((dir_ / "catalog.db").string());
    FIRN_FUZZ_CHECK(opened.has_value(), "sqlite store");
    store_ = std::move(*opened);
    catalogs_ = std::make_unique<catalog::CatalogRegistry>(
        catalog::CatalogInfo{"wh", "file://" + (dir_ / "wh").string()});
    service_ = std::make_unique<catalog::CatalogService>(store_, io::MakeDefaultObjectStore(),
                                                         *catalogs_);
    state_ = std::make_unique<access::AccessState>(store_, "fuzz", keks_);
    FIRN_FUZZ_CHECK(state_->Start().has_value(), "access state");
    access::AuthConfig config;
    config.enabled = false;
    config.default_realm = "main";
    auth_ = std::make_unique<access::Authenticator>(config);
    FIRN_FUZZ_CHECK(auth_->Start().has_value(), "authenticator");
    tokens_ = std::make_unique<access::TokenService>(
        *auth_, [state = state_.get()] { return state->Current(); });
    management_ = std::make_unique<access::ManagementService>(*store_, *store_, *state_);
    idempotency_ = std::make_unique<rest::IdempotencyGuard>(*store_, std::chrono::minutes(30));
    router_ = std::make_unique<http::Router>(rest::ErrorFallbacks());
    const rest::AccessDeps deps{*state_, *auth_, "wh"};
    rest::AddAllRoutes(*router_, *service_, deps, idempotency_.get());
    rest::AddOAuthRoutes(*router_, *tokens_, deps);
    rest::AddManagementRoutes(*router_, *management_, *state_, *auth_);
  }
  ~Server() {
    router_.reset();
    idempotency_.reset();
    management_.reset();
    tokens_.reset();
    state_->Stop();
    state_.reset();
    service_.reset();
    store_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  const http::Router& router() const { return *router_; }

 private:
  fs::path dir_;
  std::shared_ptr<store::CatalogStore> store_;
  std::unique_ptr<catalog::CatalogRegistry> catalogs_;
  std::unique_ptr<catalog::CatalogService> service_;
  // Signing keys are sealed at rest; the fuzzer's key is fixed (nothing it seals outlives it).
  std::shared_ptr<const auth::KeyEncryptionKeys> keks_ =
      std::make_shared<const auth::KeyEncryptionKeys>(
          *auth::KeyEncryptionKey::FromText(Secret("fuzz key-encryption key, 32+ bytes long")));
  std::unique_ptr<access::AccessState> state_;
  std::unique_ptr<access::Authenticator> auth_;
  std::unique_ptr<access::TokenService> tokens_;
  std::unique_ptr<access::ManagementService> management_;
  std::unique_ptr<rest::IdempotencyGuard> idempotency_;
  std::unique_ptr<http::Router> router_;
};

http::Method MethodOf(std::string_view name) {
  if (name == "GET") return http::Method::kGet;
  if (name == "HEAD") return http::Method::kHead;
  if (name == "POST") return http::Method::kPost;
  if (name == "PUT") return http::Method::kPut;
  if (name == "DELETE") return http::Method::kDelete;
  if (name == "PATCH") return http::Method::kPatch;
  return http::Method::kOther;
}

// Fills `req` from the HTTP-like input; false when the first line is not "<METHOD> /...".
bool ParseInput(std::string_view in, http::Request& req) {
  auto next_line = [&in]() {
    size_t nl = in.find('\n');
    std::string_view line = in.substr(0, nl);
    in = nl == std::string_view::npos ? std::string_view() : in.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  };
  std::string_view first = next_line();
  size_t space = first.find(' ');
  if (space == std::string_view::npos) return false;
  req.method = MethodOf(first.substr(0, space));
  std::string_view target = first.substr(space + 1);
  if (target.empty() || target.front() != '/') return false;
  req.target = std::string(target);
  size_t q = target.find('?');
  req.path = std::string(target.substr(0, q));
  req.query = q == std::string_view::npos ? std::string() : std::string(target.substr(q + 1));
  while (!in.empty()) {
    std::string_view line = next_line();
    if (line.empty()) break;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    req.headers.push_back({std::string(line.substr(0, colon)), std::string(value)});
  }
  req.body = std::string(in);
  req.remote_address = "127.0.0.1";
  req.request_id = "fuzz";
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  firn::log::Init("off");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<Server> server;
  static int runs = 0;
  if (!server || ++runs % kRecycleEvery == 0) {
    server.reset();
    server = std::make_unique<Server>();
  }
  http::Request req;
  if (!ParseInput(fuzz::AsView(data, size), req)) return 0;
  http::Response res = server->router().Dispatch(req);
  if (res.status >= 500) {
    std::fprintf(stderr, "status %d for %s %s\nbody: %s\n", res.status,
                 std::string(http::MethodName(req.method)).c_str(), req.target.c_str(),
                 res.body.c_str());
  }
  FIRN_FUZZ_CHECK(res.status < 500, "hostile input is answered with a 4xx, never a 5xx");
  return 0;
}
