// JSON (de)serialisation of the table metadata model, per the Iceberg table spec.
//
// Parsers validate shape and types and return kBadRequest with a message naming the field
// (e.g. "Cannot parse snapshot: missing field 'snapshot-id'"); they never echo the input.
// Writers emit spec field names in Java's order (docs/metadata-serde.md), compact.
#pragma once

#include <boost/json/value.hpp>

#include <string>
#include <string_view>

#include "common/result.h"
#include "metadata/table_metadata.h"

namespace firn::metadata {

// True when every number in `json` is finite. JSON has no Infinity or NaN, but a literal beyond
// a double's range (1e309, or 310 digits) parses as infinity and would be written back as
// `Infinity`, which no reader accepts: every parser of documents and request bodies refuses it.
bool AllNumbersFinite(const boost::json::value& json);

// Whole documents.
Result<TableMetadata> ParseTableMetadata(std::string_view json_text);
Result<TableMetadata> TableMetadataFromJson(const boost::json::value& json);
boost::json::object TableMetadataToJson(const TableMetadata& metadata);
std::string SerializeTableMetadata(const TableMetadata& metadata);

// Parts (used by update parsing and by create-table requests).
Result<Schema> SchemaFromJson(const boost::json::value& json);
boost::json::object SchemaToJson(const Schema& schema);
// `format_version` decides which type names are legal ("variant is not supported until v3").
Status ValidateSchemaTypes(const Schema& schema, int format_version);
Result<PartitionSpec> PartitionSpecFromJson(const boost::json::value& json);
boost::json::object PartitionSpecToJson(const PartitionSpec& spec);
Result<SortOrder> SortOrderFromJson(const boost::json::value& json);
boost::json::object SortOrderToJson(const SortOrder& order);
Result<Snapshot> SnapshotFromJson(const boost::json::value& json);
boost::json::object SnapshotToJson(const Snapshot& snapshot);
Result<SnapshotRef> SnapshotRefFromJson(const boost::json::value& json);
boost::json::object SnapshotRefToJson(const SnapshotRef& ref);
Result<StatisticsFile> StatisticsFileFromJson(const boost::json::value& json);
Result<PartitionStatisticsFile> PartitionStatisticsFileFromJson(const boost::json::value& json);
Result<EncryptionKey> EncryptionKeyFromJson(const boost::json::value& json);

// Highest field id anywhere in the schema's (nested) field tree; 0 for an empty schema.
int MaxFieldId(const Schema& schema);
// Schemas equal ignoring schema-id (used to reuse an existing schema's id).
bool SameSchemaStructure(const Schema& a, const Schema& b);

}  // namespace firn::metadata
