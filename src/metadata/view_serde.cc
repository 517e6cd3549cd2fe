#include "metadata/view_serde.h"

#include <boost/json/serialize.hpp>

#include <utility>

#include "common/macros.h"
#include "metadata/json_keys.h"
#include "metadata/serde.h"
#include "metadata/serde_util.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {
using HistoryEntryJson = JsonRecord<ViewHistoryEntry,
                                    Field<&ViewHistoryEntry::timestamp_ms, kTimestampMs>,
                                    Field<&ViewHistoryEntry::version_id, kVersionId>>;

Result<ViewHistoryEntry> HistoryEntryFromJson(const json::value& value) {
  return HistoryEntryJson::Read(value, "view history entry");
}

Result<std::string> StringElement(const json::value& v, const JsonReader& r,
                                  std::string_view key) {
  if (!v.is_string()) return r.WrongType(key, "a list of strings");
  return std::string(v.get_string());
}

std::unexpected<Error> Invalid(std::string why) {
  return Fail(ErrorKind::kValidation, "Invalid view metadata: " + std::move(why));
}
}  // namespace

Result<ViewRepresentation> ViewRepresentationFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "view representation"));
  ViewRepresentation rep;
  FIRN_ASSIGN_OR_RETURN(rep.type, r.String(kType));
  if (rep.type == kSqlRepresentationType) {
    FIRN_ASSIGN_OR_RETURN(rep.sql, r.String(kSql));
    FIRN_ASSIGN_OR_RETURN(rep.dialect, r.String(kDialect));
  } else {
    rep.json = r.object();  // unknown kinds are kept as they are (Java: UnknownViewRepresentation)
  }
  return rep;
}

json::object ViewRepresentationToJson(const ViewRepresentation& rep) {
  if (rep.type != kSqlRepresentationType) {
    json::object out = rep.json;
    out[kType] = rep.type;
    return out;
  }
  json::object out;
  out[kType] = rep.type;
  out[kSql] = rep.sql;
  out[kDialect] = rep.dialect;
  return out;
}

Result<ViewVersion> ViewVersionFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "view version"));
  ViewVersion v;
  FIRN_ASSIGN_OR_RETURN(v.version_id, r.Int(kVersionId));
  FIRN_ASSIGN_OR_RETURN(v.timestamp_ms, r.Long(kTimestampMs));
  FIRN_ASSIGN_OR_RETURN(v.schema_id, r.Int(kSchemaId));
  if (!r.Has(kSummary)) return r.Missing(kSummary);
  FIRN_ASSIGN_OR_RETURN(v.summary, r.StringMap(kSummary));
  FIRN_ASSIGN_OR_RETURN(v.representations,
                        RequiredList<ViewRepresentation>(r, kRepresentations,
                                                              ViewRepresentationFromJson));
  FIRN_ASSIGN_OR_RETURN(v.default_catalog, r.OptString(kDefaultCatalog));
  FIRN_ASSIGN_OR_RETURN(v.default_namespace,
                        RequiredList<std::string>(r, kDefaultNamespace,
                                                       [&](const json::value& item) {
                                                         return StringElement(item, r,
                                                                              kDefaultNamespace);
                                                       }));
  return v;
}

json::object ViewVersionToJson(const ViewVersion& v) {
  json::object out;
  out[kVersionId] = v.version_id;
  out[kTimestampMs] = v.timestamp_ms;
  out[kSchemaId] = v.schema_id;
  out[kSummary] = StringObject(v.summary);
  if (v.default_catalog) out[kDefaultCatalog] = *v.default_catalog;
  out[kDefaultNamespace] = JsonArray(v.default_namespace);
  out[kRepresentations] = JsonArray(v.representations, ViewRepresentationToJson);
  return out;
}

Result<ViewMetadata> ViewMetadataFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "view metadata"));
  ViewMetadata m;
  FIRN_ASSIGN_OR_RETURN(m.view_uuid, r.String(kViewUuid));
  FIRN_ASSIGN_OR_RETURN(m.format_version, r.Int(kFormatVersion));
  FIRN_ASSIGN_OR_RETURN(m.location, r.String(kLocation));
  FIRN_ASSIGN_OR_RETURN(m.properties, r.StringMap(kProperties));
  FIRN_ASSIGN_OR_RETURN(m.schemas, RequiredList<Schema>(r, kSchemas, SchemaFromJson));
  FIRN_ASSIGN_OR_RETURN(m.current_version_id, r.Int(kCurrentVersionId));
  FIRN_ASSIGN_OR_RETURN(m.versions,
                        RequiredList<ViewVersion>(r, kVersions, ViewVersionFromJson));
  FIRN_ASSIGN_OR_RETURN(m.version_log,
                        RequiredList<ViewHistoryEntry>(r, kVersionLog, HistoryEntryFromJson));
  FIRN_RETURN_IF_ERROR(ValidateViewMetadata(m));
  return m;
}

Result<ViewMetadata> ParseViewMetadata(std::string_view json_text) {
  FIRN_ASSIGN_OR_RETURN(json::value value, ParseJsonDocument(json_text, "view metadata"));
  return ViewMetadataFromJson(value);
}

json::object ViewMetadataToJson(const ViewMetadata& m) {
  json::object out;
  out[kViewUuid] = m.view_uuid;
  out[kFormatVersion] = m.format_version;
  out[kLocation] = m.location;
  if (!m.properties.empty()) out[kProperties] = StringObject(m.properties);
  out[kSchemas] = JsonArray(m.schemas, SchemaToJson);
  out[kCurrentVersionId] = m.current_version_id;
  out[kVersions] = JsonArray(m.versions, ViewVersionToJson);
  out[kVersionLog] = JsonArray(m.version_log, &HistoryEntryJson::Write);
  return out;
}

std::string SerializeViewMetadata(const ViewMetadata& m) {
  return json::serialize(ViewMetadataToJson(m));
}

Status ValidateViewMetadata(const ViewMetadata& m) {
  if (m.format_version != kViewFormatVersion) {
    return Invalid("Unsupported format version: " + std::to_string(m.format_version));
  }
  if (m.CurrentVersion() == nullptr) {
    return Invalid("Cannot find current version " + std::to_string(m.current_version_id) +
                   " in view versions");
  }
  for (const ViewVersion& v : m.versions) {
    if (m.FindSchema(v.schema_id) == nullptr) {
      return Invalid("Cannot find schema with id " + std::to_string(v.schema_id) +
                     " for view version " + std::to_string(v.version_id));
    }
  }
  return Ok();
}

}  // namespace firn::metadata
