// Backend-neutral pieces of the AccessStore implementation: the errors of its contract, the
// validation of an AuditFilter and the SQL of ListAudit.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/error.h"
#include "common/result.h"
#include "store/access_store.h"

namespace firn::store {

// "principal alice in realm r" / "catalog_role c/admins in realm r" (never the body).
std::string AccessRecordLabel(const AccessRecord& key);
// kAlreadyExists "Access record already exists: …"
Error AccessRecordExistsError(const AccessRecord& key);
// kNotFound "Access record does not exist: …"
Error AccessRecordMissingError(const AccessRecord& key);
// kCommitFailed "Access record … changed concurrently (expected version 3, found 4)"
Error AccessVersionMismatchError(const AccessRecord& key, int64_t expected, int64_t actual);

// kIllegalArgument unless 1 <= limit <= 1000 and since < until when both are set.
Status CheckAuditFilter(const AuditFilter& filter);

// The audit_log columns in the order every SELECT returns them and every INSERT binds them
// (without id on insert).
inline constexpr std::string_view kAuditColumns =
    "id, at_ms, realm, catalog, principal, client, request_id, operation, object, "
    "old_location, new_location, outcome, detail";

// A ListAudit statement: `sql` uses $1, $2, … (store/sql/sql_session.h); `params` in order.
struct AuditQuery {
  std::string sql;
  std::vector<std::variant<std::string, int64_t>> params;
};
AuditQuery BuildAuditQuery(const AuditFilter& filter);

}  // namespace firn::store
