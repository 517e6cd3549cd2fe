// The Iceberg view metadata model (view spec, format version 1).
//
// Pure values: no I/O. Schemas reuse the table model's Schema. A representation whose type is
// not `sql` is kept as the JSON object it was read from, so it round-trips unchanged.
// Thread-safety: plain values; const access from many threads is safe.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/table_metadata.h"

namespace firn::metadata {

inline constexpr int kViewFormatVersion = 1;
inline constexpr int kInitialViewVersionId = 1;
inline constexpr int kInitialViewSchemaId = 0;
inline constexpr std::string_view kSqlRepresentationType = "sql";

// View properties (Java ViewProperties).
inline constexpr std::string_view kVersionHistorySizeProperty = "version.history.num-entries";
inline constexpr int kVersionHistorySizeDefault = 10;
inline constexpr std::string_view kReplaceDropDialectAllowedProperty =
    "replace.drop-dialect.allowed";
inline constexpr std::string_view kViewGcEnabledProperty = "gc.enabled";
// Unlike tables, view metadata files are gzip'd unless this says otherwise.
inline constexpr std::string_view kViewMetadataCompressionDefault = "gzip";

struct ViewRepresentation {
  std::string type;     // "sql" or anything else (kept as `json`)
  std::string sql;      // sql only
  std::string dialect;  // sql only, as sent (compared case-insensitively)
  boost::json::object json;  // non-sql representations only
  friend bool operator==(const ViewRepresentation&, const ViewRepresentation&) = default;
};

struct ViewVersion {
  int version_id = 0;
  int schema_id = 0;  // -1 in add-view-version: the schema added last in this commit
  int64_t timestamp_ms = 0;
  std::map<std::string, std::string> summary;
  std::vector<ViewRepresentation> representations;
  std::optional<std::string> default_catalog;
  std::vector<std::string> default_namespace;
  friend bool operator==(const ViewVersion&, const ViewVersion&) = default;
};

struct ViewHistoryEntry {
  int64_t timestamp_ms = 0;
  int version_id = 0;
  friend bool operator==(const ViewHistoryEntry&, const ViewHistoryEntry&) = default;
};

struct ViewMetadata {
  std::string view_uuid;
  int format_version = kViewFormatVersion;
  std::string location;
  std::vector<Schema> schemas;
  int current_version_id = 0;
  std::vector<ViewVersion> versions;
  std::vector<ViewHistoryEntry> version_log;
  std::map<std::string, std::string> properties;

  const ViewVersion* FindVersion(int version_id) const;
  const Schema* FindSchema(int schema_id) const;
  const ViewVersion* CurrentVersion() const { return FindVersion(current_version_id); }

  friend bool operator==(const ViewMetadata&, const ViewMetadata&) = default;
};

}  // namespace firn::metadata
