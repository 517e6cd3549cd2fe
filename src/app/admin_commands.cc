#include "app/admin_commands.h"

#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "app/admin_copy_store.h"
#include "app/progress.h"
#include "app/store_factory.h"
#include "store/sqlite/sqlite_backup.h"

namespace firn::app {
namespace {

int Failed(const Error& e) { return ReportAdminFailure("firn admin", e); }

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Result<store::Identifier> ParseTableArg(std::string_view text, std::string_view flag) {
  std::vector<std::string> levels;
  for (size_t start = 0;;) {
    const size_t dot = text.find('.', start);
    levels.emplace_back(text.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (levels.size() < 2 ||
      std::ranges::any_of(levels, [](const std::string& l) { return l.empty(); })) {
    return Fail(ErrorKind::kIllegalArgument, std::string(flag) + " must be ns.table");
  }
  store::Identifier id;
  id.name = std::move(levels.back());
  levels.pop_back();
  id.ns = std::move(levels);
  return id;
}

int ReportAdminFailure(std::string_view command, const Error& e) {
  std::cerr << command << ": " << e.message << "\n";
  if (!e.detail.empty()) std::cerr << "  (" << e.detail << ")\n";
  return 1;
}

int RunAdminBackup(const std::string& db_url, const std::string& to, bool json) {
  auto from = SqlitePathOfUrl(db_url);
  if (!from) {
    return Failed(Error(ErrorKind::kIllegalArgument,
                        from.error().message +
                            " (for PostgreSQL use pg_dump; see docs/postgres.md)"));
  }
  json = json || !Progress::StderrIsTerminal();
  const auto start = std::chrono::steady_clock::now();
  std::optional<Progress> progress;
  if (!json) {
    progress.emplace("backup");
    progress->Update(0, 1, "copies", "copying one committed state");
  }
  auto stats = store::sqlite::BackupSqliteDatabase(*from, to);
  if (progress) progress->Update(stats ? 1 : 0, 1, "copies");
  progress.reset();
  if (!stats) return Failed(stats.error());
  if (json) {
    boost::json::object o;
    o["from"] = *from;
    o["to"] = to;
    o["pages"] = stats->pages;
    o["bytes"] = stats->bytes;
    o["seconds"] = SecondsSince(start);
    std::cout << boost::json::serialize(o) << "\n";
    return 0;
  }
  std::cout << "backed up " << *from << " to " << to << ": " << stats->pages << " pages, "
            << stats->bytes << " bytes, " << SecondsSince(start) << " s\n";
  return 0;
}

int RunAdminCopyStore(const CopyStoreArgs& args) {
  auto from_password = ReadDbPassword(args.from_password_file);
  if (!from_password) return Failed(from_password.error());
  auto to_password = ReadDbPassword(args.to_password_file);
  if (!to_password) return Failed(to_password.error());
  if (args.from_url == args.to_url) {
    return Failed(Error(ErrorKind::kIllegalArgument, "--from and --to name the same database"));
  }
  auto from = OpenStoreByUrl(args.from_url, *from_password);
  if (!from) return Failed(from.error());
  auto to = OpenStoreByUrl(args.to_url, *to_password);
  if (!to) return Failed(to.error());

  const auto start = std::chrono::steady_clock::now();
  CopyStoreOptions options;
  options.force = args.force;
  const bool json = args.json || !Progress::StderrIsTerminal();
  std::optional<Progress> progress;
  size_t steps = 0;
  if (!json) {
    progress.emplace("copy-store");
    options.progress = [&](const std::string& line) { progress->Update(++steps, 0, "steps", line); };
  }
  auto stats = CopyStore(**from, **to, options);
  progress.reset();
  if (!stats) return Failed(stats.error());
  if (json) {
    boost::json::object o;
    o["from"] = RedactedUrl(args.from_url);
    o["to"] = RedactedUrl(args.to_url);
    o["catalogs"] = stats->catalogs;
    o["namespaces"] = stats->namespaces;
    o["tables"] = stats->tables;
    o["views"] = stats->views;
    o["accessRecords"] = stats->access_records;
    o["auditRows"] = stats->audit_rows;
    o["seconds"] = SecondsSince(start);
    std::cout << boost::json::serialize(o) << "\n";
    return 0;
  }
  std::cout << "copied " << RedactedUrl(args.from_url) << " to " << RedactedUrl(args.to_url)
            << ": " << stats->catalogs << " catalogs, " << stats->namespaces << " namespaces, "
            << stats->tables << " tables, " << stats->views << " views, "
            << stats->access_records << " access records, " << stats->audit_rows
            << " audit rows, " << SecondsSince(start) << " s\n";
  return 0;
}

}  // namespace firn::app
