// Shared decoding of path and query parameters used by several route files.
//
// Namespaces and names are decoded, then held to catalog/input_rules.h: a name that breaks a
// rule is a 400 in every position, lookups included (docs/decisions.md). Errors: kBadRequest,
// never echoing the rejected bytes. Thread-safety: pure functions.
#pragma once

#include "common/result.h"
#include "http/http_types.h"
#include "rest/path_codec.h"
#include "store/store.h"

namespace firn::rest {

Result<store::Namespace> NamespaceParam(const http::PathParams& params);
// {namespace} + the name parameter `name_param` ("table" or "view").
Result<store::Identifier> IdentifierParam(const http::PathParams& params,
                                          std::string_view name_param);
// The `parent` query parameter of listNamespaces; absent or empty = the top level.
Result<store::Namespace> ParentParam(const QueryParams& query);
// A boolean query flag, case-insensitive as Java parses it ("True" from Python clients);
// absent or empty = false; anything else is a 400.
Result<bool> BoolParam(const QueryParams& query, std::string_view name);
// An integer query parameter; absent or empty = nullopt; anything else is a 400.
Result<std::optional<int64_t>> IntParam(const QueryParams& query, std::string_view name);
// A text query parameter; absent or empty = nullopt.
std::optional<std::string> TextParam(const QueryParams& query, std::string_view name);
// pageToken / pageSize; a pageSize that is not an integer ≥ 1 is a 400.
Result<store::PageRequest> PageParams(const QueryParams& query);

}  // namespace firn::rest
