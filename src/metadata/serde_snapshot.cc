// Snapshot, snapshot reference, statistics and encryption key JSON (table spec, Appendix C).
#include <utility>

#include "common/macros.h"
#include "metadata/json_keys.h"
#include "metadata/serde.h"
#include "metadata/serde_util.h"

namespace firn::metadata {

namespace json = boost::json;

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
    out[kManifests] = JsonArray(s.manifests);
  }
  if (s.schema_id) out[kSchemaId] = *s.schema_id;
  if (s.first_row_id) out[kFirstRowId] = *s.first_row_id;
  if (s.added_rows) out[kAddedRows] = *s.added_rows;
  if (s.key_id) out[kKeyId] = *s.key_id;
  return out;
}

namespace {
// Java reads the type case-insensitively; the spec's lowercase form is kept.
Result<std::string> RefType(const JsonReader& r, std::string_view key) {
  return r.LowerEither(key, kBranch, kTag);
}

using SnapshotRefJson =
    JsonRecord<SnapshotRef, Field<&SnapshotRef::snapshot_id, kSnapshotId>,
               Field<&SnapshotRef::type, kType, &RefType>,
               Field<&SnapshotRef::min_snapshots_to_keep, kMinSnapshotsToKeep>,
               Field<&SnapshotRef::max_snapshot_age_ms, kMaxSnapshotAgeMs>,
               Field<&SnapshotRef::max_ref_age_ms, kMaxRefAgeMs>>;
}  // namespace

Result<SnapshotRef> SnapshotRefFromJson(const json::value& value) {
  return SnapshotRefJson::Read(value, "snapshot reference");
}

json::object SnapshotRefToJson(const SnapshotRef& ref) { return SnapshotRefJson::Write(ref); }

// Statistics files and encryption keys are kept as their objects; only the fields the spec
// requires are checked, and the one the server uses is read.
Result<StatisticsFile> StatisticsFileFromJson(const json::value& value) {
  using Record = JsonRecord<StatisticsFile, Field<&StatisticsFile::snapshot_id, kSnapshotId>,
                            Checked<std::string, kStatisticsPath>,
                            Checked<int64_t, kFileSizeInBytes>,
                            Checked<int64_t, kFileFooterSizeInBytes>,
                            Checked<const json::array*, kBlobMetadata>,
                            WholeObject<&StatisticsFile::json>>;
  return Record::Read(value, "statistics file");
}

Result<PartitionStatisticsFile> PartitionStatisticsFileFromJson(const json::value& value) {
  using Record =
      JsonRecord<PartitionStatisticsFile, Field<&PartitionStatisticsFile::snapshot_id, kSnapshotId>,
                 Checked<std::string, kStatisticsPath>, Checked<int64_t, kFileSizeInBytes>,
                 WholeObject<&PartitionStatisticsFile::json>>;
  return Record::Read(value, "partition statistics file");
}

Result<EncryptionKey> EncryptionKeyFromJson(const json::value& value) {
  using Record = JsonRecord<EncryptionKey, Field<&EncryptionKey::key_id, kKeyId>,
                            Checked<std::string, kEncryptedKeyMetadata>,
                            WholeObject<&EncryptionKey::json>>;
  return Record::Read(value, "encryption key");
}

}  // namespace firn::metadata
