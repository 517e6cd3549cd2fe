#include "app/admin_replicate.h"

#include <iostream>
#include <mutex>

#include "app/admin_commands.h"
#include "app/admin_service.h"
#include "app/progress.h"
#include "app/store_factory.h"
#include "common/log.h"
#include "common/macros.h"
#include "recovery/replicate.h"

namespace firn::app {
namespace {

int Failed(const Error& e, int code = 1) {
  ReportAdminFailure("firn replicate", e);
  return code;
}

}  // namespace

int RunReplicate(const ReplicateArgs& args) {
  log::Init("warn");
  recovery::ReplicateOptions options;
  options.from = args.from;
  options.to = args.to;
  options.threads = args.threads;
  options.object_copy = args.object_copy;
  if (options.from.find("://") == std::string::npos || options.to.find("://") == std::string::npos) {
    return Failed(Error(ErrorKind::kIllegalArgument, "--from and --to must be URIs"), 2);
  }
  if (!args.rewrite.empty()) {
    const size_t eq = args.rewrite.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == args.rewrite.size()) {
      return Failed(Error(ErrorKind::kIllegalArgument, "--rewrite-prefix must be OLD=NEW"), 2);
    }
    options.rewrite = {args.rewrite.substr(0, eq), args.rewrite.substr(eq + 1)};
  }
  auto config = ConfigFromFlags(args.store);
  if (!config) return Failed(config.error(), 2);
  if (config->test_mode) {
    if (const char* delay = std::getenv("FIRN_TEST_COPY_DELAY_MS")) {
      options.test_delay = std::chrono::milliseconds(std::atoll(delay));
    }
  }
  auto source = OpenObjectStore(*config);
  if (!source) return Failed(source.error());
  ServerConfig to_config = *config;
  for (const auto& [key, value] :
       {std::pair<std::string, std::string>{"s3_endpoint", args.to_s3_endpoint},
        {"s3_access_key_id", args.to_s3_access_key_id},
        {"s3_secret_access_key_file", args.to_s3_secret_access_key_file},
        {"s3_region", args.to_s3_region}}) {
    if (value.empty()) continue;
    if (auto st = ApplySetting(key, value, to_config); !st) return Failed(st.error(), 2);
  }
  auto destination = OpenObjectStore(to_config);
  if (!destination) return Failed(destination.error());

  std::unique_ptr<AdminService> replica;
  std::optional<catalog::RequestContext> replica_ctx;
  std::mutex register_mu;
  if (args.register_tables) {
    auto opened = OpenAdminService(args.replica, /*ensure_deployment=*/true);
    if (!opened) return Failed(opened.error());
    replica = std::move(*opened);
    auto ctx = replica->Context(args.realm, args.replica_catalog, "admin-replicate");
    if (!ctx) return Failed(ctx.error());
    ctx->client = "firn replicate";
    replica_ctx = std::move(*ctx);
    options.register_table = [&](const store::Identifier& id,
                                 const std::string& head) -> Result<std::string> {
      std::lock_guard lock(register_mu);
      for (size_t depth = 1; depth <= id.ns.size(); ++depth) {
        auto made = replica->service->CreateNamespace(
            *replica_ctx, store::Namespace(id.ns.begin(), id.ns.begin() + depth), {});
        if (!made && made.error().kind != ErrorKind::kAlreadyExists) return Fail(made.error());
      }
      auto existing = replica->service->LoadTable(*replica_ctx, id);
      if (existing && existing->metadata_location == head) return std::string("up-to-date");
      auto done = replica->service->RegisterTable(*replica_ctx, id, head,
                                                  /*overwrite=*/existing.has_value());
      if (!done) return Fail(done.error());
      return std::string(existing ? "moved" : "registered");
    };
  }
  const bool json = args.json || !Progress::StderrIsTerminal();
  Progress progress("replicate", !json);
  options.on_table = [&](const recovery::TableReplica& t, size_t done, size_t total) {
    if (json) {
      std::cout << recovery::ReplicaJson(t) << std::endl;
    } else {
      progress.Update(done, total, "tables");
    }
  };
  auto report = recovery::Replicate(**source, **destination, options);
  progress.Finish();
  if (!report) return Failed(report.error());
  if (!json) {
    for (const recovery::TableReplica& t : report->tables) {
      if (t.action == "failed" || t.action == "ambiguous") {
        std::cout << "  " << t.action << " " << t.table << ": " << t.detail << "\n";
      }
    }
  }
  std::cout << recovery::ReplicateSummaryJson(*report) << std::endl;
  size_t failed = 0, ambiguous = 0;
  for (const recovery::TableReplica& t : report->tables) {
    failed += t.action == "failed" || t.registered.starts_with("failed");
    ambiguous += t.action == "ambiguous";
  }
  if (failed > 0) return 1;
  return ambiguous > 0 ? 3 : 0;
}

}  // namespace firn::app
