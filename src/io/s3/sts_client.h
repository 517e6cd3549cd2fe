// STS AssumeRole (API version 2011-06-15) signed with our SigV4 (service "sts"),
// the source of the temporary credentials Firn vends to engines.
//
// The request is a form-encoded POST to the STS endpoint (AWS's, or an S3-compatible store's
// own: SeaweedFS answers STS on its S3 port) with the role, a session name, an inline session
// policy and a duration. The server's own keys sign it; they never leave this process.
//
// Errors (Error.detail carries the HTTP status and STS code, never a credential):
//   kServiceUnavailable   transport failure, 5xx, 429, throttling: worth trying again later
//   kUnsupportedOperation the store refused what was asked (malformed or too large session
//                         policy, an action it does not implement): vending is impossible here
//   kForbidden            the store refused the server's keys or the role (AccessDenied,
//                         InvalidClientTokenId, a role trust policy): a configuration error
//   kIllegalArgument      a request Firn should never build (checked before sending)
//   kInternal             anything else, or a response that is not an AssumeRole result
// Retries: AssumeRole has no side effect beyond the credentials it returns, so it is retried
// like an idempotent request (io/s3/aws_http.h).
// Thread-safety: AssumeRole may be called concurrently (AwsHttpClient is thread-safe).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "common/secret.h"

namespace firn::io::s3 {

class AwsHttpClient;

struct AssumeRoleRequest {
  std::string role_arn;
  // 2-64 characters of [A-Za-z0-9+=,.@_-]; shows in the store's own logs.
  std::string session_name;
  std::string policy;  // inline session policy JSON (≤ 2048 characters); empty: none
  std::chrono::seconds duration{3600};  // 900 s to 43,200 s
  std::string external_id;              // optional
};

struct TemporaryCredentials {
  std::string access_key_id;
  Secret secret_access_key;
  Secret session_token;
  int64_t expires_at_ms = 0;  // Unix epoch milliseconds
};

// The largest session policy STS accepts (AWS and SeaweedFS alike).
inline constexpr size_t kMaxSessionPolicyChars = 2048;

// One AssumeRole through `sts`, an AwsHttpClient created for service "sts" whose endpoint is
// the STS endpoint (region, keys, timeouts and retries as for S3).
Result<TemporaryCredentials> AssumeRole(AwsHttpClient& sts, const AssumeRoleRequest& request);

// Whether `c` may appear in an STS session name.
bool IsSessionNameChar(char c);

// Pure parts, exposed for tests.
// The form body of `request` (keys in a fixed order, RFC 3986 encoding).
std::string AssumeRoleForm(const AssumeRoleRequest& request);
// Checks `request` against STS's limits (session name, policy size, duration).
Status CheckAssumeRoleRequest(const AssumeRoleRequest& request);
// The credentials of an <AssumeRoleResponse>.
Result<TemporaryCredentials> ParseAssumeRoleResponse(std::string_view xml);
// "2026-12-01T15:00:00Z" (optionally with fractional seconds) → epoch milliseconds.
std::optional<int64_t> ParseIso8601Millis(std::string_view text);

}  // namespace firn::io::s3
