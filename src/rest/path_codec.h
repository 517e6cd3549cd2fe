// Decoding of Iceberg REST path segments and query strings (checklist §1.1).
//
// Java clients form-encode each namespace level and name (space → '+', '/' → %2F) and join
// levels with %1F; so a segment is split on %1F BEFORE percent-decoding, and '+' decodes to a
// space. Errors: kBadRequest naming what was malformed (never echoing more than the name).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "store/store.h"

namespace firn::rest {

// Percent-decoding with '+' as space (application/x-www-form-urlencoded rules).
Result<std::string> FormDecode(std::string_view raw);

// A namespace path segment: levels split on %1F (any case) or a raw 0x1F, each form-decoded.
Result<store::Namespace> DecodeNamespaceSegment(std::string_view raw);
// A table or view name path segment.
Result<std::string> DecodeNameSegment(std::string_view raw);

// Decoded query parameters; a repeated name keeps its first value.
class QueryParams {
 public:
  static Result<QueryParams> Parse(std::string_view raw_query);
  std::optional<std::string_view> Get(std::string_view name) const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

// `parent` query value (already decoded): levels separated by 0x1F; empty = top level.
store::Namespace NamespaceFromQueryValue(std::string_view value);

}  // namespace firn::rest
