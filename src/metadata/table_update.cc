#include "metadata/table_update.h"

#include <boost/json/array.hpp>

#include "common/macros.h"
#include "common/overloaded.h"
#include "common/strings.h"
#include "metadata/json_keys.h"
#include "metadata/serde.h"
#include "metadata/serde_util.h"
#include "metadata/table_update_json.h"

namespace firn::metadata {

namespace {

using json_read::FieldReader;

// The REST spec marks schema-id / spec-id / order-id read-only in requests, so they may be
// absent; serde's parsers want them, and the builder ignores them anyway. A Nested reader.
template <auto FromJson, const std::string_view& IdKey>
auto WithDefaultId(const FieldReader& r, std::string_view key)
    -> decltype(FromJson(boost::json::value())) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::object* object, r.Object(key));
  boost::json::object copy = *object;
  if (!copy.contains(IdKey)) copy[IdKey] = 0;
  return FromJson(boost::json::value(std::move(copy)));
}

Result<TableUpdate> ParseAddSchema(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(Schema schema, (WithDefaultId<&SchemaFromJson, kSchemaId>(r, kSchema)));
  FIRN_ASSIGN_OR_RETURN(std::optional<int> last_column_id, r.OptionalInt(kLastColumnId));
  return AddSchema{std::move(schema), last_column_id};
}

Result<TableUpdate> ParseSetSnapshotRef(const FieldReader& r) {
  SetSnapshotRef update;
  FIRN_ASSIGN_OR_RETURN(update.ref_name, r.String(kRefName));
  FIRN_ASSIGN_OR_RETURN(update.ref.snapshot_id, r.Int64(kSnapshotId));
  FIRN_ASSIGN_OR_RETURN(std::string type, r.String(kType));
  // Java reads the type case-insensitively; store the spec's lowercase form.
  type = ToLower(type);
  if (type != kBranch && type != kTag) return Fail(r.WrongType(kType, "'branch' or 'tag'"));
  update.ref.type = std::move(type);
  FIRN_ASSIGN_OR_RETURN(update.ref.min_snapshots_to_keep, r.OptionalInt(kMinSnapshotsToKeep));
  FIRN_ASSIGN_OR_RETURN(update.ref.max_snapshot_age_ms, r.OptionalInt64(kMaxSnapshotAgeMs));
  FIRN_ASSIGN_OR_RETURN(update.ref.max_ref_age_ms, r.OptionalInt64(kMaxRefAgeMs));
  return update;
}

// set-properties / remove-properties also accept the legacy field name when the current one
// is absent.
template <auto Read, const std::string_view& Key, const std::string_view& LegacyKey>
auto WithLegacyKey(const FieldReader& r, std::string_view)
    -> decltype(std::invoke(Read, r, Key)) {
  bool legacy = r.Find(Key) == nullptr && r.Find(LegacyKey) != nullptr;
  return std::invoke(Read, r, legacy ? LegacyKey : Key);
}

Result<TableUpdate> ParseSetStatistics(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* json, r.Required(kStatistics));
  FIRN_ASSIGN_OR_RETURN(StatisticsFile statistics, StatisticsFileFromJson(*json));
  FIRN_ASSIGN_OR_RETURN(std::optional<int64_t> snapshot_id, r.OptionalInt64(kSnapshotId));
  return SetStatistics{std::move(statistics), snapshot_id};
}

template <typename U, auto Read, const std::string_view& Key>
constexpr json_read::TaggedParser<TableUpdate> kField =
    json_read::FieldParser<TableUpdate, U, Read, Key>();

using json_read::Nested;

constexpr json_read::TaggedParser<TableUpdate> kParsers[] = {
    kField<AssignUuid, &FieldReader::String, kUuid>,
    kField<UpgradeFormatVersion, &FieldReader::Int, kFormatVersion>,
    {AddSchema::kAction, &ParseAddSchema},
    kField<SetCurrentSchema, &FieldReader::Int, kSchemaId>,
    kField<AddPartitionSpec, &WithDefaultId<&PartitionSpecFromJson, kSpecId>, kSpec>,
    kField<SetDefaultSpec, &FieldReader::Int, kSpecId>,
    kField<AddSortOrder, &WithDefaultId<&SortOrderFromJson, kOrderId>, kSortOrder>,
    kField<SetDefaultSortOrder, &FieldReader::Int, kSortOrderId>,
    kField<AddSnapshot, &Nested<&SnapshotFromJson>, kSnapshot>,
    {SetSnapshotRef::kAction, &ParseSetSnapshotRef},
    kField<RemoveSnapshots, &FieldReader::Int64Array, kSnapshotIds>,
    kField<RemoveSnapshotRef, &FieldReader::String, kRefName>,
    kField<SetLocation, &FieldReader::String, kLocation>,
    kField<SetProperties, &WithLegacyKey<&FieldReader::StringMap, kUpdates, kLegacyUpdated>,
           kUpdates>,
    kField<RemoveProperties,
           &WithLegacyKey<&FieldReader::StringArray, kRemovals, kLegacyRemoved>, kRemovals>,
    {SetStatistics::kAction, &ParseSetStatistics},
    kField<RemoveStatistics, &FieldReader::Int64, kSnapshotId>,
    kField<SetPartitionStatistics, &Nested<&PartitionStatisticsFileFromJson>,
           kPartitionStatistics>,
    kField<RemovePartitionStatistics, &FieldReader::Int64, kSnapshotId>,
    kField<RemovePartitionSpecs, &FieldReader::IntArray, kSpecIds>,
    kField<RemoveSchemas, &FieldReader::IntArray, kSchemaIds>,
    kField<AddEncryptionKey, &Nested<&EncryptionKeyFromJson>, kEncryptionKey>,
    kField<RemoveEncryptionKey, &FieldReader::String, kKeyId>,
};

// A stored JSON object with its identifying key forced to the typed value.
boost::json::object WithKey(boost::json::object json, std::string_view key,
                            boost::json::value value) {
  json[key] = std::move(value);
  return json;
}

}  // namespace

Result<int> ResolveLastAdded(int id, std::optional<int> last_added, std::string_view none_added) {
  if (id != kLastAdded) return id;
  if (!last_added) return Fail(ErrorKind::kValidation, std::string(none_added));
  return *last_added;
}

Result<TableUpdate> ParseTableUpdate(const boost::json::value& json) {
  return json_read::ParseTagged<TableUpdate>(json, "update", kAction, kParsers);
}

Result<std::vector<TableUpdate>> ParseTableUpdates(const boost::json::value& json) {
  return json_read::ParseArray(json, "updates", &ParseTableUpdate);
}

std::string_view TableUpdateAction(const TableUpdate& update) {
  return json_read::HeldTag(update);
}

boost::json::object TableUpdateToJson(const TableUpdate& update) {
  boost::json::object out;
  out[kAction] = TableUpdateAction(update);
  std::visit(
      Overloaded{
          [&](const AssignUuid& u) { out[kUuid] = u.uuid; },
          [&](const UpgradeFormatVersion& u) { out[kFormatVersion] = u.format_version; },
          [&](const AddSchema& u) {
            out[kSchema] = SchemaToJson(u.schema);
            if (u.last_column_id) out[kLastColumnId] = *u.last_column_id;
          },
          [&](const SetCurrentSchema& u) { out[kSchemaId] = u.schema_id; },
          [&](const AddPartitionSpec& u) { out[kSpec] = PartitionSpecToJson(u.spec); },
          [&](const SetDefaultSpec& u) { out[kSpecId] = u.spec_id; },
          [&](const AddSortOrder& u) { out[kSortOrder] = SortOrderToJson(u.sort_order); },
          [&](const SetDefaultSortOrder& u) { out[kSortOrderId] = u.sort_order_id; },
          [&](const AddSnapshot& u) { out[kSnapshot] = SnapshotToJson(u.snapshot); },
          [&](const SetSnapshotRef& u) {
            out[kRefName] = u.ref_name;
            out[kSnapshotId] = u.ref.snapshot_id;
            out[kType] = u.ref.type;
            if (u.ref.min_snapshots_to_keep) {
              out[kMinSnapshotsToKeep] = *u.ref.min_snapshots_to_keep;
            }
            if (u.ref.max_snapshot_age_ms) out[kMaxSnapshotAgeMs] = *u.ref.max_snapshot_age_ms;
            if (u.ref.max_ref_age_ms) out[kMaxRefAgeMs] = *u.ref.max_ref_age_ms;
          },
          [&](const RemoveSnapshots& u) { out[kSnapshotIds] = JsonArray(u.snapshot_ids); },
          [&](const RemoveSnapshotRef& u) { out[kRefName] = u.ref_name; },
          [&](const SetLocation& u) { out[kLocation] = u.location; },
          [&](const SetProperties& u) {
            boost::json::object updates;
            for (const auto& [key, value] : u.updates) updates[key] = value;
            out[kUpdates] = std::move(updates);
          },
          [&](const RemoveProperties& u) { out[kRemovals] = JsonArray(u.removals); },
          [&](const SetStatistics& u) {
            if (u.snapshot_id) out[kSnapshotId] = *u.snapshot_id;
            out[kStatistics] =
                WithKey(u.statistics.json, kSnapshotId, u.statistics.snapshot_id);
          },
          [&](const RemoveStatistics& u) { out[kSnapshotId] = u.snapshot_id; },
          [&](const SetPartitionStatistics& u) {
            out[kPartitionStatistics] = WithKey(u.partition_statistics.json, kSnapshotId,
                                                   u.partition_statistics.snapshot_id);
          },
          [&](const RemovePartitionStatistics& u) { out[kSnapshotId] = u.snapshot_id; },
          [&](const RemovePartitionSpecs& u) { out[kSpecIds] = JsonArray(u.spec_ids); },
          [&](const RemoveSchemas& u) { out[kSchemaIds] = JsonArray(u.schema_ids); },
          [&](const AddEncryptionKey& u) {
            out[kEncryptionKey] = WithKey(u.encryption_key.json, kKeyId,
                                             boost::json::string(u.encryption_key.key_id));
          },
          [&](const RemoveEncryptionKey& u) { out[kKeyId] = u.key_id; },
      },
      update);
  return out;
}

}  // namespace firn::metadata
