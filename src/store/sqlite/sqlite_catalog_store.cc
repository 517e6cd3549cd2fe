#include "store/sqlite/sqlite_catalog_store.h"

#include <utility>

#include "common/macros.h"
#include "store/sql/sql_catalog_store.h"
#include "store/sqlite/sqlite_connection_pool.h"
#include "store/sqlite/sqlite_group_writer.h"
#include "store/sqlite/sqlite_migrations.h"

namespace firn::store {
namespace {

using sqlite::SqliteConnection;
using sqlite::SqliteGroupWriter;
using sqlite::SqliteOptions;
using sqlite::SqliteReaderPool;
using sqlite::Statement;

constexpr std::string_view kBegin = "BEGIN";
constexpr std::string_view kCommit = "COMMIT";
constexpr std::string_view kRollback = "ROLLBACK";

class SqliteRow final : public sql::Row {
 public:
  explicit SqliteRow(const Statement& stmt) : stmt_(stmt) {}
  std::string_view Text(int col) const override { return stmt_.ColumnText(col); }
  int64_t Int(int col) const override { return stmt_.ColumnInt(col); }
  bool IsNull(int col) const override { return stmt_.ColumnIsNull(col); }

 private:
  const Statement& stmt_;
};

// One connection, one thread. SQLite has no row locks: the one writer connection runs one write
// transaction at a time (the group writer), so plain reads inside it are as strong as locking ones.
class SqliteSession final : public sql::Session {
 public:
  explicit SqliteSession(SqliteConnection& conn) : conn_(conn) {}

  Status Query(std::string_view text, sql::Params params, sql::RowFn on_row) override {
    FIRN_ASSIGN_OR_RETURN(Statement stmt, Bound(text, params));
    return Steps(stmt, on_row);
  }

  Result<int64_t> Exec(std::string_view text, sql::Params params, sql::RowFn on_row) override {
    FIRN_ASSIGN_OR_RETURN(Statement stmt, Bound(text, params));
    FIRN_RETURN_IF_ERROR(Steps(stmt, on_row));
    return conn_.Changes();
  }

  bool HasRowLocks() const override { return false; }

 private:
  Result<Statement> Bound(std::string_view text, sql::Params params) {
    FIRN_ASSIGN_OR_RETURN(Statement stmt, conn_.Prepare(text));
    for (size_t i = 0; i < params.size(); ++i) {
      const int index = static_cast<int>(i + 1);
      if (const auto* t = params[i].text()) {
        stmt.Bind(index, *t);
      } else if (const auto* n = params[i].number()) {
        stmt.Bind(index, *n);
      } else {
        stmt.BindNull(index);
      }
    }
    return stmt;
  }

  static Status Steps(Statement& stmt, sql::RowFn on_row) {
    while (true) {
      FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
      if (!row) return Ok();
      FIRN_RETURN_IF_ERROR(on_row(SqliteRow(stmt)));
    }
  }

  SqliteConnection& conn_;
};

// Reads on pooled reader connections (concurrently with writes: WAL); every write through the
// group writer, which commits concurrent writers together.
class SqliteRunner final : public sql::Runner {
 public:
  SqliteRunner(std::string path, SqliteOptions options, std::unique_ptr<SqliteConnection> writer)
      : writer_(std::move(writer)), readers_(std::move(path), options) {}

  Status Read(sql::ReadMode mode, FunctionRef<Status(sql::Session&)> body) override {
    FIRN_ASSIGN_OR_RETURN(auto lease, readers_.Acquire());
    SqliteSession session(*lease);
    // A single statement needs no transaction; several that must agree share one.
    if (mode == sql::ReadMode::kSingle) return body(session);
    FIRN_RETURN_IF_ERROR(RunOne(*lease, kBegin));
    Status result = body(session);
    // Ending a read transaction cannot lose data; a failure here only matters for reuse.
    if (!RunOne(*lease, kCommit) && sqlite3_get_autocommit(lease->handle()) == 0) {
      (void)RunOne(*lease, kRollback);
    }
    return result;
  }

  // Every mode is one (group-committed) transaction; the result is returned only once the
  // transaction holding it has committed.
  Status Write(sql::WriteMode, FunctionRef<Status(sql::Session&)> body) override {
    return writer_.Run([&](SqliteConnection& conn) -> Status {
      SqliteSession session(conn);
      return body(session);
    });
  }

 private:
  static Status RunOne(SqliteConnection& conn, std::string_view text) {
    FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(text));
    return stmt.Run();
  }

  SqliteGroupWriter writer_;
  SqliteReaderPool readers_;
};

}  // namespace

Result<std::unique_ptr<CatalogStore>> OpenSqliteStore(const std::string& path) {
  return OpenSqliteStore(path, SqliteOptions{});
}

Result<std::unique_ptr<CatalogStore>> OpenSqliteStore(const std::string& path,
                                                      const SqliteOptions& options) {
  if (sqlite3_threadsafe() == 0) {
    return Fail(ErrorKind::kInternal, "Catalog database error",
                "SQLite was built without thread support");
  }
  if (path.empty() || path == ":memory:") {
    return Fail(ErrorKind::kIllegalArgument, "The SQLite catalog needs a database file path");
  }
  FIRN_ASSIGN_OR_RETURN(auto writer, SqliteConnection::Open(path, options));
  {
    // WAL is a property of the file; it persists once set. Refuse silently weaker modes.
    FIRN_ASSIGN_OR_RETURN(Statement stmt, writer->Prepare("PRAGMA journal_mode=WAL"));
    FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row || stmt.ColumnText(0) != "wal") {
      return Fail(ErrorKind::kInternal, "Catalog database error",
                  "could not enable WAL journal mode on " + path);
    }
  }
  FIRN_RETURN_IF_ERROR(sqlite::Migrate(*writer));
  return NewSqlCatalogStore(std::make_unique<SqliteRunner>(path, options, std::move(writer)));
}

}  // namespace firn::store
