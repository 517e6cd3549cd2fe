// The table builder and the helpers shared by builder.cc (schemas, specs, orders, properties,
// the commit as a whole), builder_snapshots.cc (snapshots, refs, statistics, encryption keys) and
// builder_validate.cc. Internal to metadata/.
//
// Thread-safety: a Builder is one commit's scratch state, used on one thread. Errors: as
// builder.h describes (kValidation / kIllegalArgument, kCommitFailed with kRetryPrefix).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/result.h"
#include "metadata/table_metadata.h"
#include "metadata/table_update.h"

namespace firn::metadata::builder_internal {

inline constexpr std::string_view kVoidTransform = "void";
inline constexpr int64_t kClockSkewToleranceMs = 60'000;
inline constexpr int kRowLineageFormatVersion = 3;
// A commit built on a stale view of the table: 409, which a client may retry.
inline constexpr std::string_view kRetryPrefix = "Validation failed, please retry: ";

template <typename... Args>
std::unexpected<Error> Invalid(ErrorKind kind, fmt::format_string<Args...> format,
                               Args&&... args) {
  return Fail(kind, fmt::format(format, std::forward<Args>(args)...));
}

// Every field id in the schema's field tree (struct fields, list elements, map keys/values).
std::unordered_set<int> CollectFieldIds(const Schema& schema);

// Source column ids of a partition or sort field (source-ids when set, else source-id).
template <typename Field>
std::vector<int> SourceIds(const Field& field) {
  if (!field.source_ids.empty()) return field.source_ids;
  return {field.source_id};
}

// Applies updates one at a time, tracking what "last added" and "added in this commit" mean.
class Builder {
 public:
  Builder(TableMetadata start, bool creating, int64_t now_ms)
      : m_(std::move(start)), creating_(creating), now_ms_(now_ms) {}

  Status Apply(const TableUpdate& update) {
    return std::visit([this](const auto& u) { return Handle(u); }, update);
  }

  // Completes a create, drops intermediate/dangling snapshot-log entries.
  Status Finish();

  TableMetadata& metadata() { return m_; }
  int64_t MaxAddedSnapshotTimestamp() const {
    int64_t max = 0;
    for (int64_t id : added_snapshot_ids_) {
      // An added snapshot may have been removed again later in the same commit.
      if (const Snapshot* snapshot = m_.FindSnapshot(id)) max = std::max(max, snapshot->timestamp_ms);
    }
    return max;
  }

 private:
  Status Handle(const AssignUuid& u);
  Status Handle(const UpgradeFormatVersion& u);
  Status Handle(const AddSchema& u);
  Status Handle(const SetCurrentSchema& u);
  Status Handle(const AddPartitionSpec& u);
  Status Handle(const SetDefaultSpec& u);
  Status Handle(const AddSortOrder& u);
  Status Handle(const SetDefaultSortOrder& u);
  Status Handle(const AddSnapshot& u);
  Status Handle(const SetSnapshotRef& u);
  Status Handle(const RemoveSnapshots& u);
  Status Handle(const RemoveSnapshotRef& u);
  Status Handle(const SetLocation& u);
  Status Handle(const SetProperties& u);
  Status Handle(const RemoveProperties& u);
  Status Handle(const SetStatistics& u);
  Status Handle(const RemoveStatistics& u);
  Status Handle(const SetPartitionStatistics& u);
  Status Handle(const RemovePartitionStatistics& u);
  Status Handle(const RemovePartitionSpecs& u);
  Status Handle(const RemoveSchemas& u);
  Status Handle(const AddEncryptionKey& u);
  Status Handle(const RemoveEncryptionKey& u);

  // The schema new specs and orders bind to: the current one, or during a create the one added
  // last before set-current-schema arrives.
  const Schema* BindingSchema() const {
    if (const Schema* schema = m_.CurrentSchema()) return schema;
    return last_added_schema_id_ ? m_.FindSchema(*last_added_schema_id_) : nullptr;
  }
  template <typename Field>
  Status CheckSources(const std::vector<Field>& fields, std::string_view what) const;
  Status AssignPartitionFieldIds(PartitionSpec& spec) const;
  void EnsureDefaultSpecAndOrder();

  TableMetadata m_;
  bool creating_;
  int64_t now_ms_;
  std::optional<int> last_added_schema_id_;
  std::optional<int> last_added_spec_id_;
  std::optional<int> last_added_order_id_;
  std::vector<int64_t> added_snapshot_ids_;
  std::vector<int64_t> main_set_to_added_;  // added snapshots that main pointed at, in order
};

}  // namespace firn::metadata::builder_internal
