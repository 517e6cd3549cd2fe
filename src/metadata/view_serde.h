// JSON (de)serialisation of view metadata (view spec; Java ViewMetadataParser and
// ViewVersionParser field names and order).
//
// Parsers validate shape and types and return kBadRequest naming the field ("Cannot parse view
// version: missing field 'version-id'"); they never echo the input. A whole document must also
// satisfy ValidateViewMetadata's invariants. Schemas use serde.h. Writers are compact.
// Thread-safety: pure functions.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

#include "common/result.h"
#include "metadata/view_metadata.h"

namespace firn::metadata {

// Whole documents.
Result<ViewMetadata> ParseViewMetadata(std::string_view json_text);
Result<ViewMetadata> ViewMetadataFromJson(const boost::json::value& json);
boost::json::object ViewMetadataToJson(const ViewMetadata& metadata);
std::string SerializeViewMetadata(const ViewMetadata& metadata);

// Parts (used by add-view-version and by create-view requests). A version's `schema-id` may be
// -1 here; whole documents reject versions whose schema is unknown.
Result<ViewVersion> ViewVersionFromJson(const boost::json::value& json);
boost::json::object ViewVersionToJson(const ViewVersion& version);
Result<ViewRepresentation> ViewRepresentationFromJson(const boost::json::value& json);
boost::json::object ViewRepresentationToJson(const ViewRepresentation& representation);

// The invariants of a stored view (Java ViewMetadata.check): format version 1, the current
// version exists, every version's schema exists. kValidation naming the first violation.
Status ValidateViewMetadata(const ViewMetadata& metadata);

}  // namespace firn::metadata
