// The commit engine's pure core: applies TableUpdates to table metadata with the semantics of
// Java's TableMetadata.Builder (REST checklist §2.2, §5.3, §7), then validates the result.
//
// Thread-safety: pure functions over caller-owned values. Errors: a semantic violation is
// kValidation or kIllegalArgument (400) with a message saying what is wrong; a stale snapshot
// (sequence number or v3 first-row-id behind the table) is kCommitFailed (409) "Validation
// failed, please retry: ...", which a client may retry. Ownership: results are returned by value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "metadata/table_metadata.h"
#include "metadata/table_update.h"

namespace firn::metadata {

inline constexpr std::string_view kPreviousVersionsMaxProperty =
    "write.metadata.previous-versions-max";
inline constexpr int kPreviousVersionsMaxDefault = 100;
inline constexpr std::string_view kDeleteAfterCommitProperty =
    "write.metadata.delete-after-commit.enabled";

struct CommitContext {
  int64_t now_ms = 0;
  // Location of the base metadata file; appended to metadata-log when the commit changes the
  // table. Unset for a create.
  std::optional<std::string> base_location;
};

struct ApplyResult {
  TableMetadata metadata;
  bool changed = false;  // false: metadata == *base and no new file may be written
  // Metadata files that fell out of metadata-log, listed only when the table has
  // write.metadata.delete-after-commit.enabled=true. Delete them only after the commit succeeds.
  std::vector<std::string> dropped_metadata_files;
};

// Applies `updates` in order to `base`. `base == nullptr` is a create transaction: start from
// empty metadata at the format version of the first upgrade-format-version (default 2); the
// result gets the unpartitioned spec 0 / unsorted order 0 when none was added, and a new UUID
// unless assign-uuid gave one. On a change, last-updated-ms becomes
// max(now, base's last-updated-ms, the timestamps of snapshots added here) so the logs stay
// ordered, and metadata-log gains the base file (trimmed to previous-versions-max).
Result<ApplyResult> ApplyUpdates(const TableMetadata* base, const std::vector<TableUpdate>& updates,
                                 const CommitContext& ctx);

// Checks the invariants every metadata file must satisfy (checklist §5.1 "Invariants"):
// kValidation naming the first violation.
Status ValidateTableMetadata(const TableMetadata& metadata);

}  // namespace firn::metadata
