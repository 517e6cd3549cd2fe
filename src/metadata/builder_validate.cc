// Table metadata invariants (checklist §5.1) and the schema walk they need.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <fmt/format.h>

#include <unordered_set>

#include "metadata/builder.h"
#include "metadata/builder_internal.h"
#include "metadata/json_keys.h"
#include "metadata/serde_util.h"
#include "metadata/table_update_json.h"

namespace firn::metadata {

namespace builder_internal {

namespace {

void CollectFromFields(const boost::json::array& fields, std::unordered_set<int>& ids);

void AddId(const boost::json::object& object, std::string_view key, std::unordered_set<int>& ids) {
  if (const boost::json::value* id = object.if_contains(key)) {
    if (std::optional<int> number = AsInt(*id)) ids.insert(*number);
  }
}

// A nested type is an object with "type": struct | list | map; primitives are strings.
void CollectFromType(const boost::json::value& type, std::unordered_set<int>& ids) {
  if (!type.is_object()) return;
  const boost::json::object& object = type.get_object();
  if (const boost::json::value* fields = object.if_contains(kFields);
      fields != nullptr && fields->is_array()) {
    CollectFromFields(fields->get_array(), ids);
  }
  AddId(object, kElementId, ids);
  AddId(object, kKeyId, ids);
  AddId(object, kValueId, ids);
  for (std::string_view key : {kElement, kKey, kValue}) {
    if (const boost::json::value* child = object.if_contains(key)) CollectFromType(*child, ids);
  }
}

void CollectFromFields(const boost::json::array& fields, std::unordered_set<int>& ids) {
  for (const boost::json::value& field : fields) {
    if (!field.is_object()) continue;
    AddId(field.get_object(), kId, ids);
    if (const boost::json::value* type = field.get_object().if_contains(kType)) {
      CollectFromType(*type, ids);
    }
  }
}

}  // namespace

std::unordered_set<int> CollectFieldIds(const Schema& schema) {
  std::unordered_set<int> ids;
  CollectFromFields(schema.fields, ids);
  return ids;
}

}  // namespace builder_internal

namespace {

using builder_internal::kClockSkewToleranceMs;

std::unexpected<Error> Invalid(std::string message) {
  return Fail(ErrorKind::kValidation, "Invalid table metadata: " + message);
}

template <typename Entry>
Status CheckLogOrder(const std::vector<Entry>& log, int64_t last_updated_ms,
                     std::string_view name) {
  for (size_t i = 1; i < log.size(); ++i) {
    if (log[i].timestamp_ms - log[i - 1].timestamp_ms < -kClockSkewToleranceMs) {
      return Invalid(fmt::format("{} entries are not sorted by timestamp", name));
    }
  }
  if (!log.empty() && log.back().timestamp_ms - last_updated_ms > kClockSkewToleranceMs) {
    return Invalid(fmt::format("last-updated-ms {} is before the last {} entry at {}",
                               last_updated_ms, name, log.back().timestamp_ms));
  }
  return Ok();
}

template <typename Field>
Status CheckSourcesExist(const std::vector<Field>& fields, const std::unordered_set<int>& ids,
                         std::string_view what) {
  for (const Field& field : fields) {
    if (field.transform == builder_internal::kVoidTransform) continue;
    for (int source : builder_internal::SourceIds(field)) {
      if (!ids.contains(source)) {
        return Invalid(
            fmt::format("{} references source column {} missing from the current schema", what,
                        source));
      }
    }
  }
  return Ok();
}

}  // namespace

Status ValidateTableMetadata(const TableMetadata& m) {
  if (m.format_version < 1 || m.format_version > kMaxFormatVersion) {
    return Invalid(fmt::format("unsupported format version {}", m.format_version));
  }
  if (m.location.empty()) return Invalid("location is empty");
  if (m.format_version >= 2 && m.table_uuid.empty()) return Invalid("table-uuid is missing");
  const Schema* schema = m.CurrentSchema();
  if (schema == nullptr) {
    return Invalid(fmt::format("current schema {} not found", m.current_schema_id));
  }
  const PartitionSpec* spec = m.FindSpec(m.default_spec_id);
  if (spec == nullptr) {
    return Invalid(fmt::format("default partition spec {} not found", m.default_spec_id));
  }
  const SortOrder* order = m.FindSortOrder(m.default_sort_order_id);
  if (order == nullptr) {
    return Invalid(fmt::format("default sort order {} not found", m.default_sort_order_id));
  }
  std::unordered_set<int> field_ids = builder_internal::CollectFieldIds(*schema);
  if (auto s = CheckSourcesExist(spec->fields, field_ids, "default partition spec"); !s) return s;
  if (auto s = CheckSourcesExist(order->fields, field_ids, "default sort order"); !s) return s;

  if (m.format_version == 1 && m.last_sequence_number != 0) {
    return Invalid("last-sequence-number must be 0 in format v1");
  }
  if (m.format_version >= builder_internal::kRowLineageFormatVersion && !m.next_row_id) {
    return Invalid("next-row-id is required in format v3");
  }
  std::unordered_set<int64_t> snapshot_ids;
  for (const Snapshot& snapshot : m.snapshots) {
    snapshot_ids.insert(snapshot.snapshot_id);
    if (snapshot.sequence_number.value_or(0) > m.last_sequence_number) {
      return Invalid(fmt::format("snapshot {} has sequence number {} after last-sequence-number {}",
                                 snapshot.snapshot_id, *snapshot.sequence_number,
                                 m.last_sequence_number));
    }
  }
  for (const auto& [name, ref] : m.refs) {
    if (!snapshot_ids.contains(ref.snapshot_id)) {
      return Invalid(fmt::format("ref {} points to unknown snapshot {}", name, ref.snapshot_id));
    }
  }
  auto main = m.refs.find(std::string(kMainBranch));
  if (m.current_snapshot_id) {
    if (!snapshot_ids.contains(*m.current_snapshot_id)) {
      return Invalid(fmt::format("current snapshot {} not found", *m.current_snapshot_id));
    }
    if (main == m.refs.end() || main->second.snapshot_id != *m.current_snapshot_id) {
      return Invalid("current-snapshot-id does not match the main branch");
    }
    if (!m.snapshot_log.empty() && m.snapshot_log.back().snapshot_id != *m.current_snapshot_id) {
      return Invalid("the last snapshot-log entry is not the current snapshot");
    }
  } else if (main != m.refs.end()) {
    return Invalid("main branch is set but there is no current snapshot");
  }
  if (auto s = CheckLogOrder(m.snapshot_log, m.last_updated_ms, "snapshot-log"); !s) return s;
  if (auto s = CheckLogOrder(m.metadata_log, m.last_updated_ms, "metadata-log"); !s) return s;
  return Ok();
}

}  // namespace firn::metadata
