#include "app/admin_recover.h"

#include <boost/json.hpp>

#include <fstream>
#include <iostream>
#include <set>

#include "app/admin_commands.h"
#include "app/admin_service.h"
#include "app/progress.h"
#include "app/store_factory.h"
#include "catalog/store_walk.h"
#include "common/log.h"
#include "common/macros.h"
#include "recovery/chain.h"
#include "recovery/recover.h"
#include "store/store_keys.h"

namespace firn::app {
namespace {

int Failed(const Error& e, int code = 1) {
  ReportAdminFailure("firn recover", e);
  return code;
}

// The names of the metadata files another catalog pointed at: JSON lines naming them (under
// any of the keys below: recover's and verify's own output, a listing), or every table pointer
// of a Firn database (a backup, a restored dump).
Status ReadPointers(const std::string& source, std::set<std::string>& out) {
  if (source.starts_with("sqlite:") || source.starts_with("postgres")) {
    FIRN_ASSIGN_OR_RETURN(std::shared_ptr<store::CatalogStore> db, OpenStoreByUrl(source, {}));
    FIRN_ASSIGN_OR_RETURN(auto scopes, db->ListCatalogScopes());
    for (const store::CatalogScope& scope : scopes) {
      FIRN_RETURN_IF_ERROR(catalog::ForEachObject(
          *db, scope, {}, store::ObjectKind::kTable, [&](const store::Identifier& id) -> Status {
            if (auto ptr = db->LoadPointer(scope, id, store::ObjectKind::kTable)) {
              out.emplace(recovery::FileName(ptr->metadata_location));
            }
            return Ok();
          }));
    }
    return Ok();
  }
  std::ifstream in(source);
  if (!in) return Fail(ErrorKind::kIllegalArgument, "cannot read pointer source " + source);
  std::string line;
  while (std::getline(in, line)) {
    boost::system::error_code ec;
    const boost::json::value doc = boost::json::parse(line, ec);
    if (ec || !doc.is_object()) continue;
    for (std::string_view key : {"metadata-location", "metadata_location", "head",
                                 "metadata-file", "metadata_file", "metadataLocation"}) {
      if (const auto* v = doc.as_object().if_contains(key); v && v->is_string()) {
        out.emplace(recovery::FileName(v->as_string()));
      }
    }
  }
  return Ok();
}

std::string Human(const recovery::TableOutcome& t) {
  std::string out = "  " + std::string(recovery::TableActionName(t.action)) + " " + t.dir;
  if (!t.id.name.empty()) out += " as " + store::IdentifierDisplay(t.id);
  if (!t.reason.empty() && t.action == recovery::TableAction::kAmbiguous) {
    out += "\n    " + t.reason;
  }
  for (const recovery::CandidateReport& c : t.candidates) {
    out += "\n    candidate " + c.file + " (chain of " + std::to_string(c.chain.size()) + ")";
  }
  if (!t.detail.empty()) out += "\n    " + t.detail;
  return out;
}

}  // namespace

int RunRecover(const RecoverArgs& args) {
  log::Init("warn");  // stdout carries the report
  recovery::RecoverOptions options;
  options.prefix = args.prefix;
  options.threads = args.threads;
  options.dry_run = args.dry_run;
  if (args.on_fork == "latest") {
    options.fork_rule = recovery::ForkRule::kLatestUpdate;
  } else if (args.on_fork != "report") {
    return Failed(Error(ErrorKind::kIllegalArgument, "--on-fork must be report or latest"), 2);
  }
  for (const std::string& source : args.pointers) {
    if (auto st = ReadPointers(source, options.pointers); !st) return Failed(st.error(), 2);
  }
  options.take_over_from.insert(args.take_over_from.begin(), args.take_over_from.end());
  if (!args.ns.empty()) {
    auto parsed = ParseTableArg(args.ns + ".x", "--namespace");
    if (!parsed) return Failed(parsed.error(), 2);
    options.default_namespace = parsed->ns;
  }
  if (args.prefix.find("://") == std::string::npos) {
    return Failed(Error(ErrorKind::kIllegalArgument, "--prefix must be a file:// or s3:// URI"),
                  2);
  }
  // A dry run writes nothing, not even a deployment id into a new database.
  auto admin = OpenAdminService(args.store, /*ensure_deployment=*/!args.dry_run);
  if (!admin) return Failed(admin.error());
  auto ctx = (*admin)->Context(args.realm, args.catalog, "admin-recover");
  if (!ctx) return Failed(ctx.error());
  ctx->client = "firn recover";

  const bool json = args.json || !Progress::StderrIsTerminal();
  Progress progress(args.dry_run ? "recover (dry run)" : "recover", !json);
  options.on_discover = [&](size_t dirs, size_t tables) {
    progress.Update(tables, tables, "tables found", std::to_string(dirs) + " directories listed");
  };
  options.on_table = [&](const recovery::TableOutcome& t, size_t done, size_t total) {
    if (json) {
      std::cout << recovery::TableJson(t) << "\n";
    } else {
      progress.Update(done, total, "tables");
    }
  };
  auto report = recovery::Recover(*(*admin)->service, *ctx, *(*admin)->objects, options);
  progress.Finish();
  if (!report) return Failed(report.error());
  if (json) {
    std::cout << recovery::SummaryJson(*report, args.dry_run) << std::endl;
  } else {
    for (const recovery::TableOutcome& t : report->tables) {
      if (t.action != recovery::TableAction::kRegistered &&
          t.action != recovery::TableAction::kAlreadyRegistered &&
          t.action != recovery::TableAction::kWouldRegister) {
        std::cout << Human(t) << "\n";
      }
    }
    std::cout << recovery::SummaryJson(*report, args.dry_run) << std::endl;
  }
  auto count = [&](recovery::TableAction a) {
    auto it = report->counts.find(a);
    return it == report->counts.end() ? size_t{0} : it->second;
  };
  if (count(recovery::TableAction::kFailed) + count(recovery::TableAction::kRefused) > 0) return 1;
  if (count(recovery::TableAction::kAmbiguous) > 0) return 3;
  return 0;
}

}  // namespace firn::app
