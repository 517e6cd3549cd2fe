// AwsHttpClient: one SigV4-signed HTTP exchange with an AWS-style service (S3, STS), over a
// pool of libcurl easy handles, with the retry policy both services share. The S3 client and
// the STS client are thin layers over it; nothing else in Firn talks to curl.
//
// A request is signed for `service` ("s3", "sts") in the configured region with the
// configured keys; `x-amz-content-sha256` carries the body's SHA-256 (the empty hash for a
// request without a body). Retries (PerformWithRetry): transport errors, 5xx, 429 and the
// throttling codes (io/s3/s3_errors.h IsRetryable), with jittered exponential backoff, each
// attempt re-signed. Only idempotent requests are retried by their callers' choice.
// Thread-safety: every method may be called concurrently; handles are pooled (one in use per
// calling thread at a time), so TCP/TLS connections are reused across calls.
// Secrets: never logged; the Authorization header and the session token exist only in the
// outgoing request.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/function_ref.h"
#include "common/result.h"
#include "io/s3/s3_config.h"
#include "io/s3/s3_errors.h"
#include "io/s3/s3_location.h"
#include "io/s3/sigv4.h"

namespace firn::io::s3 {

struct AwsRequest {
  std::string method;  // GET, HEAD, PUT, POST, DELETE
  RequestTarget target;
  std::vector<HttpHeader> extra_headers;  // signed too (lower-case names)
  std::string_view body;                  // PUT and POST
};

class AwsHttpClient {
 public:
  // kIllegalArgument for a malformed endpoint, a missing region or missing keys.
  static Result<std::unique_ptr<AwsHttpClient>> Create(S3Config config, std::string service);
  ~AwsHttpClient();
  AwsHttpClient(const AwsHttpClient&) = delete;
  AwsHttpClient& operator=(const AwsHttpClient&) = delete;

  const S3Config& config() const { return config_; }
  const Endpoint& endpoint() const { return endpoint_; }

  // One signed exchange, no retry.
  S3Outcome Perform(const AwsRequest& request);
  // Sends `request` until it succeeds (2xx, or `accept(status)`), fails for good, or the
  // attempts run out. `attempts_made` tells the caller whether an earlier attempt may have
  // taken effect.
  S3Outcome PerformWithRetry(const AwsRequest& request, FunctionRef<bool(long)> accept,
                             int* attempts_made = nullptr);

  static bool Succeeded(const S3Outcome& outcome) {
    return outcome.transport == TransportError::kNone && outcome.status >= 200 &&
           outcome.status < 300;
  }
  // "GET http://host/bucket/key", for error details.
  static std::string MethodAndUrl(const AwsRequest& request) {
    return request.method + " " + request.target.url;
  }

 private:
  class HandlePool;
  AwsHttpClient(S3Config config, Endpoint endpoint, std::string service);
  std::chrono::milliseconds Backoff(int attempt) const;

  const S3Config config_;
  const Endpoint endpoint_;
  const std::string service_;
  std::unique_ptr<HandlePool> pool_;
};

}  // namespace firn::io::s3
