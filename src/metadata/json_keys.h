// The JSON field names of the Iceberg table spec (metadata files) and the REST spec (updates
// and requirements), each written once for every reader and writer in metadata/.
//
// Contract: compile-time constants; thread-safe.
#pragma once

#include <string_view>

namespace firn::metadata {

// Schemas and types (spec: Schemas, Appendix C).
inline constexpr std::string_view kSchemaId = "schema-id";
inline constexpr std::string_view kIdentifierFieldIds = "identifier-field-ids";
inline constexpr std::string_view kType = "type";
inline constexpr std::string_view kFields = "fields";
inline constexpr std::string_view kId = "id";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kRequired = "required";
inline constexpr std::string_view kDoc = "doc";
inline constexpr std::string_view kInitialDefault = "initial-default";
inline constexpr std::string_view kWriteDefault = "write-default";
inline constexpr std::string_view kElementId = "element-id";
inline constexpr std::string_view kElement = "element";
inline constexpr std::string_view kElementRequired = "element-required";
inline constexpr std::string_view kKeyId = "key-id";
inline constexpr std::string_view kKey = "key";
inline constexpr std::string_view kValueId = "value-id";
inline constexpr std::string_view kValue = "value";
inline constexpr std::string_view kValueRequired = "value-required";

// Partition specs and sort orders.
inline constexpr std::string_view kSpecId = "spec-id";
inline constexpr std::string_view kOrderId = "order-id";
inline constexpr std::string_view kSourceId = "source-id";
inline constexpr std::string_view kSourceIds = "source-ids";
inline constexpr std::string_view kFieldId = "field-id";
inline constexpr std::string_view kTransform = "transform";
inline constexpr std::string_view kDirection = "direction";
inline constexpr std::string_view kNullOrder = "null-order";

// Snapshots, references and statistics files.
inline constexpr std::string_view kSnapshotId = "snapshot-id";
inline constexpr std::string_view kParentSnapshotId = "parent-snapshot-id";
inline constexpr std::string_view kSequenceNumber = "sequence-number";
inline constexpr std::string_view kTimestampMs = "timestamp-ms";
inline constexpr std::string_view kManifestList = "manifest-list";
inline constexpr std::string_view kManifests = "manifests";
inline constexpr std::string_view kSummary = "summary";
inline constexpr std::string_view kOperation = "operation";
inline constexpr std::string_view kFirstRowId = "first-row-id";
inline constexpr std::string_view kAddedRows = "added-rows";
inline constexpr std::string_view kMinSnapshotsToKeep = "min-snapshots-to-keep";
inline constexpr std::string_view kMaxSnapshotAgeMs = "max-snapshot-age-ms";
inline constexpr std::string_view kMaxRefAgeMs = "max-ref-age-ms";
inline constexpr std::string_view kStatisticsPath = "statistics-path";
inline constexpr std::string_view kFileSizeInBytes = "file-size-in-bytes";
inline constexpr std::string_view kFileFooterSizeInBytes = "file-footer-size-in-bytes";
inline constexpr std::string_view kBlobMetadata = "blob-metadata";
inline constexpr std::string_view kEncryptedKeyMetadata = "encrypted-key-metadata";

// Table metadata.
inline constexpr std::string_view kFormatVersion = "format-version";
inline constexpr std::string_view kTableUuid = "table-uuid";
inline constexpr std::string_view kLocation = "location";
inline constexpr std::string_view kLastSequenceNumber = "last-sequence-number";
inline constexpr std::string_view kLastUpdatedMs = "last-updated-ms";
inline constexpr std::string_view kLastColumnId = "last-column-id";
inline constexpr std::string_view kSchema = "schema";
inline constexpr std::string_view kSchemas = "schemas";
inline constexpr std::string_view kCurrentSchemaId = "current-schema-id";
inline constexpr std::string_view kPartitionSpec = "partition-spec";
inline constexpr std::string_view kPartitionSpecs = "partition-specs";
inline constexpr std::string_view kDefaultSpecId = "default-spec-id";
inline constexpr std::string_view kLastPartitionId = "last-partition-id";
inline constexpr std::string_view kSortOrders = "sort-orders";
inline constexpr std::string_view kDefaultSortOrderId = "default-sort-order-id";
inline constexpr std::string_view kProperties = "properties";
inline constexpr std::string_view kCurrentSnapshotId = "current-snapshot-id";
inline constexpr std::string_view kNextRowId = "next-row-id";
inline constexpr std::string_view kEncryptionKeys = "encryption-keys";
inline constexpr std::string_view kRefs = "refs";
inline constexpr std::string_view kSnapshots = "snapshots";
inline constexpr std::string_view kStatistics = "statistics";
inline constexpr std::string_view kPartitionStatistics = "partition-statistics";
inline constexpr std::string_view kSnapshotLog = "snapshot-log";
inline constexpr std::string_view kMetadataLog = "metadata-log";
inline constexpr std::string_view kMetadataFile = "metadata-file";

// View metadata.
inline constexpr std::string_view kViewUuid = "view-uuid";
inline constexpr std::string_view kCurrentVersionId = "current-version-id";
inline constexpr std::string_view kVersions = "versions";
inline constexpr std::string_view kVersionLog = "version-log";
inline constexpr std::string_view kVersionId = "version-id";
inline constexpr std::string_view kDefaultCatalog = "default-catalog";
inline constexpr std::string_view kDefaultNamespace = "default-namespace";
inline constexpr std::string_view kRepresentations = "representations";
inline constexpr std::string_view kSql = "sql";
inline constexpr std::string_view kDialect = "dialect";

// Table and view updates and requirements (REST spec: TableUpdate, TableRequirement).
inline constexpr std::string_view kAction = "action";
inline constexpr std::string_view kUuid = "uuid";
inline constexpr std::string_view kRef = "ref";
inline constexpr std::string_view kLastAssignedFieldId = "last-assigned-field-id";
inline constexpr std::string_view kLastAssignedPartitionId = "last-assigned-partition-id";
inline constexpr std::string_view kSpec = "spec";
inline constexpr std::string_view kSpecIds = "spec-ids";
inline constexpr std::string_view kSortOrder = "sort-order";
inline constexpr std::string_view kSortOrderId = "sort-order-id";
inline constexpr std::string_view kSnapshot = "snapshot";
inline constexpr std::string_view kSnapshotIds = "snapshot-ids";
inline constexpr std::string_view kSchemaIds = "schema-ids";
inline constexpr std::string_view kRefName = "ref-name";
inline constexpr std::string_view kUpdates = "updates";
inline constexpr std::string_view kLegacyUpdated = "updated";
inline constexpr std::string_view kRemovals = "removals";
inline constexpr std::string_view kLegacyRemoved = "removed";
inline constexpr std::string_view kEncryptionKey = "encryption-key";
inline constexpr std::string_view kViewVersion = "view-version";
inline constexpr std::string_view kViewVersionId = "view-version-id";

}  // namespace firn::metadata
