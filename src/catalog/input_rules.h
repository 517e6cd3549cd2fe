// The rules a name or a property map must meet to enter the catalog, in one place for the
// REST decoding (rest/request_params.cc, rest/json_fields.cc) and for CatalogService.
//
// Names (one namespace level, a table name, a view name): 1 to 255 bytes of well-formed UTF-8;
// not "." or ".."; no '/'; no control character (C0 U+0000-U+001F, DEL U+007F, C1
// U+0080-U+009F). A name becomes one path segment of its object's default location, so these
// keep every default location inside its namespace's and apart from its siblings'.
// Properties: the limits of PropertyLimits, checked on the whole map an object would have, and
// the values of Firn's own properties (firn.schema-evolution: catalog/schema_policy.h).
//
// Errors: kBadRequest "Invalid <what>: <rule broken>". Messages never contain the rejected
// name or value (they may carry ill-formed bytes or be huge); a property key that is itself
// within the limits may be named. Thread-safety: pure functions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <variant>
#include <vector>

#include "common/result.h"
#include "metadata/table_update.h"
#include "store/store.h"

namespace firn::catalog {

inline constexpr size_t kMaxNameBytes = 255;

// `what` names the position in the message, e.g. "table name", "namespace level".
Status ValidateName(std::string_view what, std::string_view name);
// At least one level; every level a valid name.
Status ValidateNamespace(const store::Namespace& ns);
// Every namespace level and the name (`what` names it, e.g. "destination name"). The
// namespace may be empty here (an identifier in the root namespace; it then does not exist).
Status ValidateIdentifier(std::string_view what, const store::Identifier& id);

struct PropertyLimits {
  size_t max_key_bytes = 256;
  size_t max_value_bytes = size_t{64} << 10;
  size_t max_total_bytes = size_t{1} << 20;  // all keys plus all values
  size_t max_count = 1000;
};

// The limits the service enforces on what callers send (docs/limits.md).
struct InputLimits {
  PropertyLimits properties;
  // The largest metadata file register (table or view) reads, compressed and inflated.
  size_t max_metadata_file_bytes = size_t{64} << 20;
};

// kBadRequest when `props`, the whole map an object would hold after the request, breaks one
// of `limits` or gives firn.schema-evolution an unknown value. `what`: "namespace properties", "table properties", "view properties".
Status CheckProperties(const PropertyLimits& limits, std::string_view what,
                       const store::Properties& props);

// True when `updates` (table or view updates) add or change a property. Only such commits are
// held to the property limits, so an object already over them (registered, or stored before
// the limits were lowered) can still shed properties.
template <typename Update>
bool SetsProperties(const std::vector<Update>& updates) {
  return std::ranges::any_of(updates, [](const Update& update) {
    const auto* set = std::get_if<metadata::SetProperties>(&update);
    return set != nullptr && !set->updates.empty();
  });
}

}  // namespace firn::catalog
