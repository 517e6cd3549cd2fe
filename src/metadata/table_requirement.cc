#include "metadata/table_requirement.h"

#include <fmt/format.h>

#include "common/macros.h"
#include "common/overloaded.h"
#include "common/strings.h"
#include "metadata/json_keys.h"
#include "metadata/table_update_json.h"

namespace firn::metadata {

namespace {

using json_read::FieldReader;

Result<TableRequirement> ParseAssertCreate(const FieldReader&) { return AssertCreate{}; }

Result<TableRequirement> ParseAssertRefSnapshotId(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(std::string ref, r.String(kRef));
  // snapshot-id is required but nullable; an absent one reads as null like Java's parser.
  FIRN_ASSIGN_OR_RETURN(std::optional<int64_t> id, r.OptionalInt64(kSnapshotId));
  return AssertRefSnapshotId{std::move(ref), id};
}

template <typename U, auto Read, const std::string_view& Key>
constexpr json_read::TaggedParser<TableRequirement> kField =
    json_read::FieldParser<TableRequirement, U, Read, Key>();

constexpr json_read::TaggedParser<TableRequirement> kParsers[] = {
    {AssertCreate::kType, &ParseAssertCreate},
    kField<AssertTableUuid, &FieldReader::String, kUuid>,
    {AssertRefSnapshotId::kType, &ParseAssertRefSnapshotId},
    kField<AssertLastAssignedFieldId, &FieldReader::Int, kLastAssignedFieldId>,
    kField<AssertCurrentSchemaId, &FieldReader::Int, kCurrentSchemaId>,
    kField<AssertLastAssignedPartitionId, &FieldReader::Int, kLastAssignedPartitionId>,
    kField<AssertDefaultSpecId, &FieldReader::Int, kDefaultSpecId>,
    kField<AssertDefaultSortOrderId, &FieldReader::Int, kDefaultSortOrderId>,
};

std::unexpected<Error> RequirementFailed(std::string message) {
  return Fail(ErrorKind::kCommitFailed, "Requirement failed: " + message);
}

// "expected id X != Y" asserts: X is the requested id, Y the table's.
Status CheckId(int64_t requested, int64_t actual, std::string_view what) {
  if (requested == actual) return Ok();
  return RequirementFailed(
      fmt::format("{} changed: expected id {} != {}", what, requested, actual));
}

Status CheckRef(const AssertRefSnapshotId& req, const TableMetadata& base) {
  auto it = base.refs.find(req.ref);
  if (it != base.refs.end()) {
    const SnapshotRef& ref = it->second;
    std::string_view type = ref.type == kBranch ? "branch" : "tag";
    if (!req.snapshot_id) {
      return RequirementFailed(fmt::format("{} {} was created concurrently", type, req.ref));
    }
    if (*req.snapshot_id != ref.snapshot_id) {
      return RequirementFailed(fmt::format("{} {} has changed: expected id {} != {}", type,
                                           req.ref, *req.snapshot_id, ref.snapshot_id));
    }
    return Ok();
  }
  if (req.snapshot_id) {
    return RequirementFailed(
        fmt::format("branch or tag {} is missing, expected {}", req.ref, *req.snapshot_id));
  }
  return Ok();
}

}  // namespace

Result<TableRequirement> ParseTableRequirement(const boost::json::value& json) {
  return json_read::ParseTagged<TableRequirement>(json, "requirement", kType, kParsers);
}

Result<std::vector<TableRequirement>> ParseTableRequirements(const boost::json::value& json) {
  return json_read::ParseArray(json, "requirements", &ParseTableRequirement);
}

std::string_view TableRequirementType(const TableRequirement& requirement) {
  return json_read::HeldTag(requirement);
}

boost::json::object TableRequirementToJson(const TableRequirement& requirement) {
  boost::json::object out;
  out[kType] = TableRequirementType(requirement);
  std::visit(Overloaded{
                 [](const AssertCreate&) {},
                 [&](const AssertTableUuid& r) { out[kUuid] = r.uuid; },
                 [&](const AssertRefSnapshotId& r) {
                   out[kRef] = r.ref;
                   if (r.snapshot_id) {
                     out[kSnapshotId] = *r.snapshot_id;
                   } else {
                     out[kSnapshotId] = nullptr;
                   }
                 },
                 [&](const AssertLastAssignedFieldId& r) {
                   out[kLastAssignedFieldId] = r.last_assigned_field_id;
                 },
                 [&](const AssertCurrentSchemaId& r) {
                   out[kCurrentSchemaId] = r.current_schema_id;
                 },
                 [&](const AssertLastAssignedPartitionId& r) {
                   out[kLastAssignedPartitionId] = r.last_assigned_partition_id;
                 },
                 [&](const AssertDefaultSpecId& r) { out[kDefaultSpecId] = r.default_spec_id; },
                 [&](const AssertDefaultSortOrderId& r) {
                   out[kDefaultSortOrderId] = r.default_sort_order_id;
                 },
             },
             requirement);
  return out;
}

Status CheckRequirement(const TableRequirement& requirement, const TableMetadata* base) {
  if (base == nullptr) {
    // Java skips the last-assigned asserts when there is no table (a replace that creates).
    if (std::holds_alternative<AssertCreate>(requirement) ||
        std::holds_alternative<AssertLastAssignedFieldId>(requirement) ||
        std::holds_alternative<AssertLastAssignedPartitionId>(requirement)) {
      return Ok();
    }
    return RequirementFailed("table does not exist");
  }
  return std::visit(
      Overloaded{
          [](const AssertCreate&) -> Status { return RequirementFailed("table already exists"); },
          [&](const AssertTableUuid& r) -> Status {
            if (EqualsIgnoreCase(r.uuid, base->table_uuid)) return Ok();
            return RequirementFailed(
                fmt::format("UUID does not match: expected {} != {}", base->table_uuid, r.uuid));
          },
          [&](const AssertRefSnapshotId& r) { return CheckRef(r, *base); },
          [&](const AssertLastAssignedFieldId& r) {
            return CheckId(r.last_assigned_field_id, base->last_column_id,
                           "last assigned field id");
          },
          [&](const AssertCurrentSchemaId& r) {
            return CheckId(r.current_schema_id, base->current_schema_id, "current schema");
          },
          [&](const AssertLastAssignedPartitionId& r) {
            return CheckId(r.last_assigned_partition_id, base->last_partition_id,
                           "last assigned partition id");
          },
          [&](const AssertDefaultSpecId& r) {
            return CheckId(r.default_spec_id, base->default_spec_id, "default partition spec");
          },
          [&](const AssertDefaultSortOrderId& r) {
            return CheckId(r.default_sort_order_id, base->default_sort_order_id,
                           "default sort order");
          },
      },
      requirement);
}

Status CheckRequirements(const std::vector<TableRequirement>& requirements,
                         const TableMetadata* base) {
  for (const TableRequirement& requirement : requirements) {
    FIRN_RETURN_IF_ERROR(CheckRequirement(requirement, base));
  }
  return Ok();
}

}  // namespace firn::metadata
