// Small fixtures for the requirement, update and builder tests: tables are built in code so
// each test shows exactly the state it starts from.
#pragma once

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/macros.h"
#include "metadata/builder.h"
#include "metadata/table_metadata.h"
#include "metadata/table_update.h"

namespace firn::metadata::testing {

inline constexpr char kUuid[] = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
inline constexpr char kLocation[] = "file:///warehouse/db/t";
inline constexpr int64_t kBaseUpdatedMs = 1'000'000;
inline constexpr int64_t kNowMs = 2'000'000;

// One column: {"id": id, "name": name, "required": false, "type": type}.
inline boost::json::object Column(int id, std::string name, std::string type = "long") {
  return boost::json::object{{"id", id}, {"name", name}, {"required", false}, {"type", type}};
}

inline Schema MakeSchema(int schema_id, std::vector<boost::json::object> columns) {
  Schema schema;
  schema.schema_id = schema_id;
  for (auto& column : columns) schema.fields.push_back(std::move(column));
  return schema;
}

// Schema 0: id (1, long), data (2, string).
inline Schema BaseSchema() { return MakeSchema(0, {Column(1, "id"), Column(2, "data", "string")}); }

// An existing table: one schema, unpartitioned spec 0, unsorted order 0, no snapshots.
inline TableMetadata MakeTable(int format_version = 2) {
  TableMetadata m;
  m.format_version = format_version;
  m.table_uuid = kUuid;
  m.location = kLocation;
  m.last_updated_ms = kBaseUpdatedMs;
  m.last_column_id = 2;
  m.schemas = {BaseSchema()};
  m.partition_specs = {PartitionSpec{0, {}}};
  m.sort_orders = {SortOrder{0, {}}};
  if (format_version >= 3) m.next_row_id = 0;
  return m;
}

inline Snapshot MakeSnapshot(int64_t id, std::optional<int64_t> parent, int64_t sequence_number,
                             int64_t timestamp_ms) {
  Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = parent;
  s.sequence_number = sequence_number;
  s.timestamp_ms = timestamp_ms;
  s.manifest_list = "file:///warehouse/db/t/metadata/snap-" + std::to_string(id) + ".avro";
  s.summary = boost::json::object{{"operation", "append"}};
  s.schema_id = 0;
  return s;
}

// Adds `snapshot` directly to `m` as the new current snapshot (as a committed table has it).
inline void PutCurrentSnapshot(TableMetadata& m, Snapshot snapshot) {
  m.last_sequence_number = std::max(m.last_sequence_number, snapshot.sequence_number.value_or(0));
  m.current_snapshot_id = snapshot.snapshot_id;
  m.refs["main"] = SnapshotRef{"branch", snapshot.snapshot_id};
  m.snapshot_log.push_back({snapshot.timestamp_ms, snapshot.snapshot_id});
  m.snapshots.push_back(std::move(snapshot));
}

// A v2 table with snapshots 1 <- 2 <- 3 (seq 1..3), main at 3.
inline TableMetadata MakeTableWithHistory(int format_version = 2) {
  TableMetadata m = MakeTable(format_version);
  for (int64_t id = 1; id <= 3; ++id) {
    std::optional<int64_t> parent = id == 1 ? std::nullopt : std::optional<int64_t>(id - 1);
    Snapshot s = MakeSnapshot(id, parent, format_version == 1 ? 0 : id, 500'000 + id);
    if (format_version == 1) s.sequence_number.reset();
    if (format_version >= 3) {
      s.first_row_id = (id - 1) * 10;
      s.added_rows = 10;
    }
    PutCurrentSnapshot(m, std::move(s));
  }
  if (format_version >= 3) m.next_row_id = 30;
  return m;
}

inline Result<ApplyResult> Apply(const TableMetadata& base, std::vector<TableUpdate> updates,
                                 std::optional<std::string> base_location = std::nullopt) {
  return ApplyUpdates(&base, updates, CommitContext{kNowMs, std::move(base_location)});
}

inline Result<ApplyResult> Create(std::vector<TableUpdate> updates) {
  return ApplyUpdates(nullptr, updates, CommitContext{kNowMs, std::nullopt});
}

// The usual create transaction a Java client sends (without the optional upgrade).
inline std::vector<TableUpdate> CreateUpdates() {
  Schema schema = BaseSchema();
  return {AssignUuid{kUuid},       AddSchema{schema, 2},      SetCurrentSchema{-1},
          SetLocation{kLocation},  SetProperties{{{"owner", "alice"}}}};
}

}  // namespace firn::metadata::testing

// Readable failures: print the error when a Result unexpectedly failed.
#define ASSERT_OK_AND_ASSIGN(lhs, expr)                                              \
  auto FIRN_CONCAT(test_result_, __LINE__) = (expr);                                 \
  ASSERT_TRUE(FIRN_CONCAT(test_result_, __LINE__).has_value())                       \
      << FIRN_CONCAT(test_result_, __LINE__).error().message;                        \
  lhs = std::move(*FIRN_CONCAT(test_result_, __LINE__))
