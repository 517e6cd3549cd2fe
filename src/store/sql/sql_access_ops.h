// The AccessStore operations (store/access_store.h) as statements on a Session, for the shared
// SQL store. Each function runs inside the Runner call the store chose for it (sql_catalog_store.cc
// says which); none opens or ends a transaction.
//
// Thread-safety: as the Session. Errors: the AccessStore contract.
#pragma once

#include <cstdint>
#include <vector>

#include "store/access_store.h"
#include "store/sql/sql_session.h"

namespace firn::store::sql {

Status InsertAudit(Session& session, const AuditEntry& entry);
// An audit row from columns id, at_ms, realm, catalog, principal, client, request_id,
// operation, object, old_location, new_location, outcome, detail (in that order, from 0).
AuditEntry AuditFromRow(const Row& row);
// Inside one transaction: bumps the version first (the row lock that orders access writers),
// applies every write, appends `audit`.
Result<int64_t> ApplyAccessWrites(Session& session, const std::vector<AccessWrite>& writes,
                                  const AuditEntry* audit, int64_t now_ms);
Result<int64_t> ReadAccessVersion(Session& session);
Result<AccessRows> LoadAccessRows(Session& session);
// The records of one kind in one scope (e.g. a catalog's roles), by name.
Result<std::vector<AccessRecord>> ListScopeRecords(Session& session, const std::string& realm,
                                                   AccessKind kind, const std::string& scope);
Result<std::vector<AuditEntry>> ListAuditRows(Session& session, const AuditFilter& filter);
Status UpsertInstanceAck(Session& session, const InstanceAck& ack);
Result<std::vector<InstanceAck>> ListLiveInstances(Session& session, int64_t since_ms);

}  // namespace firn::store::sql
