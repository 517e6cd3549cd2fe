// `firn admin audit`: lists audit rows (store/access_store.h) of a catalog database, newest
// first, or oldest first from --after-id for paging forward. Output: one JSON object per line
// (default) or an aligned text table (--format table). Never prints secrets (audit rows hold
// none) or the database password.
// Thread-safety: run once, from main. Errors go to stderr; the exit code is 0 done, 1 failed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/result.h"

namespace firn::app {

struct AuditArgs {
  std::string db_url;
  std::string password_file;  // PostgreSQL password file (else FIRN_DB_PASSWORD, URL, libpq)
  std::string realm, catalog, principal, operation, outcome, object_prefix;  // "" = any
  std::string since, until;  // epoch milliseconds or ISO-8601; "" = unbounded
  int64_t limit = 100;
  std::optional<int64_t> after_id;
  std::string format = "json";  // json | table
};

// firn admin audit --db URL [filters] [--format json|table]
int RunAdminAudit(const AuditArgs& args);

// "1732966800000" (epoch ms), "2026-11-30", "2026-11-30T12:00:00Z",
// "2026-11-30T12:00:00.250+02:00" (seconds and fraction optional; no zone = UTC).
// kIllegalArgument otherwise.
Result<int64_t> ParseAuditTime(const std::string& text);

}  // namespace firn::app
