// Parses a CommitTableRequest {identifier?, requirements, updates} into a TableChange, and a
// CommitViewRequest into a ViewChange, by one code path for the requirements and updates.
// `path_id` (the table named in the URL) wins over a body identifier; inside a transaction
// there is no path and the identifier is required. A view commit is always under its path.
// Errors: kBadRequest naming the field (json_fields.h, metadata parsers).
#pragma once

#include <boost/json/value.hpp>

#include "catalog/catalog_service.h"
#include "common/result.h"

namespace firn::rest {

Result<catalog::TableChange> ParseTableChange(const boost::json::value& json,
                                              const store::Identifier* path_id);
Result<catalog::ViewChange> ParseViewChange(const boost::json::value& json,
                                            const store::Identifier& path_id);

}  // namespace firn::rest
