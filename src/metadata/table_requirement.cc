#include "metadata/table_requirement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "common/macros.h"
#include "metadata/table_update_json.h"

namespace firn::metadata {

namespace {

constexpr std::string_view kTypeKey = "type";
constexpr std::string_view kUuidKey = "uuid";
constexpr std::string_view kRefKey = "ref";
constexpr std::string_view kSnapshotIdKey = "snapshot-id";
constexpr std::string_view kLastAssignedFieldIdKey = "last-assigned-field-id";
constexpr std::string_view kCurrentSchemaIdKey = "current-schema-id";
constexpr std::string_view kLastAssignedPartitionIdKey = "last-assigned-partition-id";
constexpr std::string_view kDefaultSpecIdKey = "default-spec-id";
constexpr std::string_view kDefaultSortOrderIdKey = "default-sort-order-id";

constexpr std::string_view kBranch = "branch";

using json_read::FieldReader;

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

using Parser = Result<TableRequirement> (*)(const FieldReader&);

Result<TableRequirement> ParseAssertCreate(const FieldReader&) { return AssertCreate{}; }

Result<TableRequirement> ParseAssertTableUuid(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(std::string uuid, r.String(kUuidKey));
  return AssertTableUuid{std::move(uuid)};
}

Result<TableRequirement> ParseAssertRefSnapshotId(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(std::string ref, r.String(kRefKey));
  // snapshot-id is required but nullable; an absent one reads as null like Java's parser.
  FIRN_ASSIGN_OR_RETURN(std::optional<int64_t> id, r.OptionalInt64(kSnapshotIdKey));
  return AssertRefSnapshotId{std::move(ref), id};
}

Result<TableRequirement> ParseAssertLastAssignedFieldId(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int id, r.Int(kLastAssignedFieldIdKey));
  return AssertLastAssignedFieldId{id};
}

Result<TableRequirement> ParseAssertCurrentSchemaId(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int id, r.Int(kCurrentSchemaIdKey));
  return AssertCurrentSchemaId{id};
}

Result<TableRequirement> ParseAssertLastAssignedPartitionId(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int id, r.Int(kLastAssignedPartitionIdKey));
  return AssertLastAssignedPartitionId{id};
}

Result<TableRequirement> ParseAssertDefaultSpecId(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int id, r.Int(kDefaultSpecIdKey));
  return AssertDefaultSpecId{id};
}

Result<TableRequirement> ParseAssertDefaultSortOrderId(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int id, r.Int(kDefaultSortOrderIdKey));
  return AssertDefaultSortOrderId{id};
}

struct ParserEntry {
  std::string_view type;
  Parser parse;
};

constexpr ParserEntry kParsers[] = {
    {AssertCreate::kType, &ParseAssertCreate},
    {AssertTableUuid::kType, &ParseAssertTableUuid},
    {AssertRefSnapshotId::kType, &ParseAssertRefSnapshotId},
    {AssertLastAssignedFieldId::kType, &ParseAssertLastAssignedFieldId},
    {AssertCurrentSchemaId::kType, &ParseAssertCurrentSchemaId},
    {AssertLastAssignedPartitionId::kType, &ParseAssertLastAssignedPartitionId},
    {AssertDefaultSpecId::kType, &ParseAssertDefaultSpecId},
    {AssertDefaultSortOrderId::kType, &ParseAssertDefaultSortOrderId},
};

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::unexpected<Error> RequirementFailed(std::string message) {
  return Fail(ErrorKind::kCommitFailed, "Requirement failed: " + message);
}

// "expected id X != Y" asserts: X is the requested id, Y the table's.
Status CheckId(int64_t requested, int64_t actual, std::string_view what) {
  if (requested == actual) return Ok();
  return RequirementFailed(fmt::format("{} changed: expected id {} != {}", what, requested, actual));
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
  if (!json.is_object()) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse requirement: not a JSON object");
  }
  FIRN_ASSIGN_OR_RETURN(std::string type,
                        FieldReader(json.get_object(), "requirement").String(kTypeKey));
  for (const ParserEntry& entry : kParsers) {
    if (entry.type == type) {
      return entry.parse(FieldReader(json.get_object(), "requirement " + type));
    }
  }
  return Fail(ErrorKind::kBadRequest,
              "Cannot parse requirement: unknown type '" + json_read::Truncate(type) + "'");
}

Result<std::vector<TableRequirement>> ParseTableRequirements(const boost::json::value& json) {
  if (!json.is_array()) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse requirements: not a JSON array");
  }
  std::vector<TableRequirement> out;
  out.reserve(json.get_array().size());
  for (const boost::json::value& item : json.get_array()) {
    FIRN_ASSIGN_OR_RETURN(TableRequirement requirement, ParseTableRequirement(item));
    out.push_back(std::move(requirement));
  }
  return out;
}

std::string_view TableRequirementType(const TableRequirement& requirement) {
  return std::visit([](const auto& r) { return std::decay_t<decltype(r)>::kType; }, requirement);
}

boost::json::object TableRequirementToJson(const TableRequirement& requirement) {
  boost::json::object out;
  out[kTypeKey] = TableRequirementType(requirement);
  std::visit(Overloaded{
                 [](const AssertCreate&) {},
                 [&](const AssertTableUuid& r) { out[kUuidKey] = r.uuid; },
                 [&](const AssertRefSnapshotId& r) {
                   out[kRefKey] = r.ref;
                   if (r.snapshot_id) {
                     out[kSnapshotIdKey] = *r.snapshot_id;
                   } else {
                     out[kSnapshotIdKey] = nullptr;
                   }
                 },
                 [&](const AssertLastAssignedFieldId& r) {
                   out[kLastAssignedFieldIdKey] = r.last_assigned_field_id;
                 },
                 [&](const AssertCurrentSchemaId& r) {
                   out[kCurrentSchemaIdKey] = r.current_schema_id;
                 },
                 [&](const AssertLastAssignedPartitionId& r) {
                   out[kLastAssignedPartitionIdKey] = r.last_assigned_partition_id;
                 },
                 [&](const AssertDefaultSpecId& r) { out[kDefaultSpecIdKey] = r.default_spec_id; },
                 [&](const AssertDefaultSortOrderId& r) {
                   out[kDefaultSortOrderIdKey] = r.default_sort_order_id;
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
