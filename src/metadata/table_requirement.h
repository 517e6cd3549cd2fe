// Table requirements: the preconditions a commit asserts against the table's current metadata
// (REST spec `TableRequirement`, discriminated by `type`).
//
// Pure values and functions; thread-safe. Parsing fails with kBadRequest naming the field;
// CheckRequirement fails with kCommitFailed and Java's exact "Requirement failed: ..." message,
// which clients match on (e.g. the prefix of "table already exists").
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/result.h"
#include "metadata/table_metadata.h"

namespace firn::metadata {

// The table must not exist.
struct AssertCreate {
  static constexpr std::string_view kType = "assert-create";
  friend bool operator==(const AssertCreate&, const AssertCreate&) = default;
};

// The table UUID equals `uuid` (case-insensitive).
struct AssertTableUuid {
  static constexpr std::string_view kType = "assert-table-uuid";
  std::string uuid;
  friend bool operator==(const AssertTableUuid&, const AssertTableUuid&) = default;
};

// The ref points at `snapshot_id`; with no `snapshot_id` the ref must not exist.
struct AssertRefSnapshotId {
  static constexpr std::string_view kType = "assert-ref-snapshot-id";
  std::string ref;
  std::optional<int64_t> snapshot_id;
  friend bool operator==(const AssertRefSnapshotId&, const AssertRefSnapshotId&) = default;
};

struct AssertLastAssignedFieldId {
  static constexpr std::string_view kType = "assert-last-assigned-field-id";
  int last_assigned_field_id = 0;
  friend bool operator==(const AssertLastAssignedFieldId&,
                         const AssertLastAssignedFieldId&) = default;
};

struct AssertCurrentSchemaId {
  static constexpr std::string_view kType = "assert-current-schema-id";
  int current_schema_id = 0;
  friend bool operator==(const AssertCurrentSchemaId&, const AssertCurrentSchemaId&) = default;
};

struct AssertLastAssignedPartitionId {
  static constexpr std::string_view kType = "assert-last-assigned-partition-id";
  int last_assigned_partition_id = 0;
  friend bool operator==(const AssertLastAssignedPartitionId&,
                         const AssertLastAssignedPartitionId&) = default;
};

struct AssertDefaultSpecId {
  static constexpr std::string_view kType = "assert-default-spec-id";
  int default_spec_id = 0;
  friend bool operator==(const AssertDefaultSpecId&, const AssertDefaultSpecId&) = default;
};

struct AssertDefaultSortOrderId {
  static constexpr std::string_view kType = "assert-default-sort-order-id";
  int default_sort_order_id = 0;
  friend bool operator==(const AssertDefaultSortOrderId&,
                         const AssertDefaultSortOrderId&) = default;
};

using TableRequirement =
    std::variant<AssertCreate, AssertTableUuid, AssertRefSnapshotId, AssertLastAssignedFieldId,
                 AssertCurrentSchemaId, AssertLastAssignedPartitionId, AssertDefaultSpecId,
                 AssertDefaultSortOrderId>;

// Parses one requirement object. Unknown `type` → kBadRequest
// "Cannot parse requirement: unknown type '<type, at most 64 chars>'".
Result<TableRequirement> ParseTableRequirement(const boost::json::value& json);
// Parses a JSON array of requirements.
Result<std::vector<TableRequirement>> ParseTableRequirements(const boost::json::value& json);

boost::json::object TableRequirementToJson(const TableRequirement& requirement);

// The spec `type` name of the requirement ("assert-create", ...).
std::string_view TableRequirementType(const TableRequirement& requirement);

// Checks one requirement against the current metadata; `base == nullptr` means the table does
// not exist. Only assert-create passes on a missing table, plus the last-assigned-field-id and
// last-assigned-partition-id asserts, which Java skips when there is no table; every other
// requirement fails with "Requirement failed: table does not exist".
Status CheckRequirement(const TableRequirement& requirement, const TableMetadata* base);
// Checks them in order; the first failure is returned.
Status CheckRequirements(const std::vector<TableRequirement>& requirements,
                         const TableMetadata* base);

}  // namespace firn::metadata
