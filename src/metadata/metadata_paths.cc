#include "metadata/metadata_paths.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

#include "common/uuid.h"
#include "metadata/gzip.h"
#include "metadata/serde.h"

namespace firn::metadata {

namespace {
std::string_view StripOneSlash(std::string_view s) {
  if (!s.empty() && s.back() == '/') s.remove_suffix(1);
  return s;
}

bool IsGzipCodec(const TableMetadata& m) {
  auto it = m.properties.find(std::string(kMetadataCompressionProperty));
  if (it == m.properties.end()) return false;
  std::string codec = it->second;
  std::transform(codec.begin(), codec.end(), codec.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return codec == "gzip";
}
}  // namespace

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

std::string MetadataDirectory(const TableMetadata& m) {
  auto it = m.properties.find(std::string(kWriteMetadataPathProperty));
  if (it != m.properties.end() && !it->second.empty()) {
    return std::string(StripOneSlash(it->second));
  }
  return std::string(StripOneSlash(m.location)) + "/metadata";
}

std::string NewMetadataLocation(const TableMetadata& next,
                                std::optional<std::string_view> base_location) {
  int version = 0;
  if (base_location) version = std::max(ParseMetadataVersion(*base_location), 0) + 1;
  char prefix[16];
  std::snprintf(prefix, sizeof(prefix), "%05d-", version);
  return MetadataDirectory(next) + "/" + prefix + NewUuidV4() +
         (IsGzipCodec(next) ? ".gz.metadata.json" : ".metadata.json");
}

std::string EncodeMetadataFile(const TableMetadata& metadata, std::string_view location) {
  std::string json = SerializeTableMetadata(metadata);
  if (IsGzipMetadataLocation(location)) return Gzip(json);
  return json;
}

}  // namespace firn::metadata
