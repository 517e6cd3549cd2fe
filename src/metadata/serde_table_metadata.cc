// Whole table metadata documents (table spec, "Table Metadata Fields" and Appendix C),
// including the v1 legacy forms (`schema`, `partition-spec`, missing lists).
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <utility>

#include "common/macros.h"
#include "metadata/json_keys.h"
#include "metadata/serde.h"
#include "metadata/serde_util.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {
constexpr int kRowLineageMinFormatVersion = 3;

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

using SnapshotLogJson = JsonRecord<SnapshotLogEntry,
                                   Field<&SnapshotLogEntry::timestamp_ms, kTimestampMs>,
                                   Field<&SnapshotLogEntry::snapshot_id, kSnapshotId>>;
using MetadataLogJson = JsonRecord<MetadataLogEntry,
                                   Field<&MetadataLogEntry::timestamp_ms, kTimestampMs>,
                                   Field<&MetadataLogEntry::metadata_file, kMetadataFile>>;

Result<SnapshotLogEntry> SnapshotLogEntryFromJson(const json::value& value) {
  return SnapshotLogJson::Read(value, "snapshot-log entry");
}

Result<MetadataLogEntry> MetadataLogEntryFromJson(const json::value& value) {
  return MetadataLogJson::Read(value, "metadata-log entry");
}

std::unexpected<Error> Invalid(std::string why) {
  return Fail(ErrorKind::kBadRequest, "Cannot parse table metadata: " + std::move(why));
}

Status ReadSchemas(const JsonReader& r, TableMetadata& m) {
  FIRN_ASSIGN_OR_RETURN(m.schemas, OptionalList<Schema>(r, kSchemas, SchemaFromJson));
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
  FIRN_ASSIGN_OR_RETURN(m.sort_orders, OptionalList<SortOrder>(r, kSortOrders, SortOrderFromJson));
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
      m.refs.emplace(std::string(kMainBranch),
                     SnapshotRef{std::string(kBranch), *m.current_snapshot_id});
    }
    return Ok();
  }
  for (const auto& [name, value] : *refs) {
    FIRN_ASSIGN_OR_RETURN(SnapshotRef ref, SnapshotRefFromJson(value));
    m.refs.emplace(std::string(name), std::move(ref));
  }
  return Ok();
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
                        OptionalList<EncryptionKey>(r, kEncryptionKeys, EncryptionKeyFromJson));
  FIRN_RETURN_IF_ERROR(ReadRefs(r, m));
  FIRN_ASSIGN_OR_RETURN(m.snapshots, OptionalList<Snapshot>(r, kSnapshots, SnapshotFromJson));
  FIRN_ASSIGN_OR_RETURN(m.statistics,
                        OptionalList<StatisticsFile>(r, kStatistics, StatisticsFileFromJson));
  FIRN_ASSIGN_OR_RETURN(m.partition_statistics,
                        OptionalList<PartitionStatisticsFile>(r, kPartitionStatistics,
                                                           PartitionStatisticsFileFromJson));
  FIRN_ASSIGN_OR_RETURN(m.snapshot_log,
                        OptionalList<SnapshotLogEntry>(r, kSnapshotLog, SnapshotLogEntryFromJson));
  FIRN_ASSIGN_OR_RETURN(m.metadata_log,
                        OptionalList<MetadataLogEntry>(r, kMetadataLog, MetadataLogEntryFromJson));
  return m;
}

Result<TableMetadata> ParseTableMetadata(std::string_view json_text) {
  FIRN_ASSIGN_OR_RETURN(json::value value, ParseJsonDocument(json_text, "table metadata"));
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
  out[kSchemas] = JsonArray(m.schemas, SchemaToJson);
  if (v1) {
    if (const PartitionSpec* spec = m.FindSpec(m.default_spec_id)) {
      out[kPartitionSpec] = PartitionSpecToJson(*spec).at(kFields);
    }
  }
  out[kDefaultSpecId] = m.default_spec_id;
  out[kPartitionSpecs] = JsonArray(m.partition_specs, PartitionSpecToJson);
  out[kLastPartitionId] = m.last_partition_id;
  out[kDefaultSortOrderId] = m.default_sort_order_id;
  out[kSortOrders] = JsonArray(m.sort_orders, SortOrderToJson);
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
    out[kEncryptionKeys] = JsonArray(m.encryption_keys, &EncryptionKey::json);
  }
  json::object refs;
  for (const auto& [name, ref] : m.refs) refs[name] = SnapshotRefToJson(ref);
  out[kRefs] = std::move(refs);
  out[kSnapshots] = JsonArray(m.snapshots, SnapshotToJson);
  out[kStatistics] = JsonArray(m.statistics, &StatisticsFile::json);
  out[kPartitionStatistics] = JsonArray(m.partition_statistics, &PartitionStatisticsFile::json);
  out[kSnapshotLog] = JsonArray(m.snapshot_log, &SnapshotLogJson::Write);
  out[kMetadataLog] = JsonArray(m.metadata_log, &MetadataLogJson::Write);
  return out;
}

std::string SerializeTableMetadata(const TableMetadata& metadata) {
  return json::serialize(TableMetadataToJson(metadata));
}

}  // namespace firn::metadata
