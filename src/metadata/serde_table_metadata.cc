// Whole table metadata documents (table spec, "Table Metadata Fields" and Appendix C),
// including the v1 legacy forms (`schema`, `partition-spec`, missing lists).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <utility>

#include "common/macros.h"
#include "metadata/serde.h"
#include "metadata/serde_util.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {
constexpr std::string_view kFormatVersion = "format-version";
constexpr std::string_view kTableUuid = "table-uuid";
constexpr std::string_view kLocation = "location";
constexpr std::string_view kLastSequenceNumber = "last-sequence-number";
constexpr std::string_view kLastUpdatedMs = "last-updated-ms";
constexpr std::string_view kLastColumnId = "last-column-id";
constexpr std::string_view kSchema = "schema";
constexpr std::string_view kSchemas = "schemas";
constexpr std::string_view kCurrentSchemaId = "current-schema-id";
constexpr std::string_view kPartitionSpec = "partition-spec";
constexpr std::string_view kPartitionSpecs = "partition-specs";
constexpr std::string_view kDefaultSpecId = "default-spec-id";
constexpr std::string_view kLastPartitionId = "last-partition-id";
constexpr std::string_view kSortOrders = "sort-orders";
constexpr std::string_view kDefaultSortOrderId = "default-sort-order-id";
constexpr std::string_view kProperties = "properties";
constexpr std::string_view kCurrentSnapshotId = "current-snapshot-id";
constexpr std::string_view kNextRowId = "next-row-id";
constexpr std::string_view kEncryptionKeys = "encryption-keys";
constexpr std::string_view kRefs = "refs";
constexpr std::string_view kSnapshots = "snapshots";
constexpr std::string_view kStatistics = "statistics";
constexpr std::string_view kPartitionStatistics = "partition-statistics";
constexpr std::string_view kSnapshotLog = "snapshot-log";
constexpr std::string_view kMetadataLog = "metadata-log";
constexpr std::string_view kFields = "fields";
constexpr std::string_view kSpecId = "spec-id";
constexpr std::string_view kTimestampMs = "timestamp-ms";
constexpr std::string_view kSnapshotId = "snapshot-id";
constexpr std::string_view kMetadataFile = "metadata-file";
constexpr std::string_view kMainBranch = "main";
constexpr int kRowLineageMinFormatVersion = 3;
// Boost's default (32) is too shallow for deeply nested schemas.
constexpr size_t kMaxJsonDepth = 512;

// Parses every element of an optional list with `parse`.
template <typename T, typename Parse>
Result<std::vector<T>> ParseList(const JsonReader& r, std::string_view key, Parse parse) {
  FIRN_ASSIGN_OR_RETURN(const json::array* items, r.OptArray(key));
  std::vector<T> out;
  if (items == nullptr) return out;
  out.reserve(items->size());
  for (const json::value& item : *items) {
    FIRN_ASSIGN_OR_RETURN(T parsed, parse(item));
    out.push_back(std::move(parsed));
  }
  return out;
}

// Partition fields without `field-id` (v1 files) get ids like Java's v1 builder: 1000, 1001, ...
void AssignMissingPartitionFieldIds(PartitionSpec& spec) {
  int last = kPartitionFieldIdStart - 1;
  for (PartitionField& f : spec.fields) {
    if (f.field_id) {
      last = std::max(last, *f.field_id);
    } else {
      f.field_id = ++last;
    }
  }
}

Result<SnapshotLogEntry> SnapshotLogEntryFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "snapshot-log entry"));
  SnapshotLogEntry e;
  FIRN_ASSIGN_OR_RETURN(e.timestamp_ms, r.Long(kTimestampMs));
  FIRN_ASSIGN_OR_RETURN(e.snapshot_id, r.Long(kSnapshotId));
  return e;
}

Result<MetadataLogEntry> MetadataLogEntryFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "metadata-log entry"));
  MetadataLogEntry e;
  FIRN_ASSIGN_OR_RETURN(e.timestamp_ms, r.Long(kTimestampMs));
  FIRN_ASSIGN_OR_RETURN(e.metadata_file, r.String(kMetadataFile));
  return e;
}

std::unexpected<Error> Invalid(std::string why) {
  return Fail(ErrorKind::kBadRequest, "Cannot parse table metadata: " + std::move(why));
}

Status ReadSchemas(const JsonReader& r, TableMetadata& m) {
  FIRN_ASSIGN_OR_RETURN(m.schemas, ParseList<Schema>(r, kSchemas, SchemaFromJson));
  if (r.Has(kSchemas)) {
    FIRN_ASSIGN_OR_RETURN(std::optional<int> current, r.OptInt(kCurrentSchemaId));
    if (!current) {
      // v1 writers may omit current-schema-id; the legacy `schema` names it.
      if (m.format_version > 1 || !r.Has(kSchema)) return r.Missing(kCurrentSchemaId);
      FIRN_ASSIGN_OR_RETURN(Schema legacy, SchemaFromJson(r.object().at(kSchema)));
      current = legacy.schema_id;
    }
    m.current_schema_id = *current;
    if (m.FindSchema(m.current_schema_id) == nullptr) {
      return Invalid("current-schema-id does not match any schema");
    }
    return Ok();
  }
  if (m.format_version > 1 || !r.Has(kSchema)) return r.Missing(kSchemas);
  FIRN_ASSIGN_OR_RETURN(Schema legacy, SchemaFromJson(r.object().at(kSchema)));
  m.current_schema_id = legacy.schema_id;
  m.schemas.push_back(std::move(legacy));
  return Ok();
}

Status ReadSpecs(const JsonReader& r, TableMetadata& m) {
  if (r.Has(kPartitionSpecs)) {
    FIRN_ASSIGN_OR_RETURN(const json::array* specs, r.Array(kPartitionSpecs));
    for (const json::value& s : *specs) {
      if (!s.is_object() || !s.get_object().contains(kSpecId)) {
        return Fail(ErrorKind::kBadRequest,
                    "Cannot parse partition spec: missing field 'spec-id'");
      }
      FIRN_ASSIGN_OR_RETURN(PartitionSpec spec, PartitionSpecFromJson(s));
      m.partition_specs.push_back(std::move(spec));
    }
    FIRN_ASSIGN_OR_RETURN(m.default_spec_id, r.Int(kDefaultSpecId));
  } else {
    if (m.format_version > 1) return r.Missing(kPartitionSpecs);
    // v1 legacy: the default spec's field list, spec-id 0.
    FIRN_ASSIGN_OR_RETURN(const json::array* fields, r.Array(kPartitionSpec));
    json::object wrapped;
    wrapped[kSpecId] = 0;
    wrapped[kFields] = *fields;
    FIRN_ASSIGN_OR_RETURN(PartitionSpec spec, PartitionSpecFromJson(wrapped));
    m.partition_specs.push_back(std::move(spec));
    m.default_spec_id = 0;
  }
  if (m.FindSpec(m.default_spec_id) == nullptr) {
    return Invalid("default-spec-id does not match any partition spec");
  }
  int max_field_id = kUnpartitionedLastPartitionId;
  for (PartitionSpec& spec : m.partition_specs) {
    AssignMissingPartitionFieldIds(spec);
    for (const PartitionField& f : spec.fields) max_field_id = std::max(max_field_id, *f.field_id);
  }
  FIRN_ASSIGN_OR_RETURN(std::optional<int> last, r.OptInt(kLastPartitionId));
  if (!last && m.format_version > 1) return r.Missing(kLastPartitionId);
  m.last_partition_id = last.value_or(max_field_id);
  return Ok();
}

Status ReadSortOrders(const JsonReader& r, TableMetadata& m) {
  if (!r.Has(kSortOrders)) {
    if (m.format_version > 1) return r.Missing(kSortOrders);
    m.sort_orders = {SortOrder{}};  // v1 without sort orders: unsorted, id 0
    m.default_sort_order_id = 0;
    return Ok();
  }
  FIRN_ASSIGN_OR_RETURN(m.sort_orders, ParseList<SortOrder>(r, kSortOrders, SortOrderFromJson));
  FIRN_ASSIGN_OR_RETURN(m.default_sort_order_id, r.Int(kDefaultSortOrderId));
  if (m.FindSortOrder(m.default_sort_order_id) == nullptr) {
    return Invalid("default-sort-order-id does not match any sort order");
  }
  return Ok();
}

Status ReadRefs(const JsonReader& r, TableMetadata& m) {
  FIRN_ASSIGN_OR_RETURN(const json::object* refs, r.OptObject(kRefs));
  if (refs == nullptr) {
    // Without refs, the current snapshot is the implicit main branch.
    if (m.current_snapshot_id) {
      m.refs.emplace(std::string(kMainBranch), SnapshotRef{"branch", *m.current_snapshot_id});
    }
    return Ok();
  }
  for (const auto& [name, value] : *refs) {
    FIRN_ASSIGN_OR_RETURN(SnapshotRef ref, SnapshotRefFromJson(value));
    m.refs.emplace(std::string(name), std::move(ref));
  }
  return Ok();
}

template <typename T>
json::array JsonObjects(const std::vector<T>& items) {
  json::array out;
  out.reserve(items.size());
  for (const T& item : items) out.emplace_back(item.json);
  return out;
}

}  // namespace

Result<TableMetadata> TableMetadataFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "table metadata"));
  TableMetadata m;
  FIRN_ASSIGN_OR_RETURN(m.format_version, r.Int(kFormatVersion));
  if (m.format_version < 1 || m.format_version > kMaxFormatVersion) {
    return Invalid("unsupported format-version " + std::to_string(m.format_version));
  }
  FIRN_ASSIGN_OR_RETURN(std::optional<std::string> uuid, r.OptString(kTableUuid));
  if (!uuid && m.format_version > 1) return r.Missing(kTableUuid);
  m.table_uuid = uuid.value_or("");
  FIRN_ASSIGN_OR_RETURN(m.location, r.String(kLocation));
  if (m.format_version > 1) {
    FIRN_ASSIGN_OR_RETURN(m.last_sequence_number, r.Long(kLastSequenceNumber));
  }
  FIRN_ASSIGN_OR_RETURN(m.last_updated_ms, r.Long(kLastUpdatedMs));
  FIRN_ASSIGN_OR_RETURN(m.last_column_id, r.Int(kLastColumnId));
  FIRN_RETURN_IF_ERROR(ReadSchemas(r, m));
  FIRN_RETURN_IF_ERROR(ReadSpecs(r, m));
  FIRN_RETURN_IF_ERROR(ReadSortOrders(r, m));
  FIRN_ASSIGN_OR_RETURN(m.properties, r.StringMap(kProperties));
  // "None" is -1 in v1/v2 files written by Java, null or absent elsewhere.
  FIRN_ASSIGN_OR_RETURN(m.current_snapshot_id, r.OptLong(kCurrentSnapshotId));
  if (m.current_snapshot_id == -1) m.current_snapshot_id.reset();
  if (m.format_version >= kRowLineageMinFormatVersion) {
    FIRN_ASSIGN_OR_RETURN(int64_t next_row_id, r.Long(kNextRowId));
    m.next_row_id = next_row_id;
  }
  FIRN_ASSIGN_OR_RETURN(m.encryption_keys,
                        ParseList<EncryptionKey>(r, kEncryptionKeys, EncryptionKeyFromJson));
  FIRN_RETURN_IF_ERROR(ReadRefs(r, m));
  FIRN_ASSIGN_OR_RETURN(m.snapshots, ParseList<Snapshot>(r, kSnapshots, SnapshotFromJson));
  FIRN_ASSIGN_OR_RETURN(m.statistics,
                        ParseList<StatisticsFile>(r, kStatistics, StatisticsFileFromJson));
  FIRN_ASSIGN_OR_RETURN(m.partition_statistics,
                        ParseList<PartitionStatisticsFile>(r, kPartitionStatistics,
                                                           PartitionStatisticsFileFromJson));
  FIRN_ASSIGN_OR_RETURN(m.snapshot_log,
                        ParseList<SnapshotLogEntry>(r, kSnapshotLog, SnapshotLogEntryFromJson));
  FIRN_ASSIGN_OR_RETURN(m.metadata_log,
                        ParseList<MetadataLogEntry>(r, kMetadataLog, MetadataLogEntryFromJson));
  return m;
}

Result<TableMetadata> ParseTableMetadata(std::string_view json_text) {
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = kMaxJsonDepth;
  json::value value = json::parse(json_text, ec, {}, options);
  if (ec) return Invalid("invalid JSON");
  return TableMetadataFromJson(value);
}

json::object TableMetadataToJson(const TableMetadata& m) {
  const bool v1 = m.format_version == 1;
  json::object out;
  out[kFormatVersion] = m.format_version;
  if (!m.table_uuid.empty()) out[kTableUuid] = m.table_uuid;
  out[kLocation] = m.location;
  if (!v1) out[kLastSequenceNumber] = m.last_sequence_number;
  out[kLastUpdatedMs] = m.last_updated_ms;
  out[kLastColumnId] = m.last_column_id;
  if (v1) {
    if (const Schema* current = m.CurrentSchema()) out[kSchema] = SchemaToJson(*current);
  }
  out[kCurrentSchemaId] = m.current_schema_id;
  json::array schemas;
  for (const Schema& s : m.schemas) schemas.emplace_back(SchemaToJson(s));
  out[kSchemas] = std::move(schemas);
  if (v1) {
    if (const PartitionSpec* spec = m.FindSpec(m.default_spec_id)) {
      out[kPartitionSpec] = PartitionSpecToJson(*spec).at(kFields);
    }
  }
  out[kDefaultSpecId] = m.default_spec_id;
  json::array specs;
  for (const PartitionSpec& s : m.partition_specs) specs.emplace_back(PartitionSpecToJson(s));
  out[kPartitionSpecs] = std::move(specs);
  out[kLastPartitionId] = m.last_partition_id;
  out[kDefaultSortOrderId] = m.default_sort_order_id;
  json::array orders;
  for (const SortOrder& o : m.sort_orders) orders.emplace_back(SortOrderToJson(o));
  out[kSortOrders] = std::move(orders);
  out[kProperties] = StringObject(m.properties);
  if (m.current_snapshot_id) {
    out[kCurrentSnapshotId] = *m.current_snapshot_id;
  } else if (m.format_version >= 3) {
    out[kCurrentSnapshotId] = nullptr;
  } else {
    out[kCurrentSnapshotId] = -1;
  }
  if (m.format_version >= kRowLineageMinFormatVersion) out[kNextRowId] = m.next_row_id.value_or(0);
  if (!m.encryption_keys.empty()) {
    json::array keys;
    for (const EncryptionKey& k : m.encryption_keys) keys.emplace_back(k.json);
    out[kEncryptionKeys] = std::move(keys);
  }
  json::object refs;
  for (const auto& [name, ref] : m.refs) refs[name] = SnapshotRefToJson(ref);
  out[kRefs] = std::move(refs);
  json::array snapshots;
  for (const Snapshot& s : m.snapshots) snapshots.emplace_back(SnapshotToJson(s));
  out[kSnapshots] = std::move(snapshots);
  out[kStatistics] = JsonObjects(m.statistics);
  out[kPartitionStatistics] = JsonObjects(m.partition_statistics);
  json::array snapshot_log;
  for (const SnapshotLogEntry& e : m.snapshot_log) {
    snapshot_log.emplace_back(json::object{{kTimestampMs, e.timestamp_ms}, {kSnapshotId, e.snapshot_id}});
  }
  out[kSnapshotLog] = std::move(snapshot_log);
  json::array metadata_log;
  for (const MetadataLogEntry& e : m.metadata_log) {
    metadata_log.emplace_back(
        json::object{{kTimestampMs, e.timestamp_ms}, {kMetadataFile, e.metadata_file}});
  }
  out[kMetadataLog] = std::move(metadata_log);
  return out;
}

std::string SerializeTableMetadata(const TableMetadata& metadata) {
  return json::serialize(TableMetadataToJson(metadata));
}

}  // namespace firn::metadata
