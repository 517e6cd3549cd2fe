#include "metadata/view_metadata.h"

namespace firn::metadata {

const ViewVersion* ViewMetadata::FindVersion(int version_id) const {
  for (const ViewVersion& v : versions) {
    if (v.version_id == version_id) return &v;
  }
  return nullptr;
}

const Schema* ViewMetadata::FindSchema(int schema_id) const {
  for (const Schema& s : schemas) {
    if (s.schema_id == schema_id) return &s;
  }
  return nullptr;
}

}  // namespace firn::metadata
