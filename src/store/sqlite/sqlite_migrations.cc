#include "store/sqlite/sqlite_migrations.h"

#include <string>
#include <string_view>

#include "common/macros.h"
#include "store/sql/sql_migrations.h"

namespace firn::store::sqlite {
namespace {

// The shared steps (store/sql/sql_migrations.h) in SQLite's types. TEXT compares byte by byte
// (BINARY collation); INTEGER PRIMARY KEY is the rowid, and AUTOINCREMENT keeps audit ids
// strictly increasing even if old rows are pruned.
constexpr sql::SchemaDialect kDialect = {
    .key = "TEXT",
    .text = "TEXT",
    .int32 = "INTEGER",
    .int64 = "INTEGER",
    .generated_id = "INTEGER PRIMARY KEY",
    .increasing_id = "INTEGER PRIMARY KEY AUTOINCREMENT",
    .transaction_id = "0",
};

}  // namespace

int LatestSchemaVersion() { return sql::LatestSchemaVersion(); }

Result<int> SchemaVersion(SqliteConnection& conn) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare("PRAGMA user_version"));
  FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return Fail(ErrorKind::kInternal, "Catalog database error", "no user_version row");
  return static_cast<int>(stmt.ColumnInt(0));
}

Status Migrate(SqliteConnection& conn) {
  FIRN_RETURN_IF_ERROR(conn.ExecScript("BEGIN IMMEDIATE"));
  auto apply = [&]() -> Status {
    FIRN_ASSIGN_OR_RETURN(int current, SchemaVersion(conn));
    FIRN_RETURN_IF_ERROR(sql::ApplySchemaSteps(current, kDialect, [&](std::string_view step) {
      return conn.ExecScript(std::string(step));
    }));
    if (current != LatestSchemaVersion()) {
      // user_version lives in the database header, so it commits with the steps.
      FIRN_RETURN_IF_ERROR(
          conn.ExecScript("PRAGMA user_version = " + std::to_string(LatestSchemaVersion())));
    }
    return Ok();
  };
  Status status = apply();
  if (!status) {
    (void)conn.ExecScript("ROLLBACK");
    return status;
  }
  return conn.ExecScript("COMMIT");
}

}  // namespace firn::store::sqlite
