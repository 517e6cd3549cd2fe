#include "metadata/view_serde.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <utility>

#include "common/macros.h"
#include "metadata/serde.h"
#include "metadata/serde_util.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {
constexpr std::string_view kViewUuid = "view-uuid";
constexpr std::string_view kFormatVersion = "format-version";
constexpr std::string_view kLocation = "location";
constexpr std::string_view kProperties = "properties";
constexpr std::string_view kSchemas = "schemas";
constexpr std::string_view kCurrentVersionId = "current-version-id";
constexpr std::string_view kVersions = "versions";
constexpr std::string_view kVersionLog = "version-log";
constexpr std::string_view kVersionId = "version-id";
constexpr std::string_view kTimestampMs = "timestamp-ms";
constexpr std::string_view kSchemaId = "schema-id";
constexpr std::string_view kSummary = "summary";
constexpr std::string_view kDefaultCatalog = "default-catalog";
constexpr std::string_view kDefaultNamespace = "default-namespace";
constexpr std::string_view kRepresentations = "representations";
constexpr std::string_view kType = "type";
constexpr std::string_view kSql = "sql";
constexpr std::string_view kDialect = "dialect";
// Boost's default (32) is too shallow for deeply nested schemas.
constexpr size_t kMaxJsonDepth = 512;

template <typename T, typename Parse>
Result<std::vector<T>> ParseRequiredList(const JsonReader& r, std::string_view key, Parse parse) {
  FIRN_ASSIGN_OR_RETURN(const json::array* items, r.Array(key));
  std::vector<T> out;
  out.reserve(items->size());
  for (const json::value& item : *items) {
    FIRN_ASSIGN_OR_RETURN(T parsed, parse(item));
    out.push_back(std::move(parsed));
  }
  return out;
}

Result<ViewHistoryEntry> HistoryEntryFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "view history entry"));
  ViewHistoryEntry entry;
  FIRN_ASSIGN_OR_RETURN(entry.timestamp_ms, r.Long(kTimestampMs));
  FIRN_ASSIGN_OR_RETURN(entry.version_id, r.Int(kVersionId));
  return entry;
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
                        ParseRequiredList<ViewRepresentation>(r, kRepresentations,
                                                              ViewRepresentationFromJson));
  FIRN_ASSIGN_OR_RETURN(v.default_catalog, r.OptString(kDefaultCatalog));
  FIRN_ASSIGN_OR_RETURN(v.default_namespace,
                        ParseRequiredList<std::string>(r, kDefaultNamespace,
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
  json::array ns;
  for (const std::string& level : v.default_namespace) ns.emplace_back(level);
  out[kDefaultNamespace] = std::move(ns);
  json::array reps;
  for (const ViewRepresentation& rep : v.representations) {
    reps.emplace_back(ViewRepresentationToJson(rep));
  }
  out[kRepresentations] = std::move(reps);
  return out;
}

Result<ViewMetadata> ViewMetadataFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "view metadata"));
  ViewMetadata m;
  FIRN_ASSIGN_OR_RETURN(m.view_uuid, r.String(kViewUuid));
  FIRN_ASSIGN_OR_RETURN(m.format_version, r.Int(kFormatVersion));
  FIRN_ASSIGN_OR_RETURN(m.location, r.String(kLocation));
  FIRN_ASSIGN_OR_RETURN(m.properties, r.StringMap(kProperties));
  FIRN_ASSIGN_OR_RETURN(m.schemas, ParseRequiredList<Schema>(r, kSchemas, SchemaFromJson));
  FIRN_ASSIGN_OR_RETURN(m.current_version_id, r.Int(kCurrentVersionId));
  FIRN_ASSIGN_OR_RETURN(m.versions,
                        ParseRequiredList<ViewVersion>(r, kVersions, ViewVersionFromJson));
  FIRN_ASSIGN_OR_RETURN(m.version_log,
                        ParseRequiredList<ViewHistoryEntry>(r, kVersionLog, HistoryEntryFromJson));
  FIRN_RETURN_IF_ERROR(ValidateViewMetadata(m));
  return m;
}

Result<ViewMetadata> ParseViewMetadata(std::string_view json_text) {
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = kMaxJsonDepth;
  json::value value = json::parse(json_text, ec, {}, options);
  if (ec) return Fail(ErrorKind::kBadRequest, "Cannot parse view metadata: invalid JSON");
  return ViewMetadataFromJson(value);
}

json::object ViewMetadataToJson(const ViewMetadata& m) {
  json::object out;
  out[kViewUuid] = m.view_uuid;
  out[kFormatVersion] = m.format_version;
  out[kLocation] = m.location;
  if (!m.properties.empty()) out[kProperties] = StringObject(m.properties);
  json::array schemas;
  for (const Schema& s : m.schemas) schemas.emplace_back(SchemaToJson(s));
  out[kSchemas] = std::move(schemas);
  out[kCurrentVersionId] = m.current_version_id;
  json::array versions;
  for (const ViewVersion& v : m.versions) versions.emplace_back(ViewVersionToJson(v));
  out[kVersions] = std::move(versions);
  json::array log;
  for (const ViewHistoryEntry& e : m.version_log) {
    json::object entry;
    entry[kTimestampMs] = e.timestamp_ms;
    entry[kVersionId] = e.version_id;
    log.emplace_back(std::move(entry));
  }
  out[kVersionLog] = std::move(log);
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
