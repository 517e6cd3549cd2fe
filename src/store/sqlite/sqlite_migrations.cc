#include "store/sqlite/sqlite_migrations.h"

#include <array>
#include <string>
#include <string_view>

#include "common/macros.h"

namespace firn::store::sqlite {
namespace {

// Step N brings the schema from version N-1 to N. Never edit a shipped step; append one.
// SQL is kept portable (no AUTOINCREMENT quirks, no JSON functions) so the PostgreSQL backend
// can mirror it; see docs/db-schema.md.
constexpr std::array<std::string_view, 3> kSteps = {
    // 1: namespaces, their properties, table/view pointers, metrics reports.
    R"sql(
CREATE TABLE namespaces (
  realm       TEXT    NOT NULL,
  catalog     TEXT    NOT NULL,
  ns_key      TEXT    NOT NULL,
  parent_key  TEXT    NOT NULL,
  created_ms  INTEGER NOT NULL,
  updated_ms  INTEGER NOT NULL,
  PRIMARY KEY (realm, catalog, ns_key)
);
CREATE INDEX namespaces_by_parent ON namespaces (realm, catalog, parent_key, ns_key);

CREATE TABLE namespace_properties (
  realm    TEXT NOT NULL,
  catalog  TEXT NOT NULL,
  ns_key   TEXT NOT NULL,
  name     TEXT NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY (realm, catalog, ns_key, name),
  FOREIGN KEY (realm, catalog, ns_key) REFERENCES namespaces (realm, catalog, ns_key)
    ON DELETE CASCADE
);

CREATE TABLE objects (
  realm              TEXT    NOT NULL,
  catalog            TEXT    NOT NULL,
  ns_key             TEXT    NOT NULL,
  name               TEXT    NOT NULL,
  kind               TEXT    NOT NULL CHECK (kind IN ('table', 'view')),
  metadata_location  TEXT    NOT NULL,
  version            INTEGER NOT NULL,
  created_ms         INTEGER NOT NULL,
  updated_ms         INTEGER NOT NULL,
  PRIMARY KEY (realm, catalog, ns_key, name),
  FOREIGN KEY (realm, catalog, ns_key) REFERENCES namespaces (realm, catalog, ns_key)
);
CREATE INDEX objects_by_kind ON objects (realm, catalog, ns_key, kind, name);

CREATE TABLE metrics_reports (
  id           INTEGER PRIMARY KEY,
  realm        TEXT    NOT NULL,
  catalog      TEXT    NOT NULL,
  ns_key       TEXT    NOT NULL,
  table_name   TEXT    NOT NULL,
  report_type  TEXT    NOT NULL,
  report_json  TEXT    NOT NULL,
  received_ms  INTEGER NOT NULL
);
CREATE INDEX metrics_reports_by_table
  ON metrics_reports (realm, catalog, ns_key, table_name, received_ms);
)sql",
    // 2: finalized responses by Idempotency-Key (store/idempotency_store.h).
    R"sql(
CREATE TABLE idempotency_records (
  realm         TEXT    NOT NULL,
  catalog       TEXT    NOT NULL,
  idem_key      TEXT    NOT NULL,
  operation     TEXT    NOT NULL,
  status        INTEGER NOT NULL,
  headers_json  TEXT    NOT NULL,
  body          TEXT    NOT NULL,
  created_ms    INTEGER NOT NULL,
  PRIMARY KEY (realm, catalog, idem_key)
);
CREATE INDEX idempotency_records_by_age ON idempotency_records (created_ms);
)sql",
    // 3: identity and access records (store/access_store.h), their change counter, the audit
    // trail and the access version each serving instance has loaded. AUTOINCREMENT keeps audit
    // ids strictly increasing even if old rows are pruned (paging relies on it).
    R"sql(
CREATE TABLE access_records (
  realm           TEXT    NOT NULL,
  kind            TEXT    NOT NULL,
  scope           TEXT    NOT NULL,
  name            TEXT    NOT NULL,
  body            TEXT    NOT NULL,
  entity_version  INTEGER NOT NULL,
  created_ms      INTEGER NOT NULL,
  updated_ms      INTEGER NOT NULL,
  PRIMARY KEY (realm, kind, scope, name)
);

CREATE TABLE access_version (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  version  INTEGER NOT NULL
);
INSERT INTO access_version (id, version) VALUES (1, 0);

CREATE TABLE audit_log (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  at_ms         INTEGER NOT NULL,
  realm         TEXT    NOT NULL,
  catalog       TEXT    NOT NULL,
  principal     TEXT    NOT NULL,
  client        TEXT    NOT NULL,
  request_id    TEXT    NOT NULL,
  operation     TEXT    NOT NULL,
  object        TEXT    NOT NULL,
  old_location  TEXT    NOT NULL,
  new_location  TEXT    NOT NULL,
  outcome       TEXT    NOT NULL,
  detail        TEXT    NOT NULL
);
CREATE INDEX audit_log_by_realm_time ON audit_log (realm, at_ms);
CREATE INDEX audit_log_by_principal ON audit_log (principal, at_ms);
CREATE INDEX audit_log_by_operation ON audit_log (operation, at_ms);

CREATE TABLE instance_acks (
  instance_id   TEXT    PRIMARY KEY,
  version       INTEGER NOT NULL,
  heartbeat_ms  INTEGER NOT NULL
);
)sql",
};

}  // namespace

int LatestSchemaVersion() { return static_cast<int>(kSteps.size()); }

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
    if (current > LatestSchemaVersion()) {
      return Fail(ErrorKind::kInternal,
                  "The catalog database schema (version " + std::to_string(current) +
                      ") is newer than this binary supports (version " +
                      std::to_string(LatestSchemaVersion()) + "); upgrade firn");
    }
    for (int v = current + 1; v <= LatestSchemaVersion(); ++v) {
      FIRN_RETURN_IF_ERROR(conn.ExecScript(std::string(kSteps[v - 1])));
    }
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
