// The AccessStore statements of the PostgreSQL backend, as functions on one connection. The
// store decides the transaction (and reruns it on a retryable race); these only issue SQL.
//
// Thread-safety: none beyond the connection's (one thread at a time).
// Errors: the AccessStore contract (store/access_store.h); database failures as
// pg_connection.h maps them.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "store/access_store.h"
#include "store/postgres/pg_connection.h"

namespace firn::store::postgres {

// Appends one audit row; at_ms = 0 is stored as now. `on_loss`: kOutcomeUnknown in autocommit.
Status InsertAudit(PgConnection& conn, const AuditEntry& entry,
                   OnLoss on_loss = OnLoss::kNothingCommitted);
// Inside a transaction: locks the version row first (serialising access writers), applies
// `writes`, appends `audit`; returns the new version.
Result<int64_t> ApplyAccessWrites(PgConnection& conn, const std::vector<AccessWrite>& writes,
                                  const AuditEntry* audit, int64_t now_ms);
Result<int64_t> ReadAccessVersion(PgConnection& conn);
// One statement, hence one snapshot: the version and every record.
Result<AccessRows> LoadAccessRows(PgConnection& conn);
Result<std::vector<AuditEntry>> ListAuditRows(PgConnection& conn, const AuditFilter& filter);
Status UpsertInstanceAck(PgConnection& conn, const InstanceAck& ack);
Result<std::vector<InstanceAck>> ListLiveInstances(PgConnection& conn, int64_t since_ms);

}  // namespace firn::store::postgres
