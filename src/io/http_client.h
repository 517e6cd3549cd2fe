// One blocking HTTP(S) exchange over libcurl, for Firn's own outbound calls that are not S3's
// (those go through io/s3/aws_http): fetching an issuer's JWKS, reading another REST catalog
// (`firn migrate`). Not a pooled client: each call owns its handle.
//
// Contract: thread-safe. Only http and https, at most 3 redirects (or none, if asked). The response body is capped
// at `max_bytes` (a larger one fails). Errors: kServiceUnavailable when the exchange cannot be
// made (DNS, connect, timeout, TLS, the cap), with the cause in `detail`; any status code is a
// response, not an error.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"

namespace firn::io {

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  // An empty value removes a header curl would otherwise send (e.g. {"Expect", ""}).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds timeout{30000};
  size_t max_bytes = size_t{64} << 20;
  bool follow_redirects = true;  // at most 3; false: a 3xx is the response
};

struct HttpResponse {
  long status = 0;
  std::string body;
};

Result<HttpResponse> PerformHttp(const HttpRequest& request);

}  // namespace firn::io
