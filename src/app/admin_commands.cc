#include "app/admin_commands.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/admin_copy_store.h"
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

int RunAdminBackup(const std::string& db_url, const std::string& to) {
  auto from = SqlitePathOfUrl(db_url);
  if (!from) {
    return Failed(Error(ErrorKind::kIllegalArgument,
                        from.error().message +
                            " (for PostgreSQL use pg_dump; see docs/postgres.md)"));
  }
  const auto start = std::chrono::steady_clock::now();
  auto stats = store::sqlite::BackupSqliteDatabase(*from, to);
  if (!stats) return Failed(stats.error());
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
  options.progress = [](const std::string& line) { std::cout << line << "\n"; };
  auto stats = CopyStore(**from, **to, options);
  if (!stats) return Failed(stats.error());
  std::cout << "copied " << RedactedUrl(args.from_url) << " to " << RedactedUrl(args.to_url)
            << ": " << stats->catalogs << " catalogs, " << stats->namespaces << " namespaces, "
            << stats->tables << " tables, " << stats->views << " views, "
            << stats->access_records << " access records, " << stats->audit_rows
            << " audit rows, " << SecondsSince(start) << " s\n";
  return 0;
}

}  // namespace firn::app
