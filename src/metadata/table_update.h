// Table updates: the changes a commit applies, in order (REST spec `TableUpdate`, discriminated
// by `action`). builder.h gives them their meaning.
//
// Pure values and functions; thread-safe. Parsing fails with kBadRequest naming the field; an
// unknown action is kBadRequest "Cannot parse update: unknown action '<action>'" (at most 64
// characters of it). Nested metadata objects (schema, spec, snapshot, ...) are parsed by serde.h.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/result.h"
#include "metadata/table_metadata.h"

namespace firn::metadata {

// `-1` in set-current-schema / set-default-spec / set-default-sort-order: the one added last in
// this commit.
inline constexpr int kLastAdded = -1;

// `id`, or for kLastAdded `last_added` (the id added last in this commit, which both builders
// track); kValidation `none_added` when nothing has been added.
Result<int> ResolveLastAdded(int id, std::optional<int> last_added, std::string_view none_added);

struct AssignUuid {
  static constexpr std::string_view kAction = "assign-uuid";
  std::string uuid;
  friend bool operator==(const AssignUuid&, const AssignUuid&) = default;
};

struct UpgradeFormatVersion {
  static constexpr std::string_view kAction = "upgrade-format-version";
  int format_version = 0;
  friend bool operator==(const UpgradeFormatVersion&, const UpgradeFormatVersion&) = default;
};

struct AddSchema {
  static constexpr std::string_view kAction = "add-schema";
  Schema schema;                      // its schema-id is ignored on apply
  std::optional<int> last_column_id;  // deprecated; kept for round trips, ignored on apply
  friend bool operator==(const AddSchema&, const AddSchema&) = default;
};

struct SetCurrentSchema {
  static constexpr std::string_view kAction = "set-current-schema";
  int schema_id = kLastAdded;
  friend bool operator==(const SetCurrentSchema&, const SetCurrentSchema&) = default;
};

struct AddPartitionSpec {
  static constexpr std::string_view kAction = "add-spec";
  PartitionSpec spec;  // spec-id ignored on apply; missing field ids are assigned
  friend bool operator==(const AddPartitionSpec&, const AddPartitionSpec&) = default;
};

struct SetDefaultSpec {
  static constexpr std::string_view kAction = "set-default-spec";
  int spec_id = kLastAdded;
  friend bool operator==(const SetDefaultSpec&, const SetDefaultSpec&) = default;
};

struct AddSortOrder {
  static constexpr std::string_view kAction = "add-sort-order";
  SortOrder sort_order;  // order-id ignored on apply
  friend bool operator==(const AddSortOrder&, const AddSortOrder&) = default;
};

struct SetDefaultSortOrder {
  static constexpr std::string_view kAction = "set-default-sort-order";
  int sort_order_id = kLastAdded;
  friend bool operator==(const SetDefaultSortOrder&, const SetDefaultSortOrder&) = default;
};

struct AddSnapshot {
  static constexpr std::string_view kAction = "add-snapshot";
  Snapshot snapshot;
  friend bool operator==(const AddSnapshot&, const AddSnapshot&) = default;
};

// JSON: the ref's fields flattened next to `ref-name`.
struct SetSnapshotRef {
  static constexpr std::string_view kAction = "set-snapshot-ref";
  std::string ref_name;
  SnapshotRef ref;
  friend bool operator==(const SetSnapshotRef&, const SetSnapshotRef&) = default;
};

struct RemoveSnapshots {
  static constexpr std::string_view kAction = "remove-snapshots";
  std::vector<int64_t> snapshot_ids;
  friend bool operator==(const RemoveSnapshots&, const RemoveSnapshots&) = default;
};

struct RemoveSnapshotRef {
  static constexpr std::string_view kAction = "remove-snapshot-ref";
  std::string ref_name;
  friend bool operator==(const RemoveSnapshotRef&, const RemoveSnapshotRef&) = default;
};

struct SetLocation {
  static constexpr std::string_view kAction = "set-location";
  std::string location;
  friend bool operator==(const SetLocation&, const SetLocation&) = default;
};

// Parsed from `updates`, or the legacy `updated`.
struct SetProperties {
  static constexpr std::string_view kAction = "set-properties";
  std::map<std::string, std::string> updates;
  friend bool operator==(const SetProperties&, const SetProperties&) = default;
};

// Parsed from `removals`, or the legacy `removed`.
struct RemoveProperties {
  static constexpr std::string_view kAction = "remove-properties";
  std::vector<std::string> removals;
  friend bool operator==(const RemoveProperties&, const RemoveProperties&) = default;
};

struct SetStatistics {
  static constexpr std::string_view kAction = "set-statistics";
  StatisticsFile statistics;
  std::optional<int64_t> snapshot_id;  // deprecated; must match statistics.snapshot_id if sent
  friend bool operator==(const SetStatistics&, const SetStatistics&) = default;
};

struct RemoveStatistics {
  static constexpr std::string_view kAction = "remove-statistics";
  int64_t snapshot_id = 0;
  friend bool operator==(const RemoveStatistics&, const RemoveStatistics&) = default;
};

struct SetPartitionStatistics {
  static constexpr std::string_view kAction = "set-partition-statistics";
  PartitionStatisticsFile partition_statistics;
  friend bool operator==(const SetPartitionStatistics&, const SetPartitionStatistics&) = default;
};

struct RemovePartitionStatistics {
  static constexpr std::string_view kAction = "remove-partition-statistics";
  int64_t snapshot_id = 0;
  friend bool operator==(const RemovePartitionStatistics&,
                         const RemovePartitionStatistics&) = default;
};

struct RemovePartitionSpecs {
  static constexpr std::string_view kAction = "remove-partition-specs";
  std::vector<int> spec_ids;
  friend bool operator==(const RemovePartitionSpecs&, const RemovePartitionSpecs&) = default;
};

struct RemoveSchemas {
  static constexpr std::string_view kAction = "remove-schemas";
  std::vector<int> schema_ids;
  friend bool operator==(const RemoveSchemas&, const RemoveSchemas&) = default;
};

struct AddEncryptionKey {
  static constexpr std::string_view kAction = "add-encryption-key";
  EncryptionKey encryption_key;
  friend bool operator==(const AddEncryptionKey&, const AddEncryptionKey&) = default;
};

struct RemoveEncryptionKey {
  static constexpr std::string_view kAction = "remove-encryption-key";
  std::string key_id;
  friend bool operator==(const RemoveEncryptionKey&, const RemoveEncryptionKey&) = default;
};

using TableUpdate =
    std::variant<AssignUuid, UpgradeFormatVersion, AddSchema, SetCurrentSchema, AddPartitionSpec,
                 SetDefaultSpec, AddSortOrder, SetDefaultSortOrder, AddSnapshot, SetSnapshotRef,
                 RemoveSnapshots, RemoveSnapshotRef, SetLocation, SetProperties, RemoveProperties,
                 SetStatistics, RemoveStatistics, SetPartitionStatistics,
                 RemovePartitionStatistics, RemovePartitionSpecs, RemoveSchemas, AddEncryptionKey,
                 RemoveEncryptionKey>;

Result<TableUpdate> ParseTableUpdate(const boost::json::value& json);
// Parses a JSON array of updates.
Result<std::vector<TableUpdate>> ParseTableUpdates(const boost::json::value& json);

boost::json::object TableUpdateToJson(const TableUpdate& update);

// The spec `action` name of the update ("add-schema", ...).
std::string_view TableUpdateAction(const TableUpdate& update);

}  // namespace firn::metadata
