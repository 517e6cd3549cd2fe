// View metadata file names (checklist §5.4): `<dir>/<NNNNN>-<uuid>[.gz].metadata.json`, like
// tables, except that views default to gzip (Java ViewProperties.METADATA_COMPRESSION_DEFAULT):
// only `write.metadata.compression-codec` = none (any case) writes plain `.metadata.json`.
//
// Thread-safety: pure functions (NewViewMetadataLocation draws a random UUID).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "metadata/view_metadata.h"

namespace firn::metadata {

// `write.metadata.path` if set, else `<location>/metadata`; one trailing '/' stripped.
std::string ViewMetadataDirectory(const ViewMetadata& metadata);

// Version 0 for a create (`base_location` empty), else the base's version + 1.
std::string NewViewMetadataLocation(const ViewMetadata& next,
                                    std::optional<std::string_view> base_location);

// The bytes to store at `location`: the serialized metadata, gzip'd if the name says so.
std::string EncodeViewMetadataFile(const ViewMetadata& metadata, std::string_view location);

}  // namespace firn::metadata
