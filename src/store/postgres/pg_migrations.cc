#include "store/postgres/pg_migrations.h"

#include <string_view>

#include "common/macros.h"
#include "store/sql/sql_migrations.h"

namespace firn::store::postgres {
namespace {

// The shared steps (store/sql/sql_migrations.h) in PostgreSQL's types. Keys compare with
// COLLATE "C" (byte order), which page tokens and listing order rely on; identity and bigserial
// columns never hand out a value twice.
constexpr sql::SchemaDialect kDialect = {
    .key = R"(text COLLATE "C")",
    .text = "text",
    .int32 = "integer",
    .int64 = "bigint",
    .generated_id = "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    .increasing_id = "bigserial PRIMARY KEY",
    .transaction_id = "(pg_current_xact_id()::text::bigint)",
};

// One lock for all firn migrations in the database ("firn" in ASCII).
constexpr std::string_view kLock = "SELECT pg_advisory_xact_lock(1718186606)";

constexpr std::string_view kCreateVersionTable =
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " id integer PRIMARY KEY CHECK (id = 1),"
    " version integer NOT NULL,"
    " updated_ms bigint NOT NULL)";

constexpr std::string_view kReadVersion =
    "SELECT COALESCE((SELECT version FROM schema_version WHERE id = 1), 0)";

constexpr std::string_view kTableExists = "SELECT to_regclass('schema_version') IS NOT NULL";

}  // namespace

int LatestSchemaVersion() { return sql::LatestSchemaVersion(); }

Result<int> SchemaVersion(PgConnection& conn) {
  FIRN_ASSIGN_OR_RETURN(PgResult exists, conn.Execute(kTableExists, {}));
  if (exists.Text(0, 0) != "t") return 0;
  FIRN_ASSIGN_OR_RETURN(PgResult version, conn.Execute(kReadVersion, {}));
  return static_cast<int>(version.Int(0, 0));
}

Status Migrate(PgConnection& conn, const std::string& schema) {
  FIRN_RETURN_IF_ERROR(conn.ExecuteScript("BEGIN"));
  auto apply = [&]() -> Status {
    FIRN_RETURN_IF_ERROR(conn.ExecuteScript(kLock));
    if (!schema.empty()) {
      // search_path already holds the (quoted) schema; current_schemas(false) is empty until it
      // exists, so create it under its exact name.
      FIRN_ASSIGN_OR_RETURN(
          PgResult create,
          conn.Execute("SELECT format('CREATE SCHEMA IF NOT EXISTS %I', $1::text)", {schema}));
      FIRN_RETURN_IF_ERROR(conn.ExecuteScript(create.Text(0, 0)));
    }
    FIRN_RETURN_IF_ERROR(conn.ExecuteScript(kCreateVersionTable));
    FIRN_ASSIGN_OR_RETURN(int current, SchemaVersion(conn));
    FIRN_RETURN_IF_ERROR(sql::ApplySchemaSteps(
        current, kDialect, [&](std::string_view step) { return conn.ExecuteScript(step); }));
    if (current != LatestSchemaVersion()) {
      FIRN_RETURN_IF_ERROR(conn.Execute(
          "INSERT INTO schema_version (id, version, updated_ms) "
          "VALUES (1, $1, (extract(epoch from clock_timestamp()) * 1000)::bigint) "
          "ON CONFLICT (id) DO UPDATE SET version = excluded.version, "
          "updated_ms = excluded.updated_ms",
          {LatestSchemaVersion()}));
    }
    return Ok();
  };
  Status status = apply();
  if (!status) {
    if (!conn.IsBroken()) (void)conn.ExecuteScript("ROLLBACK");
    return status;
  }
  return conn.ExecuteScript("COMMIT", OnLoss::kOutcomeUnknown);
}

}  // namespace firn::store::postgres
