// BackupSqliteDatabase: an online, consistent copy of a SQLite catalog database.
//
// Uses the SQLite online backup API (sqlite3_backup_*). The copy is always one committed state
// of the source, never a torn mix: by default all pages are copied in one step inside one read
// transaction, which in WAL mode does not block the source's writers (a running `firn serve`
// keeps committing). The copy is written to `<to>.tmp-<pid>` with synchronous=FULL, checked
// (PRAGMA integrity_check), renamed to `to` and the directory fsynced, so `to` is either absent
// or complete. `to` must not exist (a stale -wal beside it could corrupt the copy). The copy
// is owner-only (0600) from its first byte, like the database itself.
// Thread-safety: a free function; opens its own connections.
// Errors: kNotFound when `from` is missing; kAlreadyExists when `to` (or its -wal) exists;
// kIllegalArgument when `from` is not a firn catalog database; kServiceUnavailable when a file
// cannot be opened/written or the source stays busy past the deadline; kInternal for a failed
// integrity check.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "common/result.h"

namespace firn::store::sqlite {

struct BackupOptions {
  // -1 = all pages in one step: in WAL mode that reads one snapshot and never blocks the
  // source's writers (WAL readers do not block writers). A positive count copies in steps,
  // and a write by another connection between steps restarts the copy: under a steady
  // writer it may never finish and gives up at `deadline` (kServiceUnavailable).
  int pages_per_step = -1;
  std::chrono::milliseconds pause_between_steps{1};
  std::chrono::seconds deadline{600};  // give up if writes keep restarting the copy
};

struct BackupStats {
  int64_t pages = 0;
  int restarts = 0;  // times a concurrent write restarted a stepped copy (best effort)
  int64_t bytes = 0;  // size of the finished copy
};

Result<BackupStats> BackupSqliteDatabase(const std::string& from, const std::string& to,
                                         const BackupOptions& options = {});

}  // namespace firn::store::sqlite
