// Metadata file names (checklist §5.4): `<dir>/<NNNNN>-<uuid>[.gz].metadata.json`.
//
// Thread-safety: pure functions (NewMetadataLocation draws a random UUID).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "metadata/table_metadata.h"

namespace firn::metadata {

inline constexpr std::string_view kWriteMetadataPathProperty = "write.metadata.path";
inline constexpr std::string_view kMetadataCompressionProperty =
    "write.metadata.compression-codec";

// The version NNNNN of `.../NNNNN-<anything>`, as Java's parseVersion: the digits between the
// last '/' and the next '-'. -1 when the name has no such prefix (e.g. `v3.metadata.json`).
int ParseMetadataVersion(std::string_view location);

using Properties = std::map<std::string, std::string>;

// Directory for new metadata files of a table or view with these properties and location:
// `write.metadata.path` if set, else `<location>/metadata`; one trailing '/' is stripped from
// either.
std::string MetadataDirectoryOf(const Properties& properties, std::string_view location);
// A never-used location in that directory for the file after `base_location` (see
// NewMetadataLocation). Gzip'd when `write.metadata.compression-codec`, or `default_codec`
// when it is unset, is gzip (any case).
// `writer_tag` (8 lowercase hex digits, or empty): the first group of the file's UUID, so
// that a catalog can tell its own files from another writer's by name alone
// (catalog/foreign_writers.h); the rest of the UUID stays random.
std::string NewMetadataLocationOf(const Properties& properties, std::string_view location,
                                  std::string_view default_codec,
                                  std::optional<std::string_view> base_location,
                                  std::string_view writer_tag = {});

// MetadataDirectoryOf the table.
std::string MetadataDirectory(const TableMetadata& metadata);

// A never-used location for the file that will hold `next`. The version is 0 for a create
// (`base_location` empty) and the base's version + 1 otherwise; a base without a version
// (a registered `v3.metadata.json`, say) counts as version 0, so its successor is 00001.
// Suffix `.gz.metadata.json` when `write.metadata.compression-codec` is gzip (any case).
// `writer_tag` as for NewMetadataLocationOf.
std::string NewMetadataLocation(const TableMetadata& next,
                                std::optional<std::string_view> base_location,
                                std::string_view writer_tag = {});

// The bytes to store at `location`: the serialized metadata, gzip'd if the name says so.
std::string EncodeMetadataFile(const TableMetadata& metadata, std::string_view location);

}  // namespace firn::metadata
