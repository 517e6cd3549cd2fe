#include "store/sql/sql_access_ops.h"

#include <optional>
#include <string>

#include "common/clock.h"
#include "common/macros.h"
#include "store/access_store_support.h"
#include "store/sql/sql_location_ops.h"
#include "store/sql/sql_statements.h"

namespace firn::store::sql {
namespace {

Result<std::optional<int64_t>> FindVersion(Session& session, const AccessRecord& key) {
  std::optional<int64_t> version;
  FIRN_RETURN_IF_ERROR(session.Query(
      kFindRecord, {key.realm, AccessKindName(key.kind), key.scope, key.name},
      [&](const Row& row) -> Status {
        version = row.Int(0);
        return Ok();
      }));
  return version;
}

// kNotFound / kCommitFailed for an update or delete whose precondition does not hold.
Status CheckExisting(Session& session, const AccessWrite& write) {
  FIRN_ASSIGN_OR_RETURN(auto version, FindVersion(session, write.record));
  if (!version) return Fail(AccessRecordMissingError(write.record));
  if (write.expected_version && *write.expected_version != *version) {
    return Fail(AccessVersionMismatchError(write.record, *write.expected_version, *version));
  }
  return Ok();
}

Status ApplyRecord(Session& session, const AccessWrite& write, int64_t now_ms);

// A catalog's base and allowed locations move with its record.
Status ApplyOne(Session& session, const AccessWrite& write, int64_t now_ms) {
  FIRN_RETURN_IF_ERROR(ApplyRecord(session, write, now_ms));
  const AccessRecord& r = write.record;
  if (r.kind != AccessKind::kCatalog) return Ok();
  const LocationOwner owner{r.realm, r.name, LocationOwnerKind::kCatalog, {}, ""};
  if (write.op == AccessWrite::Op::kDelete) {
    // A table or view moved to another catalog keeps its files in this one's locations.
    FIRN_ASSIGN_OR_RETURN(auto hosted, HostedBy(session, r.realm, r.name));
    if (hosted) {
      return Fail(ErrorKind::kLocationConflict,
                  "Catalog " + r.name + " cannot be deleted: it holds the files of " +
                      LocationOwnerLabel(hosted->owner) + " (moved there) at " +
                      hosted->location + "; move it back or drop it first");
    }
    return ReleaseLocations(session, owner);
  }
  if (write.claim) return ClaimLocations(session, owner, *write.claim);
  return Ok();
}

Status ApplyRecord(Session& session, const AccessWrite& write, int64_t now_ms) {
  const AccessRecord& r = write.record;
  const std::string_view kind = AccessKindName(r.kind);
  switch (write.op) {
    case AccessWrite::Op::kCreate: {
      FIRN_ASSIGN_OR_RETURN(auto version, FindVersion(session, r));
      if (version) return Fail(AccessRecordExistsError(r));
      return session.Run(kInsertRecord, {r.realm, kind, r.scope, r.name, r.body, now_ms});
    }
    case AccessWrite::Op::kUpdate:
      FIRN_RETURN_IF_ERROR(CheckExisting(session, write));
      return session.Run(kUpdateRecord, {r.realm, kind, r.scope, r.name, r.body, now_ms});
    case AccessWrite::Op::kDelete:
      FIRN_RETURN_IF_ERROR(CheckExisting(session, write));
      return session.Run(kDeleteRecord, {r.realm, kind, r.scope, r.name});
    case AccessWrite::Op::kUpsert:
      return session.Run(kUpsertRecord, {r.realm, kind, r.scope, r.name, r.body, now_ms});
  }
  return Fail(ErrorKind::kInternal, "Unknown access write operation");
}

// The record whose realm, kind, scope, name, body, entity_version, created_ms and updated_ms
// are the row's columns from `first` on; nullopt for a kind this binary does not know.
std::optional<AccessRecord> RecordFromRow(const Row& row, int first) {
  auto kind = ParseAccessKind(row.Text(first + 1));
  if (!kind) return std::nullopt;  // written by a newer binary: not ours to interpret
  AccessRecord record;
  record.realm = std::string(row.Text(first));
  record.kind = *kind;
  record.scope = std::string(row.Text(first + 2));
  record.name = std::string(row.Text(first + 3));
  record.body = std::string(row.Text(first + 4));
  record.entity_version = row.Int(first + 5);
  record.created_ms = row.Int(first + 6);
  record.updated_ms = row.Int(first + 7);
  return record;
}

Error NoVersionRow() {
  return Error(ErrorKind::kInternal, "Catalog database error", "no access_version row");
}

}  // namespace

AuditEntry AuditFromRow(const Row& row) {
  AuditEntry entry;
  entry.id = row.Int(0);
  entry.at_ms = row.Int(1);
  std::string* text[] = {&entry.realm,  &entry.catalog,    &entry.principal,
                         &entry.client, &entry.request_id, &entry.operation,
                         &entry.object, &entry.old_location, &entry.new_location,
                         &entry.outcome, &entry.detail};
  for (int i = 0; i < 11; ++i) *text[i] = std::string(row.Text(i + 2));
  return entry;
}

Status InsertAudit(Session& session, const AuditEntry& e) {
  return session.Run(kInsertAudit,
                      {e.at_ms != 0 ? e.at_ms : NowMillis(), e.realm, e.catalog, e.principal,
                       e.client, e.request_id, e.operation, e.object, e.old_location,
                       e.new_location, e.outcome, e.detail});
}

Result<int64_t> ApplyAccessWrites(Session& session, const std::vector<AccessWrite>& writes,
                                  const AuditEntry* audit, int64_t now_ms) {
  std::optional<int64_t> version;
  FIRN_RETURN_IF_ERROR(session.Exec(kBumpAccessVersion, {}, [&](const Row& row) -> Status {
    version = row.Int(0);
    return Ok();
  }));
  if (!version) return Fail(NoVersionRow());
  for (const auto& write : writes) FIRN_RETURN_IF_ERROR(ApplyOne(session, write, now_ms));
  if (audit) {
    AuditEntry entry = *audit;
    if (entry.at_ms == 0) entry.at_ms = now_ms;
    FIRN_RETURN_IF_ERROR(InsertAudit(session, entry));
  }
  return *version;
}

Result<int64_t> ReadAccessVersion(Session& session) {
  std::optional<int64_t> version;
  FIRN_RETURN_IF_ERROR(session.Query(kReadAccessVersion, {}, [&](const Row& row) -> Status {
    version = row.Int(0);
    return Ok();
  }));
  if (!version) return Fail(NoVersionRow());
  return *version;
}

Result<AccessRows> LoadAccessRows(Session& session) {
  AccessRows rows;
  FIRN_RETURN_IF_ERROR(session.Query(kLoadAccess, {}, [&](const Row& row) -> Status {
    rows.version = row.Int(0);
    if (row.IsNull(1)) return Ok();
    if (auto record = RecordFromRow(row, 1)) rows.records.push_back(std::move(*record));
    return Ok();
  }));
  return rows;
}

Result<std::vector<AccessRecord>> ListScopeRecords(Session& session, const std::string& realm,
                                                   AccessKind kind, const std::string& scope) {
  std::vector<AccessRecord> out;
  FIRN_RETURN_IF_ERROR(session.Query(kListScopeRecords, {realm, AccessKindName(kind), scope},
                                     [&](const Row& row) -> Status {
                                       if (auto record = RecordFromRow(row, 0)) {
                                         out.push_back(std::move(*record));
                                       }
                                       return Ok();
                                     }));
  return out;
}

Result<std::vector<AuditEntry>> ListAuditRows(Session& session, const AuditFilter& filter) {
  FIRN_RETURN_IF_ERROR(CheckAuditFilter(filter));
  const AuditQuery query = BuildAuditQuery(filter);
  std::vector<Value> params;
  params.reserve(query.params.size());
  for (const auto& value : query.params) {
    std::visit([&](const auto& v) { params.emplace_back(v); }, value);
  }
  std::vector<AuditEntry> entries;
  FIRN_RETURN_IF_ERROR(session.Query(query.sql, params, [&](const Row& row) -> Status {
    entries.push_back(AuditFromRow(row));
    return Ok();
  }));
  return entries;
}

Status UpsertInstanceAck(Session& session, const InstanceAck& ack) {
  return session.Run(kUpsertAck, {ack.instance_id, ack.version,
                                   ack.heartbeat_ms != 0 ? ack.heartbeat_ms : NowMillis()});
}

Result<std::vector<InstanceAck>> ListLiveInstances(Session& session, int64_t since_ms) {
  std::vector<InstanceAck> acks;
  FIRN_RETURN_IF_ERROR(session.Query(kLiveInstances, {since_ms}, [&](const Row& row) -> Status {
    acks.push_back({std::string(row.Text(0)), row.Int(1), row.Int(2)});
    return Ok();
  }));
  return acks;
}

}  // namespace firn::store::sql
