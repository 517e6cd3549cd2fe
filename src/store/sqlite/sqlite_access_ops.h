// The AccessStore statements of the SQLite backend, as functions on one connection. The store
// decides the transaction: writes run inside the group writer's transaction (so an audit row
// joins the change it describes), reads on a pooled reader.
//
// Thread-safety: none beyond the connection's (one thread at a time).
// Errors: the AccessStore contract (store/access_store.h); SQLite failures as SqliteError maps
// them. On error the caller's transaction (savepoint) must be rolled back.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "store/access_store.h"
#include "store/sqlite/sqlite_connection.h"

namespace firn::store::sqlite {

// Appends one audit row; at_ms = 0 is stored as now.
Status InsertAudit(SqliteConnection& conn, const AuditEntry& entry);
// Applies `writes`, bumps the access version, appends `audit`; returns the new version.
Result<int64_t> ApplyAccessWrites(SqliteConnection& conn, const std::vector<AccessWrite>& writes,
                                  const AuditEntry* audit, int64_t now_ms);
Result<int64_t> ReadAccessVersion(SqliteConnection& conn);
// One statement, hence one snapshot: the version and every record.
Result<AccessRows> LoadAccessRows(SqliteConnection& conn);
Result<std::vector<AuditEntry>> ListAuditRows(SqliteConnection& conn, const AuditFilter& filter);
Status UpsertInstanceAck(SqliteConnection& conn, const InstanceAck& ack);
Result<std::vector<InstanceAck>> ListLiveInstances(SqliteConnection& conn, int64_t since_ms);

}  // namespace firn::store::sqlite
