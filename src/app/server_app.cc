#include "app/server_app.h"

#include "app/store_factory.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <thread>

#include "access/access_state.h"
#include "access/authenticator.h"
#include "access/management_service.h"
#include "access/object_grants.h"
#include "access/token_service.h"
#include "app/first_start.h"
#include "app/kek_setup.h"
#include "app/location_index.h"
#include "app/process_metrics.h"
#include "app/storage_settings.h"
#include "catalog/catalog_service.h"
#include "catalog/soft_delete.h"
#include "catalog/store_claims.h"
#include "common/log.h"
#include "common/metrics.h"
#include "common/uuid.h"
#include "console/console_routes.h"
#include "events/sink_urls.h"
#include "events/webhook_delivery.h"
#include "http/heap_trim.h"
#include "http/router.h"
#include "http/server.h"
#include "io/object_store.h"
#include "rest/idempotency_guard.h"
#include "rest/management_routes.h"
#include "rest/oauth_routes.h"
#include "rest/ops_routes.h"
#include "rest/request_pipeline.h"
#include "rest/openapi.h"
#include "rest/routes.h"

namespace firn::app {
namespace {

Result<std::pair<std::string, uint16_t>> SplitListen(const std::string& listen,
                                                     std::string_view flag = "--listen") {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos) {
    return Fail(ErrorKind::kIllegalArgument,
                "Invalid " + std::string(flag) + " (expected HOST:PORT): " + listen);
  }
  int port = -1;
  const char* begin = listen.data() + colon + 1;
  const char* end = listen.data() + listen.size();
  auto [ptr, ec] = std::from_chars(begin, end, port);
  if (ec != std::errc() || ptr != end || port < 0 || port > 65535) {
    return Fail(ErrorKind::kIllegalArgument, "Invalid port in " + std::string(flag) + ": " + listen);
  }
  std::string host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return std::pair{host, static_cast<uint16_t>(port)};
}

catalog::InputLimits MakeInputLimits(const ServerConfig& config) {
  catalog::InputLimits limits;
  limits.properties.max_key_bytes = config.max_property_key_bytes;
  limits.properties.max_value_bytes = config.max_property_value_bytes;
  limits.properties.max_total_bytes = config.max_properties_bytes;
  limits.properties.max_count = config.max_properties;
  limits.max_metadata_file_bytes = config.max_metadata_file_bytes;
  return limits;
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

// Connections need file descriptors: raise the soft limit towards the hard one so
// max_connections (plus the database, log and listener) fits; warn when it cannot.
void RaiseFileLimit(int max_connections) {
  constexpr rlim_t kSpare = 128;  // database files, PostgreSQL pool, listener, logs
  const rlim_t want = static_cast<rlim_t>(max_connections) + kSpare;
  struct rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= want) return;
  const rlim_t target = limit.rlim_max == RLIM_INFINITY ? want : std::min(want, limit.rlim_max);
  if (target > limit.rlim_cur) {
    limit.rlim_cur = target;
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  if (limit.rlim_cur < want) {
    spdlog::warn(
        R"("msg":"file descriptor limit below max_connections","nofile":{},"max_connections":{})",
        static_cast<uint64_t>(limit.rlim_cur), max_connections);
  }
}

}  // namespace

int RunServer(ServerConfig config) {
  if (!log::IsLevel(config.log_level)) {
    log::Init("info");
    spdlog::error(R"("msg":"cannot start","error":"Unknown log level '{}': use debug, info, )"
                  R"(warn or error")",
                  log::Escape(config.log_level));
    return 2;
  }
  log::Init(config.log_level);
  // Blocks of 1 MiB and more (scrypt's 16 MiB buffers, large bodies) go back to the system
  // when freed instead of staying resident per thread.
  http::MapLargeBlocks(1u << 20);
  // Signals are handled by one thread with sigwait; every other thread inherits the mask,
  // so block them before any thread starts (store pools, the access poller).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  // The detail says why (libpq's reason a database refused us, an OS error); a secret that
  // reached it is blanked.
  auto fail = [&config](const Error& e) {
    std::string detail = e.detail;
    for (const Secret* secret : {&config.db_password, &config.s3_secret_access_key}) {
      const std::string& text = secret->Reveal();
      if (text.empty()) continue;
      for (size_t at = detail.find(text); at != std::string::npos; at = detail.find(text, at)) {
        detail.replace(at, text.size(), "***");
      }
    }
    if (detail.empty()) {
      spdlog::error(R"("msg":"cannot start","error":"{}")", log::Escape(e.message));
    } else {
      spdlog::error(R"("msg":"cannot start","error":"{}","detail":"{}")", log::Escape(e.message),
                    log::Escape(detail));
    }
    return 2;
  };
  if (auto st = Finalize(config); !st) return fail(st.error());
  if (config.test_mode) {
    spdlog::warn(R"("msg":"test mode (FIRN_TEST_MODE): not for production","token_lifetime":{})",
                 config.token_lifetime);
  }
  auto listen = SplitListen(config.listen);
  std::optional<std::pair<std::string, uint16_t>> ops_listen;
  if (!config.ops_listen.empty()) {
    auto parsed = SplitListen(config.ops_listen, "--ops-listen");
    if (!parsed) return fail(parsed.error());
    ops_listen = *parsed;
  }
  if (!listen) return fail(listen.error());
  auto opened = OpenStoreByUrl(config.db_url, config.db_password);
  if (!opened) return fail(opened.error());
  std::shared_ptr<store::CatalogStore> store = std::move(*opened);

  auto objects = OpenObjectStore(config);
  if (!objects) return fail(objects.error());
  // A database from before the location index: record where everything is, once.
  if (auto st = EnsureLocationIndex(*store, **objects); !st) return fail(st.error());

  auto roots = StorageRootsOf(config);
  if (!roots) return fail(roots.error());
  catalog::CatalogRegistry catalogs(DefaultCatalogInfo(config));
  catalogs.SetStorageRoots(*roots);
  std::shared_ptr<io::ObjectStore> object_store = std::move(*objects);
  catalog::CatalogService service(store, object_store, catalogs, catalog::CommitOptions{},
                                  MakeInputLimits(config));
  // The deployment's id: made by the first instance to start on this database, shared by all.
  auto deployment = store->EnsureSetting(std::string(catalog::kDeploymentIdSetting), NewUuidV4());
  if (!deployment) return fail(deployment.error());
  service.SetDeployment(*deployment);
  auto report_retention =
      catalog::ParseDuration(config.metrics_report_retention, "metrics_report_retention");
  if (!report_retention) return fail(report_retention.error());
  service.SetMetricsReportRetention(*report_retention);
  service.SetDropRetention(catalog::ParseDuration(config.drop_retention).value_or(
      catalog::kDefaultDropRetention));
  service.SetLoadCheckInterval(
      catalog::ParseDuration(config.load_check_interval, "load_check_interval")
          .value_or(std::chrono::seconds(5)));
  spdlog::info(R"("msg":"deployment","id":"{}")", *deployment);
  auto vending = VendingSettingsOf(config);
  if (!vending) return fail(vending.error());
  std::set<std::string> storage_names;
  if (*vending) {
    for (const auto& [name, keys] : (*vending)->key_sets) storage_names.insert(name);
    service.SetCredentialVendor(
        std::make_shared<catalog::CredentialVendor>(std::move(**vending)));
  }

  // Identity: the KEK that seals the signing keys (refuse a wrong one), bootstrap on first
  // start, load the access snapshot, then keep it fresh.
  auto keks = PrepareKeyEncryption(*store, config);
  if (!keks) return fail(keks.error());
  if (auto st = PrepareAccess(*store, config, **keks); !st) return fail(st.error());
  const std::string instance_id = NewUuidV4();
  // Commit intents (docs/recovery.md, "No stray metadata files"); test mode may shorten the
  // waits so a test can kill an instance and see its strays swept.
  catalog::PendingLimits pending;
  if (config.test_mode) {
    auto ms = [](const char* name, std::chrono::milliseconds fallback) {
      const char* v = std::getenv(name);
      return v ? std::chrono::milliseconds(std::max<long long>(std::atoll(v), 1)) : fallback;
    };
    pending.min_age = ms("FIRN_TEST_PENDING_MIN_AGE_MS", pending.min_age);
    pending.writer_gone_after = ms("FIRN_TEST_PENDING_GONE_MS", pending.writer_gone_after);
    pending.sweep_every = ms("FIRN_TEST_PENDING_SWEEP_MS", pending.sweep_every);
    pending.attempt_limit = std::min(pending.attempt_limit, pending.min_age / 2);
  }
  service.SetInstance(instance_id, pending);
  if (config.test_mode) {
    if (const char* pause = std::getenv("FIRN_TEST_COMMIT_PAUSE_MS")) {
      service.SetTestCommitPause(std::chrono::milliseconds(std::atoll(pause)));
    }
  }
  access::AccessState access_state(store, instance_id, *keks);
  if (auto st = access_state.Start(); !st) return fail(st.error());
  service.SetObjectGrants(std::make_shared<access::StoredObjectGrants>(&access_state));
  // Durable tasks (purges): any instance runs any task; a crashed one's are taken over.
  catalog::TaskRunnerOptions task_options;
  if (config.test_mode) {
    if (const char* delay = std::getenv("FIRN_TEST_TASK_STEP_DELAY_MS")) {
      task_options.step_delay = std::chrono::milliseconds(std::atoll(delay));
      task_options.lease = std::chrono::milliseconds(3000);  // a killed instance's work resumes soon
    }
  }
  auto tasks = std::make_shared<catalog::TaskRunner>(*store, instance_id, task_options);
  service.AttachTasks(
      tasks, [&access_state, &catalogs, &config](const store::CatalogScope& scope) {
        std::shared_ptr<const catalog::CatalogInfo> found;
        if (auto snapshot = access_state.Current()) {
          found = snapshot->FindCatalog(scope.realm, scope.catalog);
        }
        if (!found && !config.auth) {
          if (const catalog::CatalogInfo* info = catalogs.Find(scope.catalog)) {
            found = std::make_shared<const catalog::CatalogInfo>(*info);
          }
        }
        return found;
      });
  tasks->Start();
  // Scheduled maintenance (docs/maintenance.md): one sweep an hour; test mode may shorten it.
  std::chrono::milliseconds sweep_every = std::chrono::hours(1);
  if (config.test_mode) {
    if (const char* every = std::getenv("FIRN_TEST_MAINTENANCE_SWEEP_MS")) {
      sweep_every = std::chrono::milliseconds(std::max<long long>(std::atoll(every), 100));
    }
  }
  service.ScheduleMaintenance(sweep_every);
  // Stopped before anything its handlers use goes away, on every return path.
  struct StopTasks {
    catalog::TaskRunner& runner;
    ~StopTasks() { runner.Stop(); }
  } stop_tasks{*tasks};
  access::Authenticator authenticator(MakeAuthConfig(config));
  if (auto st = authenticator.Start(); !st) return fail(st.error());
  access::TokenService tokens(authenticator, [&access_state] { return access_state.Current(); });
  if (auto st = tokens.status(); !st) return fail(st.error());
  access::ManagementOptions management_options;
  management_options.storage_roots = *roots;
  management_options.storage_names = std::move(storage_names);
  management_options.keks = *keks;
  management_options.deployment_id = *deployment;
  auto sink_urls = events::ParseSinkUrlPrefixes(config.event_sink_urls);
  if (!sink_urls) return fail(sink_urls.error());
  management_options.sink_urls = *sink_urls;
  access::ManagementService management(*store, *store, access_state, management_options);
  // Change events to webhooks (docs/events.md): any instance delivers to any sink, one at a time.
  events::WebhookOptions webhook_options;
  webhook_options.deployment_id = *deployment;
  webhook_options.allowed_urls = *sink_urls;
  if (config.test_mode) {
    if (const char* lease = std::getenv("FIRN_TEST_WEBHOOK_LEASE_MS")) {
      webhook_options.lease = std::chrono::milliseconds(std::max<long long>(std::atoll(lease), 100));
    }
  }
  events::WebhookDelivery webhooks(*store, *keks, instance_id, webhook_options);
  webhooks.Start();
  if (!config.auth) {
    spdlog::warn(R"("msg":"authentication is OFF: every request is allowed")");
  }

  rest::IdempotencyGuard idempotency(*store, std::chrono::minutes(30));
  http::Router router(rest::ErrorFallbacks());
  rest::AccessDeps access_deps{access_state, authenticator, config.catalog_name};
  access_deps.visible_catalogs = [&management](std::string_view realm,
                                               std::shared_ptr<const auth::Caller> caller) {
    return management.VisibleCatalogs({std::string(realm), std::move(caller), "", ""});
  };
  rest::AddAllRoutes(router, service, access_deps, &idempotency);
  rest::AddOAuthRoutes(router, tokens, access_deps);
  rest::AddManagementRoutes(router, management, access_state, authenticator);
  // Liveness, readiness and metrics, without a token (docs/operations.md).
  std::vector<rest::ReadinessCheck> checks;
  checks.push_back({"database", [&store]() -> Status {
                      FIRN_RETURN_IF_ERROR(
                          store->LoadSetting(std::string(catalog::kDeploymentIdSetting)));
                      return Ok();
                    }});
  checks.push_back({"access", [&access_state]() -> Status {
                      if (access_state.Current()) return Ok();
                      return Fail(ErrorKind::kServiceUnavailable, "no access snapshot");
                    }});
  for (size_t i = 0; i < roots->size(); ++i) {
    std::string probe = (*roots)[i];
    if (!probe.ends_with('/')) probe += '/';
    probe += ".firn-ready-probe";  // never written: a reachable store answers "absent"
    checks.push_back({"storage-" + std::to_string(i + 1),
                      [&object_store, probe]() -> Status {
                        FIRN_RETURN_IF_ERROR(object_store->Exists(probe));
                        return Ok();
                      }});
  }
  rest::Readiness readiness(std::move(checks), std::chrono::seconds(1));
  metrics::Registry* registry = config.metrics ? &metrics::Default() : nullptr;
  // On their own listener when asked (docs/operations.md), so the API port shows none of it.
  http::Router ops_router(rest::ErrorFallbacks());
  rest::AddOpsRoutes(ops_listen ? ops_router : router, readiness, registry);
  // Every route's requests: admitted from the header, then handled (rest/request_pipeline.h).
  rest::AddOpenApiRoutes(router);  // last: the documents describe what is registered
  // The web console is no API: after the documents, so they leave it out.
  if (config.console) {
    console::AddConsoleRoutes(router, {.realm_header = config.realm_header});
  }
  // After every route: the request metrics' table is built from the router.
  std::optional<rest::RequestMetrics> request_metrics;
  metrics::Registry::CollectorHandle process_metrics;
  if (registry != nullptr) {
    request_metrics.emplace(router, *registry);
    process_metrics = AddProcessMetrics(*registry);
  }
  rest::RequestPipeline pipeline(router, access_deps, config.max_body_bytes,
                                 request_metrics ? &*request_metrics : nullptr);

  http::ServerOptions options;
  options.host = listen->first;
  options.port = listen->second;
  options.io_threads = config.io_threads;
  options.worker_threads = config.worker_threads;
  options.max_queued = config.max_queued;
  options.max_body_bytes = config.max_body_bytes;
  options.max_connections = config.max_connections;
  options.max_inflight_body_bytes = config.max_inflight_body_bytes;
  RaiseFileLimit(config.max_connections);

  http::Server server(options, pipeline.Callbacks());
  if (!server.Listen()) return fail(Error(ErrorKind::kInternal, "cannot listen on " + config.listen));
  std::optional<rest::RequestPipeline> ops_pipeline;
  std::optional<http::Server> ops_server;
  if (ops_listen) {
    ops_pipeline.emplace(ops_router, access_deps, 64 * 1024, nullptr);
    http::ServerOptions ops_options;
    ops_options.host = ops_listen->first;
    ops_options.port = ops_listen->second;
    ops_options.io_threads = 1;
    ops_options.worker_threads = 1;
    ops_options.max_body_bytes = 64 * 1024;
    ops_options.max_connections = 64;
    ops_server.emplace(ops_options, ops_pipeline->Callbacks());
    if (!ops_server->Listen()) {
      return fail(Error(ErrorKind::kInternal, "cannot listen on " + config.ops_listen));
    }
    spdlog::info(R"("msg":"operations listener","listen":"{}:{}","routes":"/health /ready /metrics")",
                 ops_options.host, ops_server->BoundPort());
  }
  std::thread ops_thread;
  if (ops_server) ops_thread = std::thread([&ops_server] { ops_server->Run(); });
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
  if (ops_server) {
    ops_server->Stop();
    ops_thread.join();
  }
  // Run() may also return without a signal (fatal listener error): wake the signal thread.
  pthread_kill(signal_thread.native_handle(), SIGTERM);
  signal_thread.join();
  tasks->Stop();
  access_state.Stop();
  spdlog::info(R"("msg":"stopped")");
  return 0;
}

}  // namespace firn::app
