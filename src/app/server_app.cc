#include "app/server_app.h"

#include "app/admin_store.h"

#include <signal.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <thread>

#include "access/access_state.h"
#include "access/authenticator.h"
#include "access/management_service.h"
#include "access/token_service.h"
#include "app/first_start.h"
#include "catalog/catalog_service.h"
#include "common/log.h"
#include "common/uuid.h"
#include "http/router.h"
#include "http/server.h"
#include "io/object_store.h"
#include "rest/error_model.h"
#include "rest/idempotency_guard.h"
#include "rest/management_routes.h"
#include "rest/oauth_routes.h"
#include "rest/routes.h"

namespace firn::app {
namespace {

// `password` (db_password / FIRN_DB_PASSWORD / db_password_file) goes to libpq only; the URL
// that gets logged never holds it (Finalize moves an inline one out).
Result<std::unique_ptr<io::ObjectStore>> OpenObjectStore(const ServerConfig& config) {
  io::ObjectStoreConfig objects;
  if (!config.s3_endpoint.empty() || !config.s3_access_key_id.empty()) {
    io::s3::S3Config s3;
    s3.endpoint = config.s3_endpoint;
    s3.region = config.s3_region;
    s3.access_key_id = config.s3_access_key_id;
    s3.secret_access_key = config.s3_secret_access_key;
    s3.session_token = config.s3_session_token;
    s3.path_style_access = config.s3_path_style_access;
    objects.s3 = std::move(s3);
  }
  return io::MakeObjectStore(objects);
}

Result<std::pair<std::string, uint16_t>> SplitListen(const std::string& listen) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos) {
    return Fail(ErrorKind::kIllegalArgument, "Invalid --listen (expected HOST:PORT): " + listen);
  }
  int port = -1;
  const char* begin = listen.data() + colon + 1;
  const char* end = listen.data() + listen.size();
  auto [ptr, ec] = std::from_chars(begin, end, port);
  if (ec != std::errc() || ptr != end || port < 0 || port > 65535) {
    return Fail(ErrorKind::kIllegalArgument, "Invalid port in --listen: " + listen);
  }
  std::string host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return std::pair{host, static_cast<uint16_t>(port)};
}

access::AuthConfig MakeAuthConfig(const ServerConfig& config) {
  access::AuthConfig auth;
  auth.enabled = config.auth;
  auth.realm_header = config.realm_header;
  auth.default_realm = config.default_realm;
  auth.token_lifetime_seconds = config.token_lifetime;
  if (!config.oidc_issuer.empty()) {
    access::ExternalIssuer issuer;
    issuer.issuer = config.oidc_issuer;
    issuer.audience = config.oidc_audience;
    issuer.jwks_file = config.oidc_jwks_file;
    issuer.jwks_url = config.oidc_jwks_url;
    issuer.realm = config.oidc_realm;
    issuer.subject_claim = config.oidc_subject_claim;
    issuer.roles_claim = config.oidc_roles_claim;
    issuer.role_prefix = config.oidc_role_prefix;
    auth.external_issuers.push_back(std::move(issuer));
  }
  return auth;
}

void LogCompletion(const http::Request& req, const http::Response& res,
                   std::chrono::microseconds elapsed) {
  const auto level = res.status >= 500   ? spdlog::level::warn
                     : res.status >= 400 ? spdlog::level::info
                                         : spdlog::level::debug;
  if (!spdlog::should_log(level)) return;
  spdlog::log(level,
              R"("msg":"request","request_id":"{}","method":"{}","path":"{}","status":{},"us":{})",
              req.request_id, http::MethodName(req.method), log::Escape(req.path), res.status,
              elapsed.count());
}

}  // namespace

int RunServer(ServerConfig config) {
  log::Init(config.log_level);
  // Signals are handled by one thread with sigwait; every other thread inherits the mask,
  // so block them before any thread starts (store pools, the access poller).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  auto fail = [](const Error& e) {
    spdlog::error(R"("msg":"cannot start","error":"{}")", log::Escape(e.message));
    return 2;
  };
  if (auto st = Finalize(config); !st) return fail(st.error());
  auto listen = SplitListen(config.listen);
  if (!listen) return fail(listen.error());
  auto opened = OpenStoreByUrl(config.db_url, config.db_password);
  if (!opened) return fail(opened.error());
  std::shared_ptr<store::CatalogStore> store = std::move(*opened);

  auto objects = OpenObjectStore(config);
  if (!objects) return fail(objects.error());

  catalog::CatalogRegistry catalogs({config.catalog_name, config.warehouse});
  catalog::CatalogService service(store, std::move(*objects), catalogs);

  // Identity: bootstrap on first start, load the access snapshot, then keep it fresh.
  if (auto st = PrepareAccess(*store, config); !st) return fail(st.error());
  access::AccessState access_state(store, NewUuidV4());
  if (auto st = access_state.Start(); !st) return fail(st.error());
  access::Authenticator authenticator(MakeAuthConfig(config));
  if (auto st = authenticator.Start(); !st) return fail(st.error());
  access::TokenService tokens(authenticator, [&access_state] { return access_state.Current(); });
  if (auto st = tokens.status(); !st) return fail(st.error());
  access::ManagementService management(*store, *store, access_state);
  if (!config.auth) {
    spdlog::warn(R"("msg":"authentication is OFF: every request is allowed")");
  }

  rest::IdempotencyGuard idempotency(*store, std::chrono::minutes(30));
  http::Router router(rest::ErrorFallbacks());
  rest::AccessDeps access_deps{access_state, authenticator, config.catalog_name};
  rest::AddAllRoutes(router, service, access_deps, &idempotency);
  rest::AddOAuthRoutes(router, tokens, authenticator.config());
  rest::AddManagementRoutes(router, management, access_state, authenticator);

  http::ServerOptions options;
  options.host = listen->first;
  options.port = listen->second;
  options.io_threads = config.io_threads;
  options.worker_threads = config.worker_threads;
  options.max_queued = config.max_queued;
  options.max_body_bytes = config.max_body_bytes;
  http::ServerCallbacks callbacks{
      .handler = [&router](const http::Request& req) { return router.Dispatch(req); },
      .overloaded =
          [](const http::Request&) {
            return rest::ErrorResponse(Error(ErrorKind::kServiceUnavailable,
                                             "Server is overloaded, retry later"));
          },
      .too_large =
          [max = config.max_body_bytes](const http::Request&) {
            return rest::ErrorResponse(Error(ErrorKind::kPayloadTooLarge,
                                             "Request body exceeds the limit of " +
                                                 std::to_string(max) + " bytes"));
          },
      .internal_error =
          [](const http::Request&) {
            return rest::ErrorResponse(Error(ErrorKind::kInternal, "Internal server error"));
          },
      .on_complete = LogCompletion,
  };

  http::Server server(options, callbacks);
  if (!server.Listen()) return fail(Error(ErrorKind::kInternal, "cannot listen on " + config.listen));
  spdlog::info(
      R"("msg":"firn serving","listen":"{}:{}","db":"{}","warehouse":"{}","auth":"{}","default_realm":"{}")",
      options.host, server.BoundPort(), log::Escape(config.db_url), log::Escape(config.warehouse),
      config.auth ? "on" : "off", log::Escape(config.default_realm));

  std::thread signal_thread([&server, signals] {
    int sig = 0;
    sigwait(&signals, &sig);
    spdlog::info(R"("msg":"draining","signal":{})", sig);
    server.Stop();
  });
  server.Run();
  // Run() may also return without a signal (fatal listener error): wake the signal thread.
  pthread_kill(signal_thread.native_handle(), SIGTERM);
  signal_thread.join();
  access_state.Stop();
  spdlog::info(R"("msg":"stopped")");
  return 0;
}

}  // namespace firn::app
