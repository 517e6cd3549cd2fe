// The server side of createTable (checklist §1.6, §5.2): a fresh TableMetadata from a
// CreateTableRequest, with ids reassigned exactly as Java's TableMetadata.newTableMetadata.
//
// Column ids become 1..n in Java's TypeUtil.assignFreshIds order (a struct's own fields first,
// then each field's nested type, depth-first; list element and map key/value ids before their
// types). Partition fields and sort fields are rebound to the new ids through their source
// columns; partition field ids start at 1000, spec-id is 0, sort-order-id 1 (0 if unsorted).
// `format-version` comes from the properties (default 2); reserved properties are not stored.
// Errors: malformed JSON parts → kBadRequest; an unsupported format version or a spec/order
// that names a missing column → kIllegalArgument; a type the format version does not allow →
// kValidation ("variant is not supported until v3").
// Thread-safety: pure function (draws a random table UUID).
#pragma once

#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "metadata/table_metadata.h"

namespace firn::metadata {

inline constexpr std::string_view kFormatVersionProperty = "format-version";

struct CreateTableInput {
  std::string location;  // kept byte for byte
  boost::json::value schema;
  std::optional<boost::json::value> partition_spec;
  std::optional<boost::json::value> write_order;
  std::map<std::string, std::string> properties;
};

Result<TableMetadata> NewTableMetadata(const CreateTableInput& in, int64_t now_ms);

// True for the properties used on create/replace but never persisted (checklist §5.2).
bool IsReservedTableProperty(std::string_view key);

}  // namespace firn::metadata
