#include "store/postgres/pg_migrations.h"

#include <array>
#include <string_view>

#include "common/macros.h"

namespace firn::store::postgres {
namespace {

// Step N brings the schema from version N-1 to N. Never edit a shipped step; append one.
// Mirrors src/store/sqlite/sqlite_migrations.cc table for table. Keys compare with
// COLLATE "C" (byte order), which page tokens and listing order rely on.
constexpr std::array<std::string_view, 3> kSteps = {
    // 1: namespaces, their properties, table/view pointers, metrics reports.
    R"sql(
CREATE TABLE namespaces (
  realm       text COLLATE "C" NOT NULL,
  catalog     text COLLATE "C" NOT NULL,
  ns_key      text COLLATE "C" NOT NULL,
  parent_key  text COLLATE "C" NOT NULL,
  created_ms  bigint NOT NULL,
  updated_ms  bigint NOT NULL,
  PRIMARY KEY (realm, catalog, ns_key)
);
CREATE INDEX namespaces_by_parent ON namespaces (realm, catalog, parent_key, ns_key);

CREATE TABLE namespace_properties (
  realm    text COLLATE "C" NOT NULL,
  catalog  text COLLATE "C" NOT NULL,
  ns_key   text COLLATE "C" NOT NULL,
  name     text COLLATE "C" NOT NULL,
  value    text NOT NULL,
  PRIMARY KEY (realm, catalog, ns_key, name),
  FOREIGN KEY (realm, catalog, ns_key) REFERENCES namespaces (realm, catalog, ns_key)
    ON DELETE CASCADE
);

CREATE TABLE objects (
  realm              text COLLATE "C" NOT NULL,
  catalog            text COLLATE "C" NOT NULL,
  ns_key             text COLLATE "C" NOT NULL,
  name               text COLLATE "C" NOT NULL,
  kind               text NOT NULL CHECK (kind IN ('table', 'view')),
  metadata_location  text NOT NULL,
  version            bigint NOT NULL,
  created_ms         bigint NOT NULL,
  updated_ms         bigint NOT NULL,
  PRIMARY KEY (realm, catalog, ns_key, name),
  FOREIGN KEY (realm, catalog, ns_key) REFERENCES namespaces (realm, catalog, ns_key)
);
CREATE INDEX objects_by_kind ON objects (realm, catalog, ns_key, kind, name);

CREATE TABLE metrics_reports (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  realm        text COLLATE "C" NOT NULL,
  catalog      text COLLATE "C" NOT NULL,
  ns_key       text COLLATE "C" NOT NULL,
  table_name   text COLLATE "C" NOT NULL,
  report_type  text NOT NULL,
  report_json  text NOT NULL,
  received_ms  bigint NOT NULL
);
CREATE INDEX metrics_reports_by_table
  ON metrics_reports (realm, catalog, ns_key, table_name, received_ms);
)sql",
    // 2: finalized responses by Idempotency-Key (store/idempotency_store.h).
    R"sql(
CREATE TABLE idempotency_records (
  realm         text COLLATE "C" NOT NULL,
  catalog       text COLLATE "C" NOT NULL,
  idem_key      text COLLATE "C" NOT NULL,
  operation     text NOT NULL,
  status        integer NOT NULL,
  headers_json  text NOT NULL,
  body          text NOT NULL,
  created_ms    bigint NOT NULL,
  PRIMARY KEY (realm, catalog, idem_key)
);
CREATE INDEX idempotency_records_by_age ON idempotency_records (created_ms);
)sql",
    // 3: identity and access records (store/access_store.h), their change counter, the audit
    // trail and the access version each serving instance has loaded.
    R"sql(
CREATE TABLE access_records (
  realm           text COLLATE "C" NOT NULL,
  kind            text COLLATE "C" NOT NULL,
  scope           text COLLATE "C" NOT NULL,
  name            text COLLATE "C" NOT NULL,
  body            text NOT NULL,
  entity_version  bigint NOT NULL,
  created_ms      bigint NOT NULL,
  updated_ms      bigint NOT NULL,
  PRIMARY KEY (realm, kind, scope, name)
);

CREATE TABLE access_version (
  id       integer PRIMARY KEY CHECK (id = 1),
  version  bigint NOT NULL
);
INSERT INTO access_version (id, version) VALUES (1, 0);

CREATE TABLE audit_log (
  id            bigserial PRIMARY KEY,
  at_ms         bigint NOT NULL,
  realm         text COLLATE "C" NOT NULL,
  catalog       text COLLATE "C" NOT NULL,
  principal     text COLLATE "C" NOT NULL,
  client        text NOT NULL,
  request_id    text NOT NULL,
  operation     text COLLATE "C" NOT NULL,
  object        text COLLATE "C" NOT NULL,
  old_location  text NOT NULL,
  new_location  text NOT NULL,
  outcome       text NOT NULL,
  detail        text NOT NULL
);
CREATE INDEX audit_log_by_realm_time ON audit_log (realm, at_ms);
CREATE INDEX audit_log_by_principal ON audit_log (principal, at_ms);
CREATE INDEX audit_log_by_operation ON audit_log (operation, at_ms);

CREATE TABLE instance_acks (
  instance_id   text COLLATE "C" PRIMARY KEY,
  version       bigint NOT NULL,
  heartbeat_ms  bigint NOT NULL
);
)sql",
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

int LatestSchemaVersion() { return static_cast<int>(kSteps.size()); }

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
    if (current > LatestSchemaVersion()) {
      return Fail(ErrorKind::kInternal,
                  "The catalog database schema (version " + std::to_string(current) +
                      ") is newer than this binary supports (version " +
                      std::to_string(LatestSchemaVersion()) + "); upgrade firn");
    }
    for (int v = current + 1; v <= LatestSchemaVersion(); ++v) {
      FIRN_RETURN_IF_ERROR(conn.ExecuteScript(kSteps[v - 1]));
    }
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
