// JWKS loading for external issuers: from a file or by one blocking HTTP(S) GET (libcurl).
//
// Contract: thread-safe (each call owns its curl handle). kServiceUnavailable when the URL
// cannot be fetched or answers non-2xx; kNotFound when the file cannot be read; the document
// is capped at 1 MiB. Used at start and on an unknown kid (the caller rate-limits).
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "common/result.h"

namespace firn::access {

Result<std::string> ReadJwksFile(const std::string& path);
Result<std::string> FetchJwksUrl(const std::string& url,
                                 std::chrono::milliseconds timeout = std::chrono::seconds(5));

}  // namespace firn::access
