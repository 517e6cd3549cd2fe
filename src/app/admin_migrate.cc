#include "app/admin_migrate.h"

#include <boost/json.hpp>

#include <iostream>

#include "app/admin_commands.h"
#include "app/admin_service.h"
#include "app/progress.h"
#include "common/log.h"
#include "recovery/migrate.h"

namespace firn::app {

int RunMigrate(const MigrateArgs& args) {
  log::Init("warn");
  auto failed = [](const Error& e, int code = 1) {
    ReportAdminFailure("firn migrate", e);
    return code;
  };
  if (args.from.find("://") == std::string::npos) {
    return failed(Error(ErrorKind::kIllegalArgument, "--from must be the catalog's URI"), 2);
  }
  auto admin = OpenAdminService(args.store, /*ensure_deployment=*/!args.dry_run);
  if (!admin) return failed(admin.error());
  auto ctx = (*admin)->Context(args.realm, args.catalog, "admin-migrate");
  if (!ctx) return failed(ctx.error());
  ctx->client = "firn migrate";
  recovery::MigrateOptions options;
  options.uri = args.from;
  options.warehouse = args.warehouse;
  options.credential = args.credential;
  options.token = args.token;
  options.scope = args.scope;
  options.release = args.release;
  options.dry_run = args.dry_run;
  const bool json = args.json || !Progress::StderrIsTerminal();
  size_t seen = 0;
  Progress progress("migrate", !json);
  options.on_object = [&](const recovery::MigratedObject& o) {
    if (json) {
      std::cout << recovery::MigratedJson(o) << std::endl;
    } else {
      ++seen;
      progress.Update(seen, seen, "objects");
      if (o.action == "failed" || o.action == "refused" || o.released.starts_with("failed")) {
        std::cerr << "\n" << recovery::MigratedJson(o) << "\n";
      }
    }
  };
  auto report = recovery::Migrate(*(*admin)->service, *ctx, options);
  progress.Finish();
  if (!report) return failed(report.error());
  std::cout << boost::json::serialize(boost::json::object{{"summary", true},
                                                          {"objects", report->objects.size()},
                                                          {"registered", report->registered},
                                                          {"failed", report->failed},
                                                          {"released", args.release}})
            << std::endl;
  return report->failed == 0 ? 0 : 1;
}

}  // namespace firn::app
