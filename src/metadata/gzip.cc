#include "metadata/gzip.h"

#include <utility>

namespace firn::metadata {

bool IsGzipMetadataLocation(std::string_view location) {
  return location.ends_with(".gz.metadata.json") || location.ends_with(".metadata.json.gz");
}

Result<std::string> GunzipIfNeeded(std::string_view location, std::string bytes,
                                   size_t max_inflated) {
  if (!HasGzipMagic(bytes)) return bytes;
  Result<std::string> inflated = Gunzip(bytes, max_inflated);
  if (!inflated) {
    inflated.error().message = "Cannot read metadata file: " + inflated.error().message;
    inflated.error().detail = "location: " + std::string(location);
  }
  return inflated;
}

}  // namespace firn::metadata
