// The Iceberg table metadata model (table spec, format versions 1–3).
//
// Pure values: no I/O. Schema field trees stay in their JSON form (the server never needs more
// than walking them), everything the commit engine reasons about is typed. Unknown top-level
// fields are not preserved (Java's parser drops them too).
// Thread-safety: plain values; const access from many threads is safe.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace firn::metadata {

inline constexpr int kDefaultFormatVersion = 2;
inline constexpr int kMaxFormatVersion = 3;
inline constexpr int kUnpartitionedLastPartitionId = 999;
inline constexpr int kPartitionFieldIdStart = 1000;

struct Schema {
  int schema_id = 0;
  std::vector<int> identifier_field_ids;
  boost::json::array fields;  // StructField objects exactly as in the spec JSON
  friend bool operator==(const Schema&, const Schema&) = default;
};

struct PartitionField {
  int source_id = 0;
  std::vector<int> source_ids;  // v3 multi-argument transforms; empty when single-source
  std::optional<int> field_id;  // required in stored metadata; optional in add-spec requests
  std::string name;
  std::string transform;
  friend bool operator==(const PartitionField&, const PartitionField&) = default;
};

struct PartitionSpec {
  int spec_id = 0;
  std::vector<PartitionField> fields;
  friend bool operator==(const PartitionSpec&, const PartitionSpec&) = default;
};

struct SortField {
  std::string transform;
  int source_id = 0;
  std::vector<int> source_ids;
  std::string direction;   // "asc" | "desc"
  std::string null_order;  // "nulls-first" | "nulls-last"
  friend bool operator==(const SortField&, const SortField&) = default;
};

struct SortOrder {
  int order_id = 0;
  std::vector<SortField> fields;
  friend bool operator==(const SortOrder&, const SortOrder&) = default;
};

struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  std::optional<int64_t> sequence_number;  // v2+
  int64_t timestamp_ms = 0;
  std::optional<std::string> manifest_list;
  std::vector<std::string> manifests;      // v1 only, when there is no manifest list
  boost::json::object summary;             // includes "operation"
  std::optional<int> schema_id;
  std::optional<int64_t> first_row_id;     // v3
  std::optional<int64_t> added_rows;       // v3
  std::optional<std::string> key_id;       // v3
  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

// SnapshotRef::type values, and the branch a table's current snapshot is on.
inline constexpr std::string_view kBranch = "branch";
inline constexpr std::string_view kTag = "tag";
inline constexpr std::string_view kMainBranch = "main";

struct SnapshotRef {
  std::string type;  // kBranch | kTag
  int64_t snapshot_id = 0;
  std::optional<int> min_snapshots_to_keep;
  std::optional<int64_t> max_snapshot_age_ms;
  std::optional<int64_t> max_ref_age_ms;
  friend bool operator==(const SnapshotRef&, const SnapshotRef&) = default;
};

// Statistics, partition statistics and encryption keys are kept as their JSON objects; the
// server only needs their keys.
struct StatisticsFile {
  int64_t snapshot_id = 0;
  boost::json::object json;
  friend bool operator==(const StatisticsFile&, const StatisticsFile&) = default;
};

struct PartitionStatisticsFile {
  int64_t snapshot_id = 0;
  boost::json::object json;
  friend bool operator==(const PartitionStatisticsFile&, const PartitionStatisticsFile&) = default;
};

struct EncryptionKey {
  std::string key_id;
  boost::json::object json;
  friend bool operator==(const EncryptionKey&, const EncryptionKey&) = default;
};

struct SnapshotLogEntry {
  int64_t timestamp_ms = 0;
  int64_t snapshot_id = 0;
  friend bool operator==(const SnapshotLogEntry&, const SnapshotLogEntry&) = default;
};

struct MetadataLogEntry {
  int64_t timestamp_ms = 0;
  std::string metadata_file;
  friend bool operator==(const MetadataLogEntry&, const MetadataLogEntry&) = default;
};

struct TableMetadata {
  int format_version = kDefaultFormatVersion;
  std::string table_uuid;
  std::string location;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int last_column_id = 0;
  std::vector<Schema> schemas;
  int current_schema_id = 0;
  std::vector<PartitionSpec> partition_specs;
  int default_spec_id = 0;
  int last_partition_id = kUnpartitionedLastPartitionId;
  std::vector<SortOrder> sort_orders;
  int default_sort_order_id = 0;
  std::map<std::string, std::string> properties;
  std::optional<int64_t> current_snapshot_id;  // nullopt = none (written -1 in v1/v2, null in v3)
  std::optional<int64_t> next_row_id;          // v3
  std::vector<EncryptionKey> encryption_keys;
  std::map<std::string, SnapshotRef> refs;
  std::vector<Snapshot> snapshots;
  std::vector<StatisticsFile> statistics;
  std::vector<PartitionStatisticsFile> partition_statistics;
  std::vector<SnapshotLogEntry> snapshot_log;
  std::vector<MetadataLogEntry> metadata_log;

  const Schema* FindSchema(int schema_id) const;
  const PartitionSpec* FindSpec(int spec_id) const;
  const SortOrder* FindSortOrder(int order_id) const;
  const Snapshot* FindSnapshot(int64_t snapshot_id) const;
  const Schema* CurrentSchema() const { return FindSchema(current_schema_id); }

  friend bool operator==(const TableMetadata&, const TableMetadata&) = default;
};

}  // namespace firn::metadata
