// Parses a CommitTableRequest {identifier?, requirements, updates} into a TableChange.
// `path_id` (the table named in the URL) wins over a body identifier; inside a transaction
// there is no path and the identifier is required.
#pragma once

#include <boost/json/value.hpp>

#include "catalog/catalog_service.h"
#include "common/result.h"

namespace firn::rest {

Result<catalog::TableChange> ParseTableChange(const boost::json::value& json,
                                              const store::Identifier* path_id);

}  // namespace firn::rest
