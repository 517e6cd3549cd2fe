#include "metadata/view_metadata_paths.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "common/uuid.h"
#include "metadata/gzip.h"
#include "metadata/metadata_paths.h"
#include "metadata/view_serde.h"

namespace firn::metadata {

namespace {
std::string_view StripOneSlash(std::string_view s) {
  if (!s.empty() && s.back() == '/') s.remove_suffix(1);
  return s;
}

bool IsGzipCodec(const ViewMetadata& m) {
  auto it = m.properties.find(std::string(kMetadataCompressionProperty));
  std::string codec(it == m.properties.end() ? kViewMetadataCompressionDefault : it->second);
  std::ranges::transform(codec, codec.begin(),
                         [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return codec == "gzip";
}
}  // namespace

std::string ViewMetadataDirectory(const ViewMetadata& m) {
  auto it = m.properties.find(std::string(kWriteMetadataPathProperty));
  if (it != m.properties.end() && !it->second.empty()) {
    return std::string(StripOneSlash(it->second));
  }
  return std::string(StripOneSlash(m.location)) + "/metadata";
}

std::string NewViewMetadataLocation(const ViewMetadata& next,
                                    std::optional<std::string_view> base_location) {
  int version = 0;
  if (base_location) version = std::max(ParseMetadataVersion(*base_location), 0) + 1;
  char prefix[16];
  std::snprintf(prefix, sizeof(prefix), "%05d-", version);
  return ViewMetadataDirectory(next) + "/" + prefix + NewUuidV4() +
         (IsGzipCodec(next) ? ".gz.metadata.json" : ".metadata.json");
}

std::string EncodeViewMetadataFile(const ViewMetadata& metadata, std::string_view location) {
  std::string json = SerializeViewMetadata(metadata);
  if (IsGzipMetadataLocation(location)) return Gzip(json);
  return json;
}

}  // namespace firn::metadata
