#include "store/sqlite/sqlite_connection.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "common/log.h"
#include "common/macros.h"

namespace firn::store::sqlite {

bool IsUnavailableCode(int rc) {
  switch (rc & 0xFF) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_PROTOCOL:
    case SQLITE_NOMEM:
    case SQLITE_READONLY:
      return true;
    default:
      return false;
  }
}

Error SqliteError(int rc, sqlite3* db, std::string_view what) {
  std::string detail = std::string(what) + ": " + sqlite3_errstr(rc);
  if (db != nullptr) detail += std::string(" (") + sqlite3_errmsg(db) + ")";
  if ((rc & 0xFF) == SQLITE_BUSY || (rc & 0xFF) == SQLITE_LOCKED) {
    return Error(ErrorKind::kServiceUnavailable, std::string(kBusyMessage),
                 std::move(detail));
  }
  if (IsUnavailableCode(rc)) {
    return Error(ErrorKind::kServiceUnavailable, "The catalog database is unavailable",
                 std::move(detail));
  }
  return Error(ErrorKind::kInternal, "Catalog database error", std::move(detail));
}

Statement::~Statement() {
  if (stmt_ != nullptr) {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
}

Statement& Statement::Bind(int index, std::string_view text) {
  int rc = sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                             SQLITE_TRANSIENT);
  if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

Statement& Statement::BindNull(int index) {
  int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

Statement& Statement::Bind(int index, int64_t value) {
  int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

Result<bool> Statement::Step() {
  if (bind_rc_ != SQLITE_OK) return Fail(SqliteError(bind_rc_, db_, "bind"));
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Fail(SqliteError(rc, db_, sqlite3_sql(stmt_)));
}

Status Statement::Run() {
  FIRN_ASSIGN_OR_RETURN(bool row, Step());
  (void)row;
  return Ok();
}

std::string_view Statement::ColumnText(int col) const {
  const unsigned char* text = sqlite3_column_text(stmt_, col);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text),
          static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

int64_t Statement::ColumnInt(int col) const { return sqlite3_column_int64(stmt_, col); }

bool Statement::ColumnIsNull(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

void PreparePrivateDatabaseFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ::close(fd);
    return;
  }
  if (errno != EEXIST) return;
  for (const char* suffix : {"", "-wal", "-shm"}) {
    const std::string file = path + suffix;
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & 077) == 0) {
      continue;
    }
    const mode_t tight = st.st_mode & 0700;
    if (::chmod(file.c_str(), tight) == 0) {
      spdlog::warn(R"("msg":"database file was accessible to other users; tightened to owner-only","path":"{}","old_mode":"{:o}","new_mode":"{:o}")",
                   log::Escape(file), st.st_mode & 07777, tight);
    } else {
      spdlog::warn(R"("msg":"database file is accessible to other users and cannot be tightened","path":"{}","mode":"{:o}")",
                   log::Escape(file), st.st_mode & 07777);
    }
  }
}

Status CheckpointAndTruncateWal(const std::string& path) {
  FIRN_ASSIGN_OR_RETURN(auto conn, SqliteConnection::Open(path, SqliteOptions{}));
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn->Prepare("PRAGMA wal_checkpoint(TRUNCATE)"));
  FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row || stmt.ColumnInt(0) != 0) {
    return Fail(ErrorKind::kServiceUnavailable, std::string(kBusyMessage),
                "wal_checkpoint(TRUNCATE) of " + path + " did not complete");
  }
  return Ok();
}

Result<std::unique_ptr<SqliteConnection>> SqliteConnection::Open(const std::string& path,
                                                                 const SqliteOptions& options) {
  PreparePrivateDatabaseFile(path);
  sqlite3* db = nullptr;
  // NOMUTEX: the pool guarantees one thread per connection at a time.
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    Error error = SqliteError(rc, db, "open " + path);
    sqlite3_close_v2(db);
    return Fail(std::move(error));
  }
  sqlite3_extended_result_codes(db, 1);
  std::unique_ptr<SqliteConnection> conn(new SqliteConnection(db));
  sqlite3_busy_timeout(db, static_cast<int>(options.busy_timeout.count()));
  FIRN_RETURN_IF_ERROR(conn->ExecScript(
      "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA secure_delete=ON;"));
  return conn;
}

SqliteConnection::~SqliteConnection() {
  for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
  sqlite3_close_v2(db_);
}

// "$12" (store/sql's spelling) → "?12" (SQLite's numbered form: "$12" would be a *named*
// parameter, numbered by first appearance). Statements hold no '$' in literals.
std::string NumberedPlaceholders(std::string_view sql) {
  std::string out(sql);
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '$' && out[i + 1] >= '0' && out[i + 1] <= '9') out[i] = '?';
  }
  return out;
}

Result<Statement> SqliteConnection::Prepare(std::string_view sql) {
  auto it = statements_.find(sql);
  if (it != statements_.end()) return Statement(it->second, db_);
  const std::string text = NumberedPlaceholders(sql);
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(db_, text.data(), static_cast<int>(text.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) return Fail(SqliteError(rc, db_, "prepare " + std::string(sql)));
  statements_.emplace(std::string(sql), stmt);
  return Statement(stmt, db_);
}

Status SqliteConnection::ExecScript(const std::string& sql) {
  char* message = nullptr;
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    Error error = SqliteError(rc, db_, sql);
    sqlite3_free(message);
    return Fail(std::move(error));
  }
  return Ok();
}

int64_t SqliteConnection::Changes() const { return sqlite3_changes64(db_); }

}  // namespace firn::store::sqlite
