#include "metadata/metadata_paths.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

#include "common/strings.h"
#include "common/uuid.h"
#include "metadata/gzip.h"
#include "metadata/serde.h"

namespace firn::metadata {

int ParseMetadataVersion(std::string_view location) {
  size_t slash = location.rfind('/');
  std::string_view name = slash == std::string_view::npos ? location : location.substr(slash + 1);
  size_t dash = name.find('-');
  if (dash == std::string_view::npos || dash == 0) return -1;
  std::string_view digits = name.substr(0, dash);
  if (!std::all_of(digits.begin(), digits.end(),
                   [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return -1;
  }
  int version = -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), version);
  if (ec != std::errc() || end != digits.data() + digits.size()) return -1;
  return version;
}

std::string MetadataDirectoryOf(const Properties& properties, std::string_view location) {
  auto it = properties.find(std::string(kWriteMetadataPathProperty));
  if (it != properties.end() && !it->second.empty()) {
    return std::string(StripOneTrailingSlash(it->second));
  }
  return std::string(StripOneTrailingSlash(location)) + "/metadata";
}

std::string NewMetadataLocationOf(const Properties& properties, std::string_view location,
                                  std::string_view default_codec,
                                  std::optional<std::string_view> base_location,
                                  std::string_view writer_tag) {
  int version = 0;
  if (base_location) version = std::max(ParseMetadataVersion(*base_location), 0) + 1;
  char prefix[16];
  std::snprintf(prefix, sizeof(prefix), "%05d-", version);
  auto codec = properties.find(std::string(kMetadataCompressionProperty));
  const bool gzip =
      EqualsIgnoreCase(codec == properties.end() ? default_codec : codec->second, "gzip");
  std::string uuid = NewUuidV4();
  if (writer_tag.size() == 8) uuid.replace(0, 8, writer_tag);
  return MetadataDirectoryOf(properties, location) + "/" + prefix + uuid +
         (gzip ? ".gz.metadata.json" : ".metadata.json");
}

std::string MetadataDirectory(const TableMetadata& m) {
  return MetadataDirectoryOf(m.properties, m.location);
}

std::string NewMetadataLocation(const TableMetadata& next,
                                std::optional<std::string_view> base_location,
                                std::string_view writer_tag) {
  return NewMetadataLocationOf(next.properties, next.location, "none", base_location,
                               writer_tag);
}

std::string EncodeMetadataFile(const TableMetadata& metadata, std::string_view location) {
  std::string json = SerializeTableMetadata(metadata);
  if (IsGzipMetadataLocation(location)) return Gzip(json);
  return json;
}

}  // namespace firn::metadata
