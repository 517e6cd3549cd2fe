#include "store/postgres/pg_access_ops.h"

#include <string>

#include "common/clock.h"
#include "common/macros.h"
#include "store/access_store_support.h"

namespace firn::store::postgres {
namespace {

namespace sql {

constexpr std::string_view kInsertAudit =
    "INSERT INTO audit_log (at_ms, realm, catalog, principal, client, request_id, operation, "
    "object, old_location, new_location, outcome, detail) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
// Writers take this row lock first, so their checks below run one at a time (READ COMMITTED:
// each later statement sees what the previous holder committed).
constexpr std::string_view kBumpVersion =
    "UPDATE access_version SET version = version + 1 WHERE id = 1 RETURNING version";
constexpr std::string_view kReadVersion = "SELECT version FROM access_version WHERE id = 1";
constexpr std::string_view kFindRecord =
    "SELECT entity_version FROM access_records "
    "WHERE realm = $1 AND kind = $2 AND scope = $3 AND name = $4";
constexpr std::string_view kInsertRecord =
    "INSERT INTO access_records (realm, kind, scope, name, body, entity_version, created_ms, "
    "updated_ms) VALUES ($1, $2, $3, $4, $5, 1, $6, $6)";
constexpr std::string_view kUpdateRecord =
    "UPDATE access_records SET body = $5, entity_version = entity_version + 1, updated_ms = $6 "
    "WHERE realm = $1 AND kind = $2 AND scope = $3 AND name = $4";
constexpr std::string_view kDeleteRecord =
    "DELETE FROM access_records WHERE realm = $1 AND kind = $2 AND scope = $3 AND name = $4";
constexpr std::string_view kUpsertRecord =
    "INSERT INTO access_records (realm, kind, scope, name, body, entity_version, created_ms, "
    "updated_ms) VALUES ($1, $2, $3, $4, $5, 1, $6, $6) "
    "ON CONFLICT (realm, kind, scope, name) DO UPDATE SET body = excluded.body, "
    "entity_version = access_records.entity_version + 1, updated_ms = excluded.updated_ms";
// The LEFT JOIN returns the version even when there are no records (then one NULL row).
constexpr std::string_view kLoadAll =
    "SELECT v.version, r.realm, r.kind, r.scope, r.name, r.body, r.entity_version, "
    "r.created_ms, r.updated_ms FROM access_version v LEFT JOIN access_records r ON true "
    "WHERE v.id = 1 ORDER BY r.realm, r.kind, r.scope, r.name";
constexpr std::string_view kUpsertAck =
    "INSERT INTO instance_acks (instance_id, version, heartbeat_ms) VALUES ($1, $2, $3) "
    "ON CONFLICT (instance_id) DO UPDATE SET version = excluded.version, "
    "heartbeat_ms = excluded.heartbeat_ms";
constexpr std::string_view kLiveInstances =
    "SELECT instance_id, version, heartbeat_ms FROM instance_acks WHERE heartbeat_ms >= $1 "
    "ORDER BY instance_id";

}  // namespace sql

std::vector<Param> Keyed(const AccessRecord& key, std::initializer_list<Param> rest) {
  std::vector<Param> params{Param(key.realm), Param(AccessKindName(key.kind)), Param(key.scope),
                            Param(key.name)};
  params.insert(params.end(), rest.begin(), rest.end());
  return params;
}

Result<std::optional<int64_t>> FindVersion(PgConnection& conn, const AccessRecord& key) {
  FIRN_ASSIGN_OR_RETURN(PgResult res, conn.Execute(sql::kFindRecord, Keyed(key, {})));
  if (res.Rows() == 0) return std::optional<int64_t>();
  return std::optional<int64_t>(res.Int(0, 0));
}

Status CheckExisting(PgConnection& conn, const AccessWrite& write) {
  FIRN_ASSIGN_OR_RETURN(auto version, FindVersion(conn, write.record));
  if (!version) return Fail(AccessRecordMissingError(write.record));
  if (write.expected_version && *write.expected_version != *version) {
    return Fail(AccessVersionMismatchError(write.record, *write.expected_version, *version));
  }
  return Ok();
}

Status ApplyOne(PgConnection& conn, const AccessWrite& write, int64_t now_ms) {
  const AccessRecord& record = write.record;
  switch (write.op) {
    case AccessWrite::Op::kCreate: {
      FIRN_ASSIGN_OR_RETURN(auto version, FindVersion(conn, record));
      if (version) return Fail(AccessRecordExistsError(record));
      FIRN_RETURN_IF_ERROR(conn.Execute(sql::kInsertRecord, Keyed(record, {record.body, now_ms})));
      return Ok();
    }
    case AccessWrite::Op::kUpdate:
      FIRN_RETURN_IF_ERROR(CheckExisting(conn, write));
      FIRN_RETURN_IF_ERROR(conn.Execute(sql::kUpdateRecord, Keyed(record, {record.body, now_ms})));
      return Ok();
    case AccessWrite::Op::kDelete:
      FIRN_RETURN_IF_ERROR(CheckExisting(conn, write));
      FIRN_RETURN_IF_ERROR(conn.Execute(sql::kDeleteRecord, Keyed(record, {})));
      return Ok();
    case AccessWrite::Op::kUpsert:
      FIRN_RETURN_IF_ERROR(conn.Execute(sql::kUpsertRecord, Keyed(record, {record.body, now_ms})));
      return Ok();
  }
  return Fail(ErrorKind::kInternal, "Unknown access write operation");
}

}  // namespace

Status InsertAudit(PgConnection& conn, const AuditEntry& entry, OnLoss on_loss) {
  FIRN_RETURN_IF_ERROR(conn.Execute(
      sql::kInsertAudit,
      {entry.at_ms != 0 ? entry.at_ms : NowMillis(), entry.realm, entry.catalog, entry.principal,
       entry.client, entry.request_id, entry.operation, entry.object, entry.old_location,
       entry.new_location, entry.outcome, entry.detail},
      on_loss));
  return Ok();
}

Result<int64_t> ApplyAccessWrites(PgConnection& conn, const std::vector<AccessWrite>& writes,
                                  const AuditEntry* audit, int64_t now_ms) {
  FIRN_ASSIGN_OR_RETURN(PgResult bumped, conn.Execute(sql::kBumpVersion, {}));
  if (bumped.Rows() != 1) {
    return Fail(ErrorKind::kInternal, "Catalog database error", "no access_version row");
  }
  const int64_t version = bumped.Int(0, 0);
  for (const auto& write : writes) FIRN_RETURN_IF_ERROR(ApplyOne(conn, write, now_ms));
  if (audit) {
    AuditEntry entry = *audit;
    if (entry.at_ms == 0) entry.at_ms = now_ms;
    FIRN_RETURN_IF_ERROR(InsertAudit(conn, entry));
  }
  return version;
}

Result<int64_t> ReadAccessVersion(PgConnection& conn) {
  FIRN_ASSIGN_OR_RETURN(PgResult res, conn.Execute(sql::kReadVersion, {}));
  if (res.Rows() != 1) {
    return Fail(ErrorKind::kInternal, "Catalog database error", "no access_version row");
  }
  return res.Int(0, 0);
}

Result<AccessRows> LoadAccessRows(PgConnection& conn) {
  FIRN_ASSIGN_OR_RETURN(PgResult res, conn.Execute(sql::kLoadAll, {}));
  AccessRows rows;
  for (int row = 0; row < res.Rows(); ++row) {
    rows.version = res.Int(row, 0);
    if (res.IsNull(row, 1)) continue;
    auto kind = ParseAccessKind(res.Text(row, 2));
    if (!kind) continue;  // written by a newer binary: not ours to interpret
    AccessRecord record;
    record.realm = std::string(res.Text(row, 1));
    record.kind = *kind;
    record.scope = std::string(res.Text(row, 3));
    record.name = std::string(res.Text(row, 4));
    record.body = std::string(res.Text(row, 5));
    record.entity_version = res.Int(row, 6);
    record.created_ms = res.Int(row, 7);
    record.updated_ms = res.Int(row, 8);
    rows.records.push_back(std::move(record));
  }
  return rows;
}

Result<std::vector<AuditEntry>> ListAuditRows(PgConnection& conn, const AuditFilter& filter) {
  FIRN_RETURN_IF_ERROR(CheckAuditFilter(filter));
  AuditQuery query = BuildAuditQuery(filter, SqlDialect::kPostgres);
  std::vector<Param> params;
  for (const auto& value : query.params) {
    std::visit([&](const auto& v) { params.emplace_back(v); }, value);
  }
  FIRN_ASSIGN_OR_RETURN(PgResult res, conn.Execute(query.sql, params));
  std::vector<AuditEntry> entries;
  for (int row = 0; row < res.Rows(); ++row) {
    AuditEntry entry;
    entry.id = res.Int(row, 0);
    entry.at_ms = res.Int(row, 1);
    std::string* text[] = {&entry.realm,     &entry.catalog,      &entry.principal,
                           &entry.client,    &entry.request_id,   &entry.operation,
                           &entry.object,    &entry.old_location, &entry.new_location,
                           &entry.outcome,   &entry.detail};
    for (int i = 0; i < 11; ++i) *text[i] = std::string(res.Text(row, i + 2));
    entries.push_back(std::move(entry));
  }
  return entries;
}

Status UpsertInstanceAck(PgConnection& conn, const InstanceAck& ack) {
  FIRN_RETURN_IF_ERROR(conn.Execute(
      sql::kUpsertAck,
      {ack.instance_id, ack.version, ack.heartbeat_ms != 0 ? ack.heartbeat_ms : NowMillis()}));
  return Ok();
}

Result<std::vector<InstanceAck>> ListLiveInstances(PgConnection& conn, int64_t since_ms) {
  FIRN_ASSIGN_OR_RETURN(PgResult res, conn.Execute(sql::kLiveInstances, {since_ms}));
  std::vector<InstanceAck> acks;
  for (int row = 0; row < res.Rows(); ++row) {
    acks.push_back({std::string(res.Text(row, 0)), res.Int(row, 1), res.Int(row, 2)});
  }
  return acks;
}

}  // namespace firn::store::postgres
