#include "store/sqlite/sqlite_access_ops.h"

#include <string>

#include "common/clock.h"
#include "common/macros.h"
#include "store/access_store_support.h"

namespace firn::store::sqlite {
namespace {

namespace sql {

constexpr std::string_view kInsertAudit =
    "INSERT INTO audit_log (at_ms, realm, catalog, principal, client, request_id, operation, "
    "object, old_location, new_location, outcome, detail) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";
constexpr std::string_view kFindRecord =
    "SELECT entity_version FROM access_records "
    "WHERE realm = ?1 AND kind = ?2 AND scope = ?3 AND name = ?4";
constexpr std::string_view kInsertRecord =
    "INSERT INTO access_records (realm, kind, scope, name, body, entity_version, created_ms, "
    "updated_ms) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?6)";
constexpr std::string_view kUpdateRecord =
    "UPDATE access_records SET body = ?5, entity_version = entity_version + 1, updated_ms = ?6 "
    "WHERE realm = ?1 AND kind = ?2 AND scope = ?3 AND name = ?4";
constexpr std::string_view kDeleteRecord =
    "DELETE FROM access_records WHERE realm = ?1 AND kind = ?2 AND scope = ?3 AND name = ?4";
constexpr std::string_view kUpsertRecord =
    "INSERT INTO access_records (realm, kind, scope, name, body, entity_version, created_ms, "
    "updated_ms) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?6) "
    "ON CONFLICT (realm, kind, scope, name) DO UPDATE SET body = excluded.body, "
    "entity_version = access_records.entity_version + 1, updated_ms = excluded.updated_ms";
constexpr std::string_view kBumpVersion =
    "UPDATE access_version SET version = version + 1 WHERE id = 1 RETURNING version";
constexpr std::string_view kReadVersion = "SELECT version FROM access_version WHERE id = 1";
// The LEFT JOIN returns the version even when there are no records (then one NULL row).
constexpr std::string_view kLoadAll =
    "SELECT v.version, r.realm, r.kind, r.scope, r.name, r.body, r.entity_version, "
    "r.created_ms, r.updated_ms FROM access_version v LEFT JOIN access_records r ON 1 = 1 "
    "WHERE v.id = 1 ORDER BY r.realm, r.kind, r.scope, r.name";
constexpr std::string_view kUpsertAck =
    "INSERT INTO instance_acks (instance_id, version, heartbeat_ms) VALUES (?1, ?2, ?3) "
    "ON CONFLICT (instance_id) DO UPDATE SET version = excluded.version, "
    "heartbeat_ms = excluded.heartbeat_ms";
constexpr std::string_view kLiveInstances =
    "SELECT instance_id, version, heartbeat_ms FROM instance_acks WHERE heartbeat_ms >= ?1 "
    "ORDER BY instance_id";

}  // namespace sql

// Prepares `text` and binds the record key to ?1..?4.
Result<Statement> Keyed(SqliteConnection& conn, std::string_view text, const AccessRecord& key) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(text));
  stmt.Bind(1, key.realm).Bind(2, AccessKindName(key.kind)).Bind(3, key.scope).Bind(4, key.name);
  return stmt;
}

Result<std::optional<int64_t>> FindVersion(SqliteConnection& conn, const AccessRecord& key) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, Keyed(conn, sql::kFindRecord, key));
  FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<int64_t>();
  return std::optional<int64_t>(stmt.ColumnInt(0));
}

// kNotFound / kCommitFailed for an update or delete whose precondition does not hold.
Status CheckExisting(SqliteConnection& conn, const AccessWrite& write) {
  FIRN_ASSIGN_OR_RETURN(auto version, FindVersion(conn, write.record));
  if (!version) return Fail(AccessRecordMissingError(write.record));
  if (write.expected_version && *write.expected_version != *version) {
    return Fail(AccessVersionMismatchError(write.record, *write.expected_version, *version));
  }
  return Ok();
}

Status ApplyOne(SqliteConnection& conn, const AccessWrite& write, int64_t now_ms) {
  const AccessRecord& record = write.record;
  switch (write.op) {
    case AccessWrite::Op::kCreate: {
      FIRN_ASSIGN_OR_RETURN(auto version, FindVersion(conn, record));
      if (version) return Fail(AccessRecordExistsError(record));
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Keyed(conn, sql::kInsertRecord, record));
      stmt.Bind(5, record.body).Bind(6, now_ms);
      return stmt.Run();
    }
    case AccessWrite::Op::kUpdate: {
      FIRN_RETURN_IF_ERROR(CheckExisting(conn, write));
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Keyed(conn, sql::kUpdateRecord, record));
      stmt.Bind(5, record.body).Bind(6, now_ms);
      return stmt.Run();
    }
    case AccessWrite::Op::kDelete: {
      FIRN_RETURN_IF_ERROR(CheckExisting(conn, write));
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Keyed(conn, sql::kDeleteRecord, record));
      return stmt.Run();
    }
    case AccessWrite::Op::kUpsert: {
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Keyed(conn, sql::kUpsertRecord, record));
      stmt.Bind(5, record.body).Bind(6, now_ms);
      return stmt.Run();
    }
  }
  return Fail(ErrorKind::kInternal, "Unknown access write operation");
}

AuditEntry AuditFromRow(const Statement& stmt) {
  AuditEntry entry;
  entry.id = stmt.ColumnInt(0);
  entry.at_ms = stmt.ColumnInt(1);
  std::string* text[] = {&entry.realm,     &entry.catalog,      &entry.principal,
                         &entry.client,    &entry.request_id,   &entry.operation,
                         &entry.object,    &entry.old_location, &entry.new_location,
                         &entry.outcome,   &entry.detail};
  for (int i = 0; i < 11; ++i) *text[i] = std::string(stmt.ColumnText(i + 2));
  return entry;
}

}  // namespace

Status InsertAudit(SqliteConnection& conn, const AuditEntry& entry) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql::kInsertAudit));
  stmt.Bind(1, entry.at_ms != 0 ? entry.at_ms : NowMillis())
      .Bind(2, entry.realm)
      .Bind(3, entry.catalog)
      .Bind(4, entry.principal)
      .Bind(5, entry.client)
      .Bind(6, entry.request_id)
      .Bind(7, entry.operation)
      .Bind(8, entry.object)
      .Bind(9, entry.old_location)
      .Bind(10, entry.new_location)
      .Bind(11, entry.outcome)
      .Bind(12, entry.detail);
  return stmt.Run();
}

Result<int64_t> ApplyAccessWrites(SqliteConnection& conn, const std::vector<AccessWrite>& writes,
                                  const AuditEntry* audit, int64_t now_ms) {
  for (const auto& write : writes) FIRN_RETURN_IF_ERROR(ApplyOne(conn, write, now_ms));
  int64_t version = 0;
  {
    FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql::kBumpVersion));
    FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) return Fail(ErrorKind::kInternal, "Catalog database error", "no access_version row");
    version = stmt.ColumnInt(0);
  }
  if (audit) {
    AuditEntry entry = *audit;
    if (entry.at_ms == 0) entry.at_ms = now_ms;
    FIRN_RETURN_IF_ERROR(InsertAudit(conn, entry));
  }
  return version;
}

Result<int64_t> ReadAccessVersion(SqliteConnection& conn) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql::kReadVersion));
  FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return Fail(ErrorKind::kInternal, "Catalog database error", "no access_version row");
  return stmt.ColumnInt(0);
}

Result<AccessRows> LoadAccessRows(SqliteConnection& conn) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql::kLoadAll));
  AccessRows rows;
  while (true) {
    FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    rows.version = stmt.ColumnInt(0);
    if (stmt.ColumnIsNull(1)) continue;
    auto kind = ParseAccessKind(stmt.ColumnText(2));
    if (!kind) continue;  // written by a newer binary: not ours to interpret
    AccessRecord record;
    record.realm = std::string(stmt.ColumnText(1));
    record.kind = *kind;
    record.scope = std::string(stmt.ColumnText(3));
    record.name = std::string(stmt.ColumnText(4));
    record.body = std::string(stmt.ColumnText(5));
    record.entity_version = stmt.ColumnInt(6);
    record.created_ms = stmt.ColumnInt(7);
    record.updated_ms = stmt.ColumnInt(8);
    rows.records.push_back(std::move(record));
  }
  return rows;
}

Result<std::vector<AuditEntry>> ListAuditRows(SqliteConnection& conn, const AuditFilter& filter) {
  FIRN_RETURN_IF_ERROR(CheckAuditFilter(filter));
  AuditQuery query = BuildAuditQuery(filter, SqlDialect::kSqlite);
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(query.sql));
  for (size_t i = 0; i < query.params.size(); ++i) {
    std::visit([&](const auto& value) { stmt.Bind(static_cast<int>(i + 1), value); },
               query.params[i]);
  }
  std::vector<AuditEntry> entries;
  while (true) {
    FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    entries.push_back(AuditFromRow(stmt));
  }
  return entries;
}

Status UpsertInstanceAck(SqliteConnection& conn, const InstanceAck& ack) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql::kUpsertAck));
  stmt.Bind(1, ack.instance_id)
      .Bind(2, ack.version)
      .Bind(3, ack.heartbeat_ms != 0 ? ack.heartbeat_ms : NowMillis());
  return stmt.Run();
}

Result<std::vector<InstanceAck>> ListLiveInstances(SqliteConnection& conn, int64_t since_ms) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql::kLiveInstances));
  stmt.Bind(1, since_ms);
  std::vector<InstanceAck> acks;
  while (true) {
    FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    acks.push_back({std::string(stmt.ColumnText(0)), stmt.ColumnInt(1), stmt.ColumnInt(2)});
  }
  return acks;
}

}  // namespace firn::store::sqlite
