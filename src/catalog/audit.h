// Audit entries for catalog writes (store::AuditEntry): who, from which client, which
// operation on which object, the metadata pointer before and after, and the outcome.
//
// Contract: entries for successful writes are handed to the store write itself, so the row and
// the change share one database transaction. Refusals (a commit that lost or failed its
// requirements) are appended on their own with RecordRefusal; an audit write failure there is
// logged, never returned (the client's answer is the refusal itself).
// Thread-safety: pure functions, except RecordRefusal which writes through the store.
#pragma once

#include <string>
#include <string_view>

#include "auth/operations.h"
#include "catalog/request_context.h"
#include "common/error.h"
#include "store/store.h"

namespace firn::catalog {

std::string AuditObject(const store::Namespace& ns);  // "namespace db.sales"
std::string AuditObject(const store::Identifier& id, store::ObjectKind kind);  // "table db.t"

// operation = auth::AuditName(op); outcome "success"; at_ms 0 (the store stamps it).
store::AuditEntry MakeAudit(const RequestContext& ctx, auth::Operation op,
                            std::string object, std::string old_location = {},
                            std::string new_location = {});

// Appends `entry` with outcome = the error kind's name and detail = its client message.
void RecordRefusal(store::CatalogStore& store, store::AuditEntry entry, const Error& error);

}  // namespace firn::catalog
