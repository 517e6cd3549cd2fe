#include "store/sqlite/sqlite_backup.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <thread>

#include "common/macros.h"
#include "store/sqlite/sqlite_connection.h"

namespace firn::store::sqlite {
namespace {

namespace fs = std::filesystem;

struct CloseDb {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using DbHandle = std::unique_ptr<sqlite3, CloseDb>;

Result<DbHandle> OpenDb(const std::string& path, int flags, std::string_view what) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  DbHandle db(raw);
  if (rc != SQLITE_OK) return Fail(SqliteError(rc, db.get(), what));
  sqlite3_extended_result_codes(db.get(), 1);
  return db;
}

Result<int64_t> QueryInt(sqlite3* db, const char* sql, std::string_view what) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
  if (rc != SQLITE_OK) return Fail(SqliteError(rc, db, what));
  rc = sqlite3_step(stmt);
  int64_t value = rc == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : 0;
  sqlite3_finalize(stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return Fail(SqliteError(rc, db, what));
  return value;
}

Result<std::string> QueryText(sqlite3* db, const char* sql, std::string_view what) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
  if (rc != SQLITE_OK) return Fail(SqliteError(rc, db, what));
  rc = sqlite3_step(stmt);
  std::string value;
  if (rc == SQLITE_ROW && sqlite3_column_text(stmt, 0) != nullptr) {
    value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return Fail(SqliteError(rc, db, what));
  return value;
}

// fsync of the directory makes the rename itself durable.
Status SyncDirectory(const fs::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return Fail(ErrorKind::kServiceUnavailable, "Cannot open " + dir.string());
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return Fail(ErrorKind::kServiceUnavailable, "Cannot fsync " + dir.string());
  return Ok();
}

void RemoveQuietly(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path + suffix, ec);
}

// Copies `src` into `dst` with the backup API; the copy is one committed state of `src`.
Result<BackupStats> CopyPages(sqlite3* src, sqlite3* dst, const BackupOptions& options) {
  sqlite3_backup* backup = sqlite3_backup_init(dst, "main", src, "main");
  if (backup == nullptr) return Fail(SqliteError(sqlite3_errcode(dst), dst, "backup init"));
  BackupStats stats;
  const auto deadline = std::chrono::steady_clock::now() + options.deadline;
  int last_remaining = -1;
  int rc = SQLITE_OK;
  while (true) {
    rc = sqlite3_backup_step(backup, options.pages_per_step);
    const int remaining = sqlite3_backup_remaining(backup);
    if (last_remaining >= 0 && remaining > last_remaining) ++stats.restarts;
    last_remaining = remaining;
    if (rc == SQLITE_DONE) break;
    const bool transient = rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
    if (!transient || std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(options.pause_between_steps);
  }
  stats.pages = sqlite3_backup_pagecount(backup);
  // finish reports the step's error, if any, and releases the source's read transaction.
  const int finish_rc = sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) {
    const int code = rc == SQLITE_OK ? SQLITE_BUSY : rc;
    return Fail(SqliteError(code, dst, "online backup"));
  }
  if (finish_rc != SQLITE_OK) return Fail(SqliteError(finish_rc, dst, "online backup"));
  return stats;
}

}  // namespace

Result<BackupStats> BackupSqliteDatabase(const std::string& from, const std::string& to,
                                         const BackupOptions& options) {
  std::error_code ec;
  if (!fs::is_regular_file(from, ec)) {
    return Fail(ErrorKind::kNotFound, "Source database does not exist: " + from);
  }
  if (fs::exists(to, ec) || fs::exists(to + "-wal", ec)) {
    return Fail(ErrorKind::kAlreadyExists,
                "Backup destination already exists (remove it first): " + to);
  }
  const fs::path target = fs::absolute(to);
  if (fs::exists(target.parent_path(), ec) &&
      fs::equivalent(fs::absolute(from), target.parent_path() / target.filename(), ec)) {
    return Fail(ErrorKind::kIllegalArgument, "Source and destination are the same file");
  }

  // Read-write (never create) so a WAL source without a -shm file can still be read; the
  // backup only ever reads through this connection.
  auto src = OpenDb(from, SQLITE_OPEN_READWRITE, "open source");
  if (!src) return Fail(src.error());
  sqlite3_busy_timeout(src->get(), 5000);
  auto version = QueryInt(src->get(), "PRAGMA user_version", "read source schema version");
  if (!version) return Fail(version.error());
  auto has_objects = QueryInt(
      src->get(), "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'objects'",
      "read source schema");
  if (!has_objects) return Fail(has_objects.error());
  if (*version < 1 || *has_objects == 0) {
    return Fail(ErrorKind::kIllegalArgument, "Not a firn catalog database: " + from);
  }

  const std::string tmp = target.string() + ".tmp-" + std::to_string(::getpid());
  RemoveQuietly(tmp);
  Result<BackupStats> stats = [&]() -> Result<BackupStats> {
    // The copy holds what the source holds (secret hashes, sealed keys): owner-only (0600)
    // before the first page lands; rename keeps the mode.
    PreparePrivateDatabaseFile(tmp);
    auto dst = OpenDb(tmp, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "open backup file");
    if (!dst) return Fail(dst.error());
    // FULL: the backup's final commit fsyncs the copy before we rename it.
    if (sqlite3_exec(dst->get(), "PRAGMA synchronous=FULL", nullptr, nullptr, nullptr) !=
        SQLITE_OK) {
      return Fail(SqliteError(sqlite3_errcode(dst->get()), dst->get(), "configure backup file"));
    }
    FIRN_ASSIGN_OR_RETURN(BackupStats copied, CopyPages(src->get(), dst->get(), options));
    FIRN_ASSIGN_OR_RETURN(std::string check,
                          QueryText(dst->get(), "PRAGMA integrity_check", "check backup"));
    if (check != "ok") {
      return Fail(ErrorKind::kInternal, "The backup copy failed its integrity check: " + check);
    }
    // Fold any WAL content into the main file so the copy is one self-contained file.
    sqlite3_wal_checkpoint_v2(dst->get(), nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr,
                              nullptr);
    return copied;
  }();
  if (!stats) {
    RemoveQuietly(tmp);
    return stats;
  }
  // Closing the copy checkpointed it; a WAL left behind would hold pages the file lacks.
  if (fs::exists(tmp + "-wal", ec) && fs::file_size(tmp + "-wal", ec) > 0) {
    RemoveQuietly(tmp);
    return Fail(ErrorKind::kInternal, "The backup copy could not be checkpointed: " + tmp);
  }
  fs::remove(tmp + "-shm", ec);
  fs::remove(tmp + "-wal", ec);
  std::error_code rename_ec;
  fs::rename(tmp, target, rename_ec);
  if (rename_ec) {
    RemoveQuietly(tmp);
    return Fail(ErrorKind::kServiceUnavailable,
                "Cannot move the backup into place: " + target.string(), rename_ec.message());
  }
  FIRN_RETURN_IF_ERROR(SyncDirectory(target.parent_path()));
  stats->bytes = static_cast<int64_t>(fs::file_size(target, ec));
  return stats;
}

}  // namespace firn::store::sqlite
