#include "metadata/view_metadata_paths.h"

#include "metadata/gzip.h"
#include "metadata/metadata_paths.h"
#include "metadata/view_serde.h"

namespace firn::metadata {

std::string ViewMetadataDirectory(const ViewMetadata& m) {
  return MetadataDirectoryOf(m.properties, m.location);
}

std::string NewViewMetadataLocation(const ViewMetadata& next,
                                    std::optional<std::string_view> base_location) {
  return NewMetadataLocationOf(next.properties, next.location, kViewMetadataCompressionDefault,
                               base_location);
}

std::string EncodeViewMetadataFile(const ViewMetadata& metadata, std::string_view location) {
  std::string json = SerializeViewMetadata(metadata);
  if (IsGzipMetadataLocation(location)) return Gzip(json);
  return json;
}

}  // namespace firn::metadata
