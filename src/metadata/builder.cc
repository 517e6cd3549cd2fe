#include "metadata/builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <set>
#include <unordered_set>

#include "common/macros.h"
#include "common/strings.h"
#include "common/uuid.h"
#include "metadata/builder_internal.h"
#include "metadata/serde.h"

namespace firn::metadata {

namespace {

using builder_internal::Invalid;
using builder_internal::kRowLineageFormatVersion;
using builder_internal::kVoidTransform;

constexpr int kInitialSortOrderId = 1;  // 0 is reserved for the unsorted order

// Used on create/replace but never persisted (checklist §5.2).
constexpr std::array<std::string_view, 9> kReservedProperties = {
    "format-version",        "uuid",          "snapshot-count",
    "current-snapshot-id",   "current-snapshot-summary", "current-snapshot-timestamp-ms",
    "current-schema",        "default-partition-spec",   "default-sort-order"};

bool IsReservedProperty(std::string_view key) {
  return std::ranges::find(kReservedProperties, key) != kReservedProperties.end();
}

// Java's PartitionSpec.compatibleWith: same fields in order, ignoring field ids.
bool CompatibleSpecs(const PartitionSpec& a, const PartitionSpec& b) {
  return std::ranges::equal(a.fields, b.fields, [](const PartitionField& x,
                                                   const PartitionField& y) {
    return x.source_id == y.source_id && x.source_ids == y.source_ids &&
           x.transform == y.transform && x.name == y.name;
  });
}

template <typename T, typename IdOf>
int MaxId(const std::vector<T>& items, IdOf id_of, int none) {
  int max = none;
  for (const T& item : items) max = std::max(max, id_of(item));
  return max;
}

int IntProperty(const TableMetadata& m, std::string_view key, int fallback) {
  auto it = m.properties.find(std::string(key));
  if (it == m.properties.end()) return fallback;
  int value = 0;
  const std::string& text = it->second;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  // An unparsable value falls back to the default rather than blocking every commit.
  return ec == std::errc() && end == text.data() + text.size() ? value : fallback;
}

bool BoolProperty(const TableMetadata& m, std::string_view key) {
  auto it = m.properties.find(std::string(key));
  return it != m.properties.end() && EqualsIgnoreCase(it->second, "true");
}

// Old writers omit `refs`; the implicit main branch is the current snapshot.
bool NeedsImplicitMain(const TableMetadata& m) {
  return m.current_snapshot_id && !m.refs.contains(std::string(kMainBranch));
}

void AddImplicitMain(TableMetadata& m) {
  m.refs[std::string(kMainBranch)] = SnapshotRef{std::string(kBranch), *m.current_snapshot_id};
}

// set-current-schema, set-default-spec and set-default-sort-order: the requested id with "last
// added" resolved, which must name an item that `exists`; `what` names the kind ("sort order"),
// `unknown` starts the error for an id that names none.
template <typename Exists>
Result<int> ExistingId(int requested, std::optional<int> last_added, std::string_view what,
                       Exists exists, std::string_view unknown) {
  std::string none_added = fmt::format("Cannot set last added {0}: no {0} has been added", what);
  FIRN_ASSIGN_OR_RETURN(int id, ResolveLastAdded(requested, last_added, none_added));
  if (!exists(id)) return Invalid(ErrorKind::kIllegalArgument, "{}: {}", unknown, id);
  return id;
}

}  // namespace

namespace builder_internal {

Status Builder::Handle(const AssignUuid& u) {
  if (!IsUuid(u.uuid)) return Fail(ErrorKind::kIllegalArgument, "Cannot assign uuid: not a UUID");
  if (EqualsIgnoreCase(u.uuid, m_.table_uuid)) return Ok();
  if (!creating_ && !m_.table_uuid.empty()) {
    return Fail(ErrorKind::kValidation, "Cannot reassign uuid");
  }
  m_.table_uuid = u.uuid;
  return Ok();
}

Status Builder::Handle(const UpgradeFormatVersion& u) {
  if (u.format_version > kMaxFormatVersion) {
    return Invalid(ErrorKind::kValidation,
                   "Cannot upgrade table to unsupported format version: v{} (supported: v{})",
                   u.format_version, kMaxFormatVersion);
  }
  if (u.format_version < m_.format_version) {
    return Invalid(ErrorKind::kValidation, "Cannot downgrade v{} table to v{}", m_.format_version,
                   u.format_version);
  }
  if (u.format_version == m_.format_version) return Ok();
  m_.format_version = u.format_version;
  if (m_.format_version >= kRowLineageFormatVersion && !m_.next_row_id) m_.next_row_id = 0;
  return Ok();
}

Status Builder::Handle(const AddSchema& u) {
  FIRN_RETURN_IF_ERROR(ValidateSchemaTypes(u.schema, m_.format_version));
  std::unordered_set<int> ids = builder_internal::CollectFieldIds(u.schema);
  for (int id : u.schema.identifier_field_ids) {
    if (!ids.contains(id)) {
      return Invalid(ErrorKind::kValidation,
                     "Cannot add schema: identifier field {} is not in the schema", id);
    }
  }
  m_.last_column_id = std::max(m_.last_column_id, MaxFieldId(u.schema));
  // Reuse an identical schema's id. Unlike Java we also let -1 refer to it afterwards: a client
  // that re-adds an existing schema and then sets "last added" means that schema.
  for (const Schema& existing : m_.schemas) {
    if (SameSchemaStructure(existing, u.schema)) {
      last_added_schema_id_ = existing.schema_id;
      return Ok();
    }
  }
  Schema schema = u.schema;
  schema.schema_id = MaxId(m_.schemas, [](const Schema& s) { return s.schema_id; }, -1) + 1;
  last_added_schema_id_ = schema.schema_id;
  m_.schemas.push_back(std::move(schema));
  return Ok();
}

Status Builder::Handle(const SetCurrentSchema& u) {
  // Specs and orders hold source ids only, so there is nothing to re-bind; the final validation
  // checks that the default spec and order still fit the new schema.
  FIRN_ASSIGN_OR_RETURN(
      m_.current_schema_id,
      ExistingId(u.schema_id, last_added_schema_id_, "schema",
                 [&](int id) { return m_.FindSchema(id) != nullptr; },
                 "Cannot set current schema to unknown schema"));
  return Ok();
}

template <typename Field>
Status Builder::CheckSources(const std::vector<Field>& fields, std::string_view what) const {
  const Schema* schema = BindingSchema();
  if (schema == nullptr) {
    return Invalid(ErrorKind::kValidation, "Cannot add {}: the table has no schema", what);
  }
  std::unordered_set<int> ids = builder_internal::CollectFieldIds(*schema);
  for (const Field& field : fields) {
    if (field.transform == kVoidTransform) continue;
    for (int source : builder_internal::SourceIds(field)) {
      if (!ids.contains(source)) {
        return Invalid(ErrorKind::kValidation, "Cannot find source column for {} field: {}",
                       what, source);
      }
    }
  }
  return Ok();
}

// v1 specs need ids 1000, 1001, ... in order. From v2 a missing id reuses the id of an
// equivalent field in an existing spec (table spec rule), else takes the next id above
// last-partition-id, so ids never collide with earlier fields.
Status Builder::AssignPartitionFieldIds(PartitionSpec& spec) const {
  if (m_.format_version == 1) {
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      PartitionField& field = spec.fields[i];
      int expected = kPartitionFieldIdStart + static_cast<int>(i);
      if (!field.field_id) field.field_id = expected;
      if (*field.field_id != expected) {
        return Fail(ErrorKind::kValidation,
                    "Spec does not use sequential IDs that are required in v1");
      }
    }
    return Ok();
  }
  int next = m_.last_partition_id;
  std::set<int> used;
  for (const PartitionField& field : spec.fields) {
    if (field.field_id) {
      next = std::max(next, *field.field_id);
      if (!used.insert(*field.field_id).second) {
        return Invalid(ErrorKind::kValidation,
                       "Cannot add partition spec: duplicate partition field id {}",
                       *field.field_id);
      }
    }
  }
  for (PartitionField& field : spec.fields) {
    if (field.field_id) continue;
    for (const PartitionSpec& existing : m_.partition_specs) {
      for (const PartitionField& old : existing.fields) {
        if (!field.field_id && old.field_id && old.source_id == field.source_id &&
            old.source_ids == field.source_ids && old.transform == field.transform &&
            !used.contains(*old.field_id)) {
          field.field_id = old.field_id;
        }
      }
    }
    if (!field.field_id) field.field_id = ++next;
    used.insert(*field.field_id);
  }
  return Ok();
}

Status Builder::Handle(const AddPartitionSpec& u) {
  FIRN_RETURN_IF_ERROR(CheckSources(u.spec.fields, "partition"));
  std::set<std::string_view> names;
  for (const PartitionField& field : u.spec.fields) {
    if (!names.insert(field.name).second) {
      return Fail(ErrorKind::kValidation,
                  "Cannot add partition spec: a partition field name is used more than once");
    }
  }
  for (const PartitionSpec& existing : m_.partition_specs) {
    if (CompatibleSpecs(existing, u.spec)) {
      last_added_spec_id_ = existing.spec_id;
      return Ok();
    }
  }
  PartitionSpec spec = u.spec;
  FIRN_RETURN_IF_ERROR(AssignPartitionFieldIds(spec));
  spec.spec_id =
      MaxId(m_.partition_specs, [](const PartitionSpec& s) { return s.spec_id; }, -1) + 1;
  for (const PartitionField& field : spec.fields) {
    m_.last_partition_id = std::max(m_.last_partition_id, *field.field_id);
  }
  last_added_spec_id_ = spec.spec_id;
  m_.partition_specs.push_back(std::move(spec));
  return Ok();
}

Status Builder::Handle(const SetDefaultSpec& u) {
  FIRN_ASSIGN_OR_RETURN(
      m_.default_spec_id,
      ExistingId(u.spec_id, last_added_spec_id_, "spec",
                 [&](int id) { return m_.FindSpec(id) != nullptr; },
                 "Cannot set default partition spec to unknown spec"));
  return Ok();
}

Status Builder::Handle(const AddSortOrder& u) {
  if (u.sort_order.fields.empty()) {  // unsorted is always order 0
    if (m_.FindSortOrder(0) == nullptr) m_.sort_orders.push_back(SortOrder{0, {}});
    last_added_order_id_ = 0;
    return Ok();
  }
  FIRN_RETURN_IF_ERROR(CheckSources(u.sort_order.fields, "sort"));
  for (const SortField& field : u.sort_order.fields) {
    if (field.direction != "asc" && field.direction != "desc") {
      return Fail(ErrorKind::kValidation, "Cannot add sort order: invalid sort direction");
    }
    if (field.null_order != "nulls-first" && field.null_order != "nulls-last") {
      return Fail(ErrorKind::kValidation, "Cannot add sort order: invalid null order");
    }
  }
  for (const SortOrder& existing : m_.sort_orders) {
    if (existing.fields == u.sort_order.fields) {
      last_added_order_id_ = existing.order_id;
      return Ok();
    }
  }
  SortOrder order = u.sort_order;
  order.order_id = std::max(
      kInitialSortOrderId,
      MaxId(m_.sort_orders, [](const SortOrder& o) { return o.order_id; }, 0) + 1);
  last_added_order_id_ = order.order_id;
  m_.sort_orders.push_back(std::move(order));
  return Ok();
}

Status Builder::Handle(const SetDefaultSortOrder& u) {
  FIRN_ASSIGN_OR_RETURN(
      m_.default_sort_order_id,
      ExistingId(u.sort_order_id, last_added_order_id_, "sort order",
                 [&](int id) { return m_.FindSortOrder(id) != nullptr; },
                 "Cannot set default sort order to unknown order"));
  return Ok();
}

Status Builder::Handle(const SetLocation& u) {
  if (u.location.empty()) return Fail(ErrorKind::kIllegalArgument, "Cannot set location: empty");
  m_.location = u.location;  // kept byte for byte
  return Ok();
}

Status Builder::Handle(const SetProperties& u) {
  for (const auto& [key, value] : u.updates) {
    if (!IsReservedProperty(key)) m_.properties[key] = value;
  }
  return Ok();
}

Status Builder::Handle(const RemoveProperties& u) {
  for (const std::string& key : u.removals) m_.properties.erase(key);
  return Ok();
}

Status Builder::Handle(const RemovePartitionSpecs& u) {
  if (std::ranges::find(u.spec_ids, m_.default_spec_id) != u.spec_ids.end()) {
    return Fail(ErrorKind::kIllegalArgument, "Cannot remove the default partition spec");
  }
  std::erase_if(m_.partition_specs, [&](const PartitionSpec& s) {
    return std::ranges::find(u.spec_ids, s.spec_id) != u.spec_ids.end();
  });
  return Ok();
}

Status Builder::Handle(const RemoveSchemas& u) {
  if (std::ranges::find(u.schema_ids, m_.current_schema_id) != u.schema_ids.end()) {
    return Invalid(ErrorKind::kIllegalArgument, "Cannot remove current schema: {}",
                   m_.current_schema_id);
  }
  std::erase_if(m_.schemas, [&](const Schema& s) {
    return std::ranges::find(u.schema_ids, s.schema_id) != u.schema_ids.end();
  });
  return Ok();
}

void Builder::EnsureDefaultSpecAndOrder() {
  if (m_.partition_specs.empty()) {
    m_.partition_specs.push_back(PartitionSpec{0, {}});
    m_.default_spec_id = 0;
  }
  if (m_.sort_orders.empty()) {
    m_.sort_orders.push_back(SortOrder{0, {}});
    m_.default_sort_order_id = 0;
  }
}

Status Builder::Finish() {
  if (creating_) {
    if (m_.schemas.empty()) {
      return Fail(ErrorKind::kValidation, "Cannot create a table without a schema");
    }
    // Lenient create: an unset current/default (-1) falls back to the last one added.
    if (m_.CurrentSchema() == nullptr) {
      m_.current_schema_id = last_added_schema_id_.value_or(m_.schemas.back().schema_id);
    }
    EnsureDefaultSpecAndOrder();
    if (m_.FindSpec(m_.default_spec_id) == nullptr) {
      m_.default_spec_id = last_added_spec_id_.value_or(m_.partition_specs.back().spec_id);
    }
    if (m_.FindSortOrder(m_.default_sort_order_id) == nullptr) {
      m_.default_sort_order_id = last_added_order_id_.value_or(m_.sort_orders.back().order_id);
    }
  }
  if (m_.table_uuid.empty() && (creating_ || m_.format_version >= 2)) m_.table_uuid = NewUuidV4();

  // Snapshot-log (Java's updateSnapshotLog): drop snapshots that were current only in the middle
  // of this commit, and where an entry's snapshot is gone, drop everything before it so time
  // travel never sees a gap.
  std::unordered_set<int64_t> intermediate;
  for (int64_t id : main_set_to_added_) {
    if (m_.current_snapshot_id != id) intermediate.insert(id);
  }
  std::unordered_set<int64_t> existing;
  for (const Snapshot& snapshot : m_.snapshots) existing.insert(snapshot.snapshot_id);
  std::vector<SnapshotLogEntry> log;
  for (const SnapshotLogEntry& entry : m_.snapshot_log) {
    if (!existing.contains(entry.snapshot_id)) {
      log.clear();
    } else if (!intermediate.contains(entry.snapshot_id)) {
      log.push_back(entry);
    }
  }
  m_.snapshot_log = std::move(log);
  return Ok();
}

}  // namespace builder_internal

namespace {

using builder_internal::Builder;

TableMetadata NewTableMetadata(int format_version) {
  TableMetadata m;
  m.format_version = format_version;
  // -1 until set: lets a create fall back to "last added" (see Builder::Finish).
  m.current_schema_id = -1;
  m.default_spec_id = -1;
  m.default_sort_order_id = -1;
  if (format_version >= kRowLineageFormatVersion) m.next_row_id = 0;
  return m;
}

Result<int> CreateFormatVersion(const std::vector<TableUpdate>& updates) {
  for (const TableUpdate& update : updates) {
    if (const auto* upgrade = std::get_if<UpgradeFormatVersion>(&update)) {
      if (upgrade->format_version < 1 || upgrade->format_version > kMaxFormatVersion) {
        return Invalid(ErrorKind::kValidation,
                       "Cannot create table with unsupported format version: v{} (supported: "
                       "v1 to v{})",
                       upgrade->format_version, kMaxFormatVersion);
      }
      return upgrade->format_version;
    }
  }
  return kDefaultFormatVersion;
}

// Appends the base file to metadata-log and trims it; returns the files that fell out.
std::vector<std::string> UpdateMetadataLog(TableMetadata& m, const TableMetadata* base,
                                           const CommitContext& ctx) {
  if (base != nullptr && ctx.base_location) {
    m.metadata_log.push_back({base->last_updated_ms, *ctx.base_location});
  }
  size_t max_entries = static_cast<size_t>(
      std::max(1, IntProperty(m, kPreviousVersionsMaxProperty, kPreviousVersionsMaxDefault)));
  std::vector<std::string> dropped;
  if (m.metadata_log.size() > max_entries) {
    auto end = m.metadata_log.end() - static_cast<std::ptrdiff_t>(max_entries);
    for (auto it = m.metadata_log.begin(); it != end; ++it) dropped.push_back(it->metadata_file);
    m.metadata_log.erase(m.metadata_log.begin(), end);
  }
  return dropped;
}

}  // namespace

Result<ApplyResult> ApplyUpdates(const TableMetadata* base, const std::vector<TableUpdate>& updates,
                                 const CommitContext& ctx) {
  bool creating = base == nullptr;
  TableMetadata start;
  if (creating) {
    FIRN_ASSIGN_OR_RETURN(int format_version, CreateFormatVersion(updates));
    start = NewTableMetadata(format_version);
  } else {
    start = *base;
    if (NeedsImplicitMain(start)) AddImplicitMain(start);
  }
  Builder builder(std::move(start), creating, ctx.now_ms);
  for (const TableUpdate& update : updates) FIRN_RETURN_IF_ERROR(builder.Apply(update));

  TableMetadata& m = builder.metadata();
  if (!creating) {
    bool unchanged;
    if (NeedsImplicitMain(*base)) {
      TableMetadata normalized = *base;
      AddImplicitMain(normalized);
      unchanged = m == normalized;
    } else {
      unchanged = m == *base;
    }
    if (unchanged) return ApplyResult{*base, false, {}};
  }
  FIRN_RETURN_IF_ERROR(builder.Finish());
  // Never move backwards, and never before a snapshot that became part of the table here.
  m.last_updated_ms = std::max({ctx.now_ms, creating ? int64_t{0} : base->last_updated_ms,
                                builder.MaxAddedSnapshotTimestamp()});
  std::vector<std::string> dropped = UpdateMetadataLog(m, base, ctx);
  FIRN_RETURN_IF_ERROR(ValidateTableMetadata(m));

  ApplyResult result{std::move(m), true, {}};
  if (BoolProperty(result.metadata, kDeleteAfterCommitProperty)) {
    result.dropped_metadata_files = std::move(dropped);
  }
  return result;
}

}  // namespace firn::metadata
