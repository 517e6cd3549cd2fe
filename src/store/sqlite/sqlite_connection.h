// SqliteConnection: one sqlite3 handle with its cache of prepared statements.
//
// Thread-safety: NOT thread-safe; a connection is used by one thread at a time (the store's
// pool hands it out exclusively). The connection owns its handle and its statements.
// Errors: every failure is mapped by SqliteError(): busy/locked and I/O failures become
// kServiceUnavailable, everything else kInternal; the SQLite text goes to `detail` only.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/result.h"

namespace firn::store::sqlite {

struct SqliteOptions {
  // How long a statement waits on another process's lock before failing with
  // kServiceUnavailable. In-process writers are serialised by a mutex and never wait here.
  std::chrono::milliseconds busy_timeout{5000};
  // Idle reader connections kept open; more are opened on demand under load.
  int max_idle_readers = 8;
};

// The client message of a busy/locked failure (nothing was changed; retry).
inline constexpr std::string_view kBusyMessage = "The catalog database is busy; retry later";

// `sql` with every $N placeholder spelt ?N.
std::string NumberedPlaceholders(std::string_view sql);

// Maps a SQLite result code to the store's error contract.
Error SqliteError(int rc, sqlite3* db, std::string_view what);
// True for codes that mean "the database is unavailable right now" (busy, I/O, full...).
bool IsUnavailableCode(int rc);

// A borrowed, cached statement. Resets itself (and clears bindings) when it goes out of scope,
// so the cached statement is ready for the next caller.
class Statement {
 public:
  Statement(sqlite3_stmt* stmt, sqlite3* db) : stmt_(stmt), db_(db) {}
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement(Statement&& other) noexcept
      : stmt_(std::exchange(other.stmt_, nullptr)), db_(other.db_), bind_rc_(other.bind_rc_) {}
  ~Statement();

  // Parameters are 1-based, as in SQL. Text is copied (SQLITE_TRANSIENT).
  Statement& Bind(int index, std::string_view text);
  Statement& Bind(int index, int64_t value);
  Statement& BindNull(int index);
  // true when a row is available, false when done.
  Result<bool> Step();
  // Runs a statement that returns no rows.
  Status Run();

  std::string_view ColumnText(int col) const;
  int64_t ColumnInt(int col) const;
  bool ColumnIsNull(int col) const;

 private:
  sqlite3_stmt* stmt_;
  sqlite3* db_;
  int bind_rc_ = SQLITE_OK;
};

// The catalog database holds secret hashes and sealed signing keys, so its files are
// owner-only from the first byte: a missing `path` is created here empty with mode 0600 (an
// empty file is an empty SQLite database), never by SQLite with its default 0644; SQLite gives
// the -wal and -shm files the main file's mode. An existing file, -wal or -shm with any
// group/other permission bit is tightened to owner-only (one warning log line). A path that
// cannot be created is left for sqlite3_open_v2 to report.
void PreparePrivateDatabaseFile(const std::string& path);

class SqliteConnection {
 public:
  // Opens `path` (created if missing, PreparePrivateDatabaseFile) and applies the
  // per-connection pragmas: synchronous=FULL, foreign_keys=ON, secure_delete=ON (deleted and
  // overwritten rows are zeroed, not left in free space), busy_timeout. WAL mode is set once by
  // the store.
  static Result<std::unique_ptr<SqliteConnection>> Open(const std::string& path,
                                                        const SqliteOptions& options);
  ~SqliteConnection();
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  // Returns the cached statement for `sql`, preparing it on first use. `sql` is the cache key.
  // Placeholders may be spelt $1, $2, … (store/sql/sql_session.h) or ?1, ?2, ….
  Result<Statement> Prepare(std::string_view sql);
  // Runs one or more statements without caching (DDL, pragmas).
  Status ExecScript(const std::string& sql);
  // Number of rows changed by the last INSERT/UPDATE/DELETE on this connection.
  int64_t Changes() const;
  sqlite3* handle() const { return db_; }

 private:
  explicit SqliteConnection(sqlite3* db) : db_(db) {}

  // Transparent hash: the hot path looks statements up by string_view without allocating.
  struct SqlHash {
    using is_transparent = void;
    size_t operator()(std::string_view sql) const { return std::hash<std::string_view>{}(sql); }
  };

  sqlite3* db_;
  std::unordered_map<std::string, sqlite3_stmt*, SqlHash, std::equal_to<>> statements_;
};

// Checkpoints the WAL of the database at `path` into the main file and truncates the -wal to
// zero bytes, so no page image of rows that were since overwritten stays in it (run after
// rewriting secrets). kServiceUnavailable when a reader keeps the checkpoint from completing.
Status CheckpointAndTruncateWal(const std::string& path);

}  // namespace firn::store::sqlite
