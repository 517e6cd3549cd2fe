#include "metadata/table_update.h"

#include <boost/json/array.hpp>

#include <algorithm>
#include <cctype>

#include "common/macros.h"
#include "metadata/serde.h"
#include "metadata/table_update_json.h"

namespace firn::metadata {

namespace {

constexpr std::string_view kActionKey = "action";
constexpr std::string_view kUuidKey = "uuid";
constexpr std::string_view kFormatVersionKey = "format-version";
constexpr std::string_view kSchemaKey = "schema";
constexpr std::string_view kSchemaIdKey = "schema-id";
constexpr std::string_view kLastColumnIdKey = "last-column-id";
constexpr std::string_view kSpecKey = "spec";
constexpr std::string_view kSpecIdKey = "spec-id";
constexpr std::string_view kSortOrderKey = "sort-order";
constexpr std::string_view kOrderIdKey = "order-id";
constexpr std::string_view kSortOrderIdKey = "sort-order-id";
constexpr std::string_view kSnapshotKey = "snapshot";
constexpr std::string_view kRefNameKey = "ref-name";
constexpr std::string_view kSnapshotIdKey = "snapshot-id";
constexpr std::string_view kSnapshotIdsKey = "snapshot-ids";
constexpr std::string_view kTypeKey = "type";
constexpr std::string_view kMinSnapshotsToKeepKey = "min-snapshots-to-keep";
constexpr std::string_view kMaxSnapshotAgeMsKey = "max-snapshot-age-ms";
constexpr std::string_view kMaxRefAgeMsKey = "max-ref-age-ms";
constexpr std::string_view kLocationKey = "location";
constexpr std::string_view kUpdatesKey = "updates";
constexpr std::string_view kLegacyUpdatedKey = "updated";
constexpr std::string_view kRemovalsKey = "removals";
constexpr std::string_view kLegacyRemovedKey = "removed";
constexpr std::string_view kStatisticsKey = "statistics";
constexpr std::string_view kPartitionStatisticsKey = "partition-statistics";
constexpr std::string_view kSpecIdsKey = "spec-ids";
constexpr std::string_view kSchemaIdsKey = "schema-ids";
constexpr std::string_view kEncryptionKeyKey = "encryption-key";
constexpr std::string_view kKeyIdKey = "key-id";

constexpr std::string_view kBranch = "branch";
constexpr std::string_view kTag = "tag";

using json_read::FieldReader;

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

// The REST spec marks schema-id / spec-id / order-id read-only in requests, so they may be
// absent; serde's parsers want them, and the builder ignores them anyway.
Result<boost::json::value> WithDefaultId(const FieldReader& r, std::string_view key,
                                         std::string_view id_key) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::object* object, r.Object(key));
  boost::json::object copy = *object;
  if (!copy.contains(id_key)) copy[id_key] = 0;
  return boost::json::value(std::move(copy));
}

using Parser = Result<TableUpdate> (*)(const FieldReader&);

Result<TableUpdate> ParseAssignUuid(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(std::string uuid, r.String(kUuidKey));
  return AssignUuid{std::move(uuid)};
}

Result<TableUpdate> ParseUpgradeFormatVersion(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int version, r.Int(kFormatVersionKey));
  return UpgradeFormatVersion{version};
}

Result<TableUpdate> ParseAddSchema(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(boost::json::value json, WithDefaultId(r, kSchemaKey, kSchemaIdKey));
  FIRN_ASSIGN_OR_RETURN(Schema schema, SchemaFromJson(json));
  FIRN_ASSIGN_OR_RETURN(std::optional<int> last_column_id, r.OptionalInt(kLastColumnIdKey));
  return AddSchema{std::move(schema), last_column_id};
}

Result<TableUpdate> ParseSetCurrentSchema(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int id, r.Int(kSchemaIdKey));
  return SetCurrentSchema{id};
}

Result<TableUpdate> ParseAddPartitionSpec(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(boost::json::value json, WithDefaultId(r, kSpecKey, kSpecIdKey));
  FIRN_ASSIGN_OR_RETURN(PartitionSpec spec, PartitionSpecFromJson(json));
  return AddPartitionSpec{std::move(spec)};
}

Result<TableUpdate> ParseSetDefaultSpec(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int id, r.Int(kSpecIdKey));
  return SetDefaultSpec{id};
}

Result<TableUpdate> ParseAddSortOrder(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(boost::json::value json, WithDefaultId(r, kSortOrderKey, kOrderIdKey));
  FIRN_ASSIGN_OR_RETURN(SortOrder order, SortOrderFromJson(json));
  return AddSortOrder{std::move(order)};
}

Result<TableUpdate> ParseSetDefaultSortOrder(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int id, r.Int(kSortOrderIdKey));
  return SetDefaultSortOrder{id};
}

Result<TableUpdate> ParseAddSnapshot(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* json, r.Required(kSnapshotKey));
  FIRN_ASSIGN_OR_RETURN(Snapshot snapshot, SnapshotFromJson(*json));
  return AddSnapshot{std::move(snapshot)};
}

Result<TableUpdate> ParseSetSnapshotRef(const FieldReader& r) {
  SetSnapshotRef update;
  FIRN_ASSIGN_OR_RETURN(update.ref_name, r.String(kRefNameKey));
  FIRN_ASSIGN_OR_RETURN(update.ref.snapshot_id, r.Int64(kSnapshotIdKey));
  FIRN_ASSIGN_OR_RETURN(std::string type, r.String(kTypeKey));
  // Java reads the type case-insensitively; store the spec's lowercase form.
  std::ranges::transform(type, type.begin(),
                         [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (type != kBranch && type != kTag) return Fail(r.WrongType(kTypeKey, "'branch' or 'tag'"));
  update.ref.type = std::move(type);
  FIRN_ASSIGN_OR_RETURN(update.ref.min_snapshots_to_keep, r.OptionalInt(kMinSnapshotsToKeepKey));
  FIRN_ASSIGN_OR_RETURN(update.ref.max_snapshot_age_ms, r.OptionalInt64(kMaxSnapshotAgeMsKey));
  FIRN_ASSIGN_OR_RETURN(update.ref.max_ref_age_ms, r.OptionalInt64(kMaxRefAgeMsKey));
  return update;
}

Result<TableUpdate> ParseRemoveSnapshots(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(std::vector<int64_t> ids, r.Int64Array(kSnapshotIdsKey));
  return RemoveSnapshots{std::move(ids)};
}

Result<TableUpdate> ParseRemoveSnapshotRef(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(std::string name, r.String(kRefNameKey));
  return RemoveSnapshotRef{std::move(name)};
}

Result<TableUpdate> ParseSetLocation(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(std::string location, r.String(kLocationKey));
  return SetLocation{std::move(location)};
}

Result<TableUpdate> ParseSetProperties(const FieldReader& r) {
  std::string_view key = r.Find(kUpdatesKey) == nullptr && r.Find(kLegacyUpdatedKey) != nullptr
                             ? kLegacyUpdatedKey
                             : kUpdatesKey;
  FIRN_ASSIGN_OR_RETURN(auto updates, r.StringMap(key));
  return SetProperties{std::move(updates)};
}

Result<TableUpdate> ParseRemoveProperties(const FieldReader& r) {
  std::string_view key = r.Find(kRemovalsKey) == nullptr && r.Find(kLegacyRemovedKey) != nullptr
                             ? kLegacyRemovedKey
                             : kRemovalsKey;
  FIRN_ASSIGN_OR_RETURN(std::vector<std::string> removals, r.StringArray(key));
  return RemoveProperties{std::move(removals)};
}

Result<TableUpdate> ParseSetStatistics(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* json, r.Required(kStatisticsKey));
  FIRN_ASSIGN_OR_RETURN(StatisticsFile statistics, StatisticsFileFromJson(*json));
  FIRN_ASSIGN_OR_RETURN(std::optional<int64_t> snapshot_id, r.OptionalInt64(kSnapshotIdKey));
  return SetStatistics{std::move(statistics), snapshot_id};
}

Result<TableUpdate> ParseRemoveStatistics(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int64_t id, r.Int64(kSnapshotIdKey));
  return RemoveStatistics{id};
}

Result<TableUpdate> ParseSetPartitionStatistics(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* json, r.Required(kPartitionStatisticsKey));
  FIRN_ASSIGN_OR_RETURN(PartitionStatisticsFile file, PartitionStatisticsFileFromJson(*json));
  return SetPartitionStatistics{std::move(file)};
}

Result<TableUpdate> ParseRemovePartitionStatistics(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(int64_t id, r.Int64(kSnapshotIdKey));
  return RemovePartitionStatistics{id};
}

Result<TableUpdate> ParseRemovePartitionSpecs(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(std::vector<int> ids, r.IntArray(kSpecIdsKey));
  return RemovePartitionSpecs{std::move(ids)};
}

Result<TableUpdate> ParseRemoveSchemas(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(std::vector<int> ids, r.IntArray(kSchemaIdsKey));
  return RemoveSchemas{std::move(ids)};
}

Result<TableUpdate> ParseAddEncryptionKey(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* json, r.Required(kEncryptionKeyKey));
  FIRN_ASSIGN_OR_RETURN(EncryptionKey key, EncryptionKeyFromJson(*json));
  return AddEncryptionKey{std::move(key)};
}

Result<TableUpdate> ParseRemoveEncryptionKey(const FieldReader& r) {
  FIRN_ASSIGN_OR_RETURN(std::string key_id, r.String(kKeyIdKey));
  return RemoveEncryptionKey{std::move(key_id)};
}

struct ParserEntry {
  std::string_view action;
  Parser parse;
};

constexpr ParserEntry kParsers[] = {
    {AssignUuid::kAction, &ParseAssignUuid},
    {UpgradeFormatVersion::kAction, &ParseUpgradeFormatVersion},
    {AddSchema::kAction, &ParseAddSchema},
    {SetCurrentSchema::kAction, &ParseSetCurrentSchema},
    {AddPartitionSpec::kAction, &ParseAddPartitionSpec},
    {SetDefaultSpec::kAction, &ParseSetDefaultSpec},
    {AddSortOrder::kAction, &ParseAddSortOrder},
    {SetDefaultSortOrder::kAction, &ParseSetDefaultSortOrder},
    {AddSnapshot::kAction, &ParseAddSnapshot},
    {SetSnapshotRef::kAction, &ParseSetSnapshotRef},
    {RemoveSnapshots::kAction, &ParseRemoveSnapshots},
    {RemoveSnapshotRef::kAction, &ParseRemoveSnapshotRef},
    {SetLocation::kAction, &ParseSetLocation},
    {SetProperties::kAction, &ParseSetProperties},
    {RemoveProperties::kAction, &ParseRemoveProperties},
    {SetStatistics::kAction, &ParseSetStatistics},
    {RemoveStatistics::kAction, &ParseRemoveStatistics},
    {SetPartitionStatistics::kAction, &ParseSetPartitionStatistics},
    {RemovePartitionStatistics::kAction, &ParseRemovePartitionStatistics},
    {RemovePartitionSpecs::kAction, &ParseRemovePartitionSpecs},
    {RemoveSchemas::kAction, &ParseRemoveSchemas},
    {AddEncryptionKey::kAction, &ParseAddEncryptionKey},
    {RemoveEncryptionKey::kAction, &ParseRemoveEncryptionKey},
};

template <typename T>
boost::json::array ToArray(const std::vector<T>& items) {
  boost::json::array out;
  out.reserve(items.size());
  for (const T& item : items) out.emplace_back(item);
  return out;
}

// A stored JSON object with its identifying key forced to the typed value.
boost::json::object WithKey(boost::json::object json, std::string_view key,
                            boost::json::value value) {
  json[key] = std::move(value);
  return json;
}

}  // namespace

Result<TableUpdate> ParseTableUpdate(const boost::json::value& json) {
  if (!json.is_object()) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse update: not a JSON object");
  }
  FIRN_ASSIGN_OR_RETURN(std::string action,
                        FieldReader(json.get_object(), "update").String(kActionKey));
  for (const ParserEntry& entry : kParsers) {
    if (entry.action == action) {
      return entry.parse(FieldReader(json.get_object(), "update " + action));
    }
  }
  return Fail(ErrorKind::kBadRequest,
              "Cannot parse update: unknown action '" + json_read::Truncate(action) + "'");
}

Result<std::vector<TableUpdate>> ParseTableUpdates(const boost::json::value& json) {
  if (!json.is_array()) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse updates: not a JSON array");
  }
  std::vector<TableUpdate> out;
  out.reserve(json.get_array().size());
  for (const boost::json::value& item : json.get_array()) {
    FIRN_ASSIGN_OR_RETURN(TableUpdate update, ParseTableUpdate(item));
    out.push_back(std::move(update));
  }
  return out;
}

std::string_view TableUpdateAction(const TableUpdate& update) {
  return std::visit([](const auto& u) { return std::decay_t<decltype(u)>::kAction; }, update);
}

boost::json::object TableUpdateToJson(const TableUpdate& update) {
  boost::json::object out;
  out[kActionKey] = TableUpdateAction(update);
  std::visit(
      Overloaded{
          [&](const AssignUuid& u) { out[kUuidKey] = u.uuid; },
          [&](const UpgradeFormatVersion& u) { out[kFormatVersionKey] = u.format_version; },
          [&](const AddSchema& u) {
            out[kSchemaKey] = SchemaToJson(u.schema);
            if (u.last_column_id) out[kLastColumnIdKey] = *u.last_column_id;
          },
          [&](const SetCurrentSchema& u) { out[kSchemaIdKey] = u.schema_id; },
          [&](const AddPartitionSpec& u) { out[kSpecKey] = PartitionSpecToJson(u.spec); },
          [&](const SetDefaultSpec& u) { out[kSpecIdKey] = u.spec_id; },
          [&](const AddSortOrder& u) { out[kSortOrderKey] = SortOrderToJson(u.sort_order); },
          [&](const SetDefaultSortOrder& u) { out[kSortOrderIdKey] = u.sort_order_id; },
          [&](const AddSnapshot& u) { out[kSnapshotKey] = SnapshotToJson(u.snapshot); },
          [&](const SetSnapshotRef& u) {
            out[kRefNameKey] = u.ref_name;
            out[kSnapshotIdKey] = u.ref.snapshot_id;
            out[kTypeKey] = u.ref.type;
            if (u.ref.min_snapshots_to_keep) {
              out[kMinSnapshotsToKeepKey] = *u.ref.min_snapshots_to_keep;
            }
            if (u.ref.max_snapshot_age_ms) out[kMaxSnapshotAgeMsKey] = *u.ref.max_snapshot_age_ms;
            if (u.ref.max_ref_age_ms) out[kMaxRefAgeMsKey] = *u.ref.max_ref_age_ms;
          },
          [&](const RemoveSnapshots& u) { out[kSnapshotIdsKey] = ToArray(u.snapshot_ids); },
          [&](const RemoveSnapshotRef& u) { out[kRefNameKey] = u.ref_name; },
          [&](const SetLocation& u) { out[kLocationKey] = u.location; },
          [&](const SetProperties& u) {
            boost::json::object updates;
            for (const auto& [key, value] : u.updates) updates[key] = value;
            out[kUpdatesKey] = std::move(updates);
          },
          [&](const RemoveProperties& u) { out[kRemovalsKey] = ToArray(u.removals); },
          [&](const SetStatistics& u) {
            if (u.snapshot_id) out[kSnapshotIdKey] = *u.snapshot_id;
            out[kStatisticsKey] =
                WithKey(u.statistics.json, kSnapshotIdKey, u.statistics.snapshot_id);
          },
          [&](const RemoveStatistics& u) { out[kSnapshotIdKey] = u.snapshot_id; },
          [&](const SetPartitionStatistics& u) {
            out[kPartitionStatisticsKey] = WithKey(u.partition_statistics.json, kSnapshotIdKey,
                                                   u.partition_statistics.snapshot_id);
          },
          [&](const RemovePartitionStatistics& u) { out[kSnapshotIdKey] = u.snapshot_id; },
          [&](const RemovePartitionSpecs& u) { out[kSpecIdsKey] = ToArray(u.spec_ids); },
          [&](const RemoveSchemas& u) { out[kSchemaIdsKey] = ToArray(u.schema_ids); },
          [&](const AddEncryptionKey& u) {
            out[kEncryptionKeyKey] = WithKey(u.encryption_key.json, kKeyIdKey,
                                             boost::json::string(u.encryption_key.key_id));
          },
          [&](const RemoveEncryptionKey& u) { out[kKeyIdKey] = u.key_id; },
      },
      update);
  return out;
}

}  // namespace firn::metadata
