// Snapshot, snapshot reference, statistics and encryption key JSON (table spec, Appendix C).
#include <cctype>
#include <utility>

#include "common/macros.h"
#include "metadata/serde.h"
#include "metadata/serde_util.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {
constexpr std::string_view kSnapshotId = "snapshot-id";
constexpr std::string_view kParentSnapshotId = "parent-snapshot-id";
constexpr std::string_view kSequenceNumber = "sequence-number";
constexpr std::string_view kTimestampMs = "timestamp-ms";
constexpr std::string_view kManifestList = "manifest-list";
constexpr std::string_view kManifests = "manifests";
constexpr std::string_view kSummary = "summary";
constexpr std::string_view kOperation = "operation";
constexpr std::string_view kSchemaId = "schema-id";
constexpr std::string_view kFirstRowId = "first-row-id";
constexpr std::string_view kAddedRows = "added-rows";
constexpr std::string_view kKeyId = "key-id";
constexpr std::string_view kType = "type";
constexpr std::string_view kMinSnapshotsToKeep = "min-snapshots-to-keep";
constexpr std::string_view kMaxSnapshotAgeMs = "max-snapshot-age-ms";
constexpr std::string_view kMaxRefAgeMs = "max-ref-age-ms";
constexpr std::string_view kStatisticsPath = "statistics-path";
constexpr std::string_view kFileSizeInBytes = "file-size-in-bytes";
constexpr std::string_view kFileFooterSizeInBytes = "file-footer-size-in-bytes";
constexpr std::string_view kBlobMetadata = "blob-metadata";
constexpr std::string_view kEncryptedKeyMetadata = "encrypted-key-metadata";
}  // namespace

Result<Snapshot> SnapshotFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "snapshot"));
  Snapshot s;
  FIRN_ASSIGN_OR_RETURN(s.snapshot_id, r.Long(kSnapshotId));
  FIRN_ASSIGN_OR_RETURN(s.parent_snapshot_id, r.OptLong(kParentSnapshotId));
  FIRN_ASSIGN_OR_RETURN(s.sequence_number, r.OptLong(kSequenceNumber));
  FIRN_ASSIGN_OR_RETURN(s.timestamp_ms, r.Long(kTimestampMs));
  FIRN_ASSIGN_OR_RETURN(s.manifest_list, r.OptString(kManifestList));
  if (!s.manifest_list) {
    // v1 snapshots may list their manifests inline instead.
    FIRN_ASSIGN_OR_RETURN(const json::array* manifests, r.OptArray(kManifests));
    if (manifests != nullptr) {
      for (const json::value& m : *manifests) {
        if (!m.is_string()) return r.WrongType(kManifests, "a list of strings");
        s.manifests.emplace_back(m.get_string());
      }
    }
  }
  FIRN_ASSIGN_OR_RETURN(const json::object* summary, r.OptObject(kSummary));
  if (summary != nullptr) {
    for (const auto& [k, v] : *summary) {
      if (!v.is_string()) return r.WrongType(kSummary, "a map of strings");
    }
    s.summary = *summary;
  }
  FIRN_ASSIGN_OR_RETURN(s.schema_id, r.OptInt(kSchemaId));
  FIRN_ASSIGN_OR_RETURN(s.first_row_id, r.OptLong(kFirstRowId));
  FIRN_ASSIGN_OR_RETURN(s.added_rows, r.OptLong(kAddedRows));
  FIRN_ASSIGN_OR_RETURN(s.key_id, r.OptString(kKeyId));
  return s;
}

json::object SnapshotToJson(const Snapshot& s) {
  json::object out;
  if (s.sequence_number) out[kSequenceNumber] = *s.sequence_number;
  out[kSnapshotId] = s.snapshot_id;
  if (s.parent_snapshot_id) out[kParentSnapshotId] = *s.parent_snapshot_id;
  out[kTimestampMs] = s.timestamp_ms;
  if (!s.summary.empty()) {
    // Java writes the operation first.
    json::object summary;
    if (const json::value* op = s.summary.if_contains(kOperation)) summary[kOperation] = *op;
    for (const auto& [k, v] : s.summary) {
      if (k != kOperation) summary[k] = v;
    }
    out[kSummary] = std::move(summary);
  }
  if (s.manifest_list) {
    out[kManifestList] = *s.manifest_list;
  } else if (!s.manifests.empty()) {
    json::array manifests;
    for (const std::string& m : s.manifests) manifests.emplace_back(m);
    out[kManifests] = std::move(manifests);
  }
  if (s.schema_id) out[kSchemaId] = *s.schema_id;
  if (s.first_row_id) out[kFirstRowId] = *s.first_row_id;
  if (s.added_rows) out[kAddedRows] = *s.added_rows;
  if (s.key_id) out[kKeyId] = *s.key_id;
  return out;
}

Result<SnapshotRef> SnapshotRefFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "snapshot reference"));
  SnapshotRef ref;
  FIRN_ASSIGN_OR_RETURN(ref.snapshot_id, r.Long(kSnapshotId));
  FIRN_ASSIGN_OR_RETURN(ref.type, r.String(kType));
  for (char& c : ref.type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ref.type != "branch" && ref.type != "tag") {
    return r.Invalid(kType, "must be \"branch\" or \"tag\"");
  }
  FIRN_ASSIGN_OR_RETURN(ref.min_snapshots_to_keep, r.OptInt(kMinSnapshotsToKeep));
  FIRN_ASSIGN_OR_RETURN(ref.max_snapshot_age_ms, r.OptLong(kMaxSnapshotAgeMs));
  FIRN_ASSIGN_OR_RETURN(ref.max_ref_age_ms, r.OptLong(kMaxRefAgeMs));
  return ref;
}

json::object SnapshotRefToJson(const SnapshotRef& ref) {
  json::object out;
  out[kSnapshotId] = ref.snapshot_id;
  out[kType] = ref.type;
  if (ref.min_snapshots_to_keep) out[kMinSnapshotsToKeep] = *ref.min_snapshots_to_keep;
  if (ref.max_snapshot_age_ms) out[kMaxSnapshotAgeMs] = *ref.max_snapshot_age_ms;
  if (ref.max_ref_age_ms) out[kMaxRefAgeMs] = *ref.max_ref_age_ms;
  return out;
}

Result<StatisticsFile> StatisticsFileFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "statistics file"));
  StatisticsFile file;
  FIRN_ASSIGN_OR_RETURN(file.snapshot_id, r.Long(kSnapshotId));
  FIRN_RETURN_IF_ERROR(r.String(kStatisticsPath));
  FIRN_RETURN_IF_ERROR(r.Long(kFileSizeInBytes));
  FIRN_RETURN_IF_ERROR(r.Long(kFileFooterSizeInBytes));
  FIRN_RETURN_IF_ERROR(r.Array(kBlobMetadata));
  file.json = r.object();
  return file;
}

Result<PartitionStatisticsFile> PartitionStatisticsFileFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "partition statistics file"));
  PartitionStatisticsFile file;
  FIRN_ASSIGN_OR_RETURN(file.snapshot_id, r.Long(kSnapshotId));
  FIRN_RETURN_IF_ERROR(r.String(kStatisticsPath));
  FIRN_RETURN_IF_ERROR(r.Long(kFileSizeInBytes));
  file.json = r.object();
  return file;
}

Result<EncryptionKey> EncryptionKeyFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "encryption key"));
  EncryptionKey key;
  FIRN_ASSIGN_OR_RETURN(key.key_id, r.String(kKeyId));
  FIRN_RETURN_IF_ERROR(r.String(kEncryptedKeyMetadata));
  key.json = r.object();
  return key;
}

}  // namespace firn::metadata
