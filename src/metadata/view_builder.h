// The view commit engine's pure core: builds new views and applies ViewUpdates with the
// semantics of Java's ViewMetadata.Builder (checklist §2.2 view rows, §5.4 view metadata).
//
// Rules: ids are reused for an identical schema / version, else max+1 (schemas start at 0,
// versions at 1); `-1` means "added last in this commit"; setting the current version appends a
// version-log entry (the version's own timestamp when it was added in this commit, else now);
// versions beyond `version.history.num-entries` (default 10) are expired, keeping the current
// one and those added in this commit, and the version log is cut after any expired version;
// unless `replace.drop-dialect.allowed` is true a new current version must keep every SQL
// dialect of the previous one.
// Thread-safety: pure functions over caller-owned values (NewViewMetadata draws a UUID).
// Errors: kIllegalArgument / kValidation (400) with Java's message; malformed JSON parts in a
// create request are kBadRequest.
#pragma once

#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/result.h"
#include "metadata/view_metadata.h"
#include "metadata/view_update.h"

namespace firn::metadata {

struct ViewApplyResult {
  ViewMetadata metadata;
  bool changed = false;  // false: metadata == base and no new file may be written
};

// Applies `updates` in order to `base` and validates the result.
Result<ViewApplyResult> ApplyViewUpdates(const ViewMetadata& base,
                                         const std::vector<ViewUpdate>& updates, int64_t now_ms);

// The server side of createView: `schema` and `view_version` are the request's JSON. The schema
// gets id 0 and the version id 1; the version's schema-id is rewritten to the schema's id.
struct CreateViewInput {
  std::string location;  // kept byte for byte
  boost::json::value schema;
  boost::json::value view_version;
  std::map<std::string, std::string> properties;
};

Result<ViewMetadata> NewViewMetadata(const CreateViewInput& in, int64_t now_ms);

}  // namespace firn::metadata
