// The builder's snapshot side: snapshots, branch and tag refs, statistics files and encryption
// keys (Java's TableMetadata.Builder semantics; see builder.h).
#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "common/macros.h"
#include "metadata/builder.h"
#include "metadata/builder_internal.h"
#include "metadata/table_update_json.h"

namespace firn::metadata::builder_internal {
namespace {

// Statistics files are kept one per snapshot: `file` replaces the one for its snapshot, if any.
// The snapshot must exist; `what` ("partition statistics") names the files in the error.
template <typename File>
Status PutForSnapshot(const TableMetadata& m, std::vector<File>& files, const File& file,
                      std::string_view what) {
  if (m.FindSnapshot(file.snapshot_id) == nullptr) {
    return Invalid(ErrorKind::kValidation, "Cannot set {} for unknown snapshot: {}", what,
                   file.snapshot_id);
  }
  auto it = std::ranges::find(files, file.snapshot_id, &File::snapshot_id);
  if (it != files.end()) {
    *it = file;
  } else {
    files.push_back(file);
  }
  return Ok();
}

template <typename File>
Status EraseForSnapshot(std::vector<File>& files, int64_t snapshot_id) {
  std::erase_if(files, [&](const File& f) { return f.snapshot_id == snapshot_id; });
  return Ok();
}

}  // namespace

Status Builder::Handle(const AddSnapshot& u) {
  // A create that sends no spec/order before its first snapshot gets the defaults now.
  if (creating_) EnsureDefaultSpecAndOrder();
  if (m_.schemas.empty()) {
    return Fail(ErrorKind::kValidation, "Attempting to add a snapshot before a schema is added");
  }
  if (m_.partition_specs.empty()) {
    return Fail(ErrorKind::kValidation,
                "Attempting to add a snapshot before a partition spec is added");
  }
  if (m_.sort_orders.empty()) {
    return Fail(ErrorKind::kValidation,
                "Attempting to add a snapshot before a sort order is added");
  }
  Snapshot snapshot = u.snapshot;
  if (m_.FindSnapshot(snapshot.snapshot_id) != nullptr) {
    return Invalid(ErrorKind::kValidation, "Snapshot already exists for id: {}",
                   snapshot.snapshot_id);
  }
  if (m_.format_version == 1) {
    snapshot.sequence_number.reset();  // v1 has no sequence numbers
  } else {
    int64_t sequence_number = snapshot.sequence_number.value_or(0);
    if (sequence_number <= m_.last_sequence_number && snapshot.parent_snapshot_id) {
      return Invalid(ErrorKind::kCommitFailed,
                     "{}Cannot add snapshot with sequence number {} older than last sequence "
                     "number {}",
                     kRetryPrefix, sequence_number, m_.last_sequence_number);
    }
    // A parentless snapshot may carry a lower number; never move last-sequence-number back.
    m_.last_sequence_number = std::max(m_.last_sequence_number, sequence_number);
  }
  if (m_.format_version >= kRowLineageFormatVersion) {
    if (!snapshot.first_row_id) {
      return Fail(ErrorKind::kValidation, "Cannot add a snapshot: first-row-id is null");
    }
    if (!snapshot.added_rows || *snapshot.added_rows < 0) {
      return Fail(ErrorKind::kValidation,
                  "Cannot add a snapshot: added-rows must be set and not negative");
    }
    int64_t next_row_id = m_.next_row_id.value_or(0);
    if (*snapshot.first_row_id < next_row_id) {
      return Invalid(ErrorKind::kCommitFailed,
                     "{}Cannot add a snapshot, first-row-id is behind table next-row-id: {} < {}",
                     kRetryPrefix, *snapshot.first_row_id, next_row_id);
    }
    m_.next_row_id = next_row_id + *snapshot.added_rows;
  }
  added_snapshot_ids_.push_back(snapshot.snapshot_id);
  m_.snapshots.push_back(std::move(snapshot));
  return Ok();
}

Status Builder::Handle(const SetSnapshotRef& u) {
  const SnapshotRef& ref = u.ref;
  if (ref.type != kBranch && ref.type != kTag) {
    return Fail(ErrorKind::kIllegalArgument, "Invalid ref type: must be 'branch' or 'tag'");
  }
  if (u.ref_name.empty()) return Fail(ErrorKind::kIllegalArgument, "Ref name must not be empty");
  if (u.ref_name == kMainBranch && ref.type != kBranch) {
    return Fail(ErrorKind::kValidation, "Cannot set main to a tag: main must be a branch");
  }
  if (ref.type == kTag && ref.min_snapshots_to_keep) {
    return Fail(ErrorKind::kIllegalArgument, "Tags do not support setting minSnapshotsToKeep");
  }
  if (ref.type == kTag && ref.max_snapshot_age_ms) {
    return Fail(ErrorKind::kIllegalArgument, "Tags do not support setting maxSnapshotAgeMs");
  }
  if (ref.min_snapshots_to_keep && *ref.min_snapshots_to_keep <= 0) {
    return Fail(ErrorKind::kIllegalArgument, "Min snapshots to keep must be greater than 0");
  }
  if (ref.max_snapshot_age_ms && *ref.max_snapshot_age_ms <= 0) {
    return Fail(ErrorKind::kIllegalArgument, "Max snapshot age must be greater than 0 ms");
  }
  if (ref.max_ref_age_ms && *ref.max_ref_age_ms <= 0) {
    return Fail(ErrorKind::kIllegalArgument, "Max reference age must be greater than 0");
  }
  auto existing = m_.refs.find(u.ref_name);
  if (existing != m_.refs.end() && existing->second == ref) return Ok();
  const Snapshot* snapshot = m_.FindSnapshot(ref.snapshot_id);
  if (snapshot == nullptr) {
    return Invalid(ErrorKind::kValidation, "Cannot set {} to unknown snapshot: {}",
                   json_read::Truncate(u.ref_name), ref.snapshot_id);
  }
  if (u.ref_name == kMainBranch) {
    bool added_here = std::ranges::find(added_snapshot_ids_, ref.snapshot_id) !=
                      added_snapshot_ids_.end();
    // A snapshot added in this commit became current when it was made; a rollback is now.
    m_.snapshot_log.push_back({added_here ? snapshot->timestamp_ms : now_ms_, ref.snapshot_id});
    if (added_here) main_set_to_added_.push_back(ref.snapshot_id);
    m_.current_snapshot_id = ref.snapshot_id;
  }
  m_.refs[u.ref_name] = ref;
  return Ok();
}

Status Builder::Handle(const RemoveSnapshots& u) {
  std::unordered_set<int64_t> ids(u.snapshot_ids.begin(), u.snapshot_ids.end());
  size_t removed = std::erase_if(
      m_.snapshots, [&](const Snapshot& s) { return ids.contains(s.snapshot_id); });
  if (removed == 0) return Ok();
  // Refs left dangling go too; losing main clears the current snapshot.
  std::erase_if(m_.refs, [&](const auto& entry) { return ids.contains(entry.second.snapshot_id); });
  if (!m_.refs.contains(std::string(kMainBranch))) m_.current_snapshot_id.reset();
  std::erase_if(m_.statistics,
                [&](const StatisticsFile& f) { return ids.contains(f.snapshot_id); });
  std::erase_if(m_.partition_statistics,
                [&](const PartitionStatisticsFile& f) { return ids.contains(f.snapshot_id); });
  return Ok();  // snapshot-log is pruned in Finish
}

Status Builder::Handle(const RemoveSnapshotRef& u) {
  if (u.ref_name == kMainBranch) m_.current_snapshot_id.reset();
  m_.refs.erase(u.ref_name);
  return Ok();
}

Status Builder::Handle(const SetStatistics& u) {
  int64_t id = u.statistics.snapshot_id;
  if (u.snapshot_id && *u.snapshot_id != id) {
    return Invalid(ErrorKind::kIllegalArgument,
                   "Cannot set statistics: snapshot-id {} does not match the statistics file's "
                   "snapshot-id {}",
                   *u.snapshot_id, id);
  }
  return PutForSnapshot(m_, m_.statistics, u.statistics, "statistics");
}

Status Builder::Handle(const RemoveStatistics& u) {
  return EraseForSnapshot(m_.statistics, u.snapshot_id);
}

Status Builder::Handle(const SetPartitionStatistics& u) {
  return PutForSnapshot(m_, m_.partition_statistics, u.partition_statistics,
                        "partition statistics");
}

Status Builder::Handle(const RemovePartitionStatistics& u) {
  return EraseForSnapshot(m_.partition_statistics, u.snapshot_id);
}

Status Builder::Handle(const AddEncryptionKey& u) {
  if (m_.format_version < kRowLineageFormatVersion) {
    return Invalid(ErrorKind::kValidation,
                   "Cannot add encryption key: encryption keys need format v3, table is v{}",
                   m_.format_version);
  }
  if (u.encryption_key.key_id.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "Cannot add encryption key: key-id is empty");
  }
  // Idempotent per key-id.
  if (std::ranges::find(m_.encryption_keys, u.encryption_key.key_id, &EncryptionKey::key_id) ==
      m_.encryption_keys.end()) {
    m_.encryption_keys.push_back(u.encryption_key);
  }
  return Ok();
}

Status Builder::Handle(const RemoveEncryptionKey& u) {
  for (const Snapshot& snapshot : m_.snapshots) {
    if (snapshot.key_id == u.key_id) {
      return Invalid(ErrorKind::kValidation,
                     "Cannot remove encryption key: snapshot {} still uses it",
                     snapshot.snapshot_id);
    }
  }
  std::erase_if(m_.encryption_keys,
                [&](const EncryptionKey& key) { return key.key_id == u.key_id; });
  return Ok();
}

}  // namespace firn::metadata::builder_internal
