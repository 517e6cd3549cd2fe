// Paged list responses shared by the namespace, table and view routes. `next-page-token` is
// null on the last page (never "", which would make Java clients loop forever).
#pragma once

#include <optional>
#include <string>

#include <boost/json/value.hpp>

#include "http/http_types.h"
#include "store/store.h"

namespace firn::rest {

boost::json::value NextPageToken(const std::optional<std::string>& token);
// ListTablesResponse: {"identifiers":[{namespace,name}...],"next-page-token":...}
http::Response IdentifierPageResponse(const store::Namespace& ns,
                                      const store::Page<std::string>& page);

}  // namespace firn::rest
