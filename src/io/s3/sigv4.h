// AWS Signature Version 4, as pure functions: no clock, no I/O, no global state.
//
// The S3 client signs every request with SignRequest (header auth); PresignUrlQuery makes
// query-string auth for presigned URLs. Both follow the SigV4 spec for S3: the path is
// URI-encoded once (S3 does not double-encode and does not normalise `.`/`..` segments),
// query names and values are URI-encoded and sorted, header values are trimmed with inner
// whitespace runs collapsed, and the payload is either its SHA-256 or UNSIGNED-PAYLOAD.
//
// Thread-safety: every function is reentrant. Secrets: the secret key is read only through
// Secret::Reveal() inside the key derivation; no returned string contains it.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "common/digest.h"  // Sha256Hex, HmacSha256
#include "common/secret.h"

namespace firn::io::s3 {

inline constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";
// SHA-256 of the empty string, the payload hash of every bodiless request.
inline constexpr std::string_view kEmptyPayloadSha256 =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

struct Credentials {
  std::string access_key_id;
  Secret secret_access_key;
  Secret session_token;  // empty for long-term keys
};

struct HttpHeader {
  std::string name;
  std::string value;
};

// One query parameter, NOT encoded (the signer encodes it).
struct QueryParam {
  std::string name;
  std::string value;
};

struct SigningRequest {
  std::string method;                // "GET", "PUT", ...
  std::string canonical_uri;         // the path as sent, already URI-encoded: "/bucket/a%20b"
  std::vector<QueryParam> query;     // unencoded, any order
  std::vector<HttpHeader> headers;   // every header to sign; must include host and x-amz-date
  std::string payload_hash;          // hex SHA-256 of the body, or kUnsignedPayload
};

struct SigningScope {
  std::string region;
  std::string service = "s3";
};

// AWS URI encoding: A-Z a-z 0-9 - . _ ~ stay; '/' stays unless `encode_slash`; every other
// byte becomes %XX with upper-case hex (so a space is %20, never '+').
std::string UriEncode(std::string_view text, bool encode_slash);

// "20150830T123600Z" for `time` (UTC).
std::string FormatAmzDate(std::chrono::system_clock::time_point time);

// The canonical query string: names and values encoded, sorted by name then value.
std::string CanonicalQueryString(const std::vector<QueryParam>& query);

struct CanonicalHeaders {
  std::string canonical;       // "name:value\n" per header, sorted, lower-case names
  std::string signed_headers;  // "host;x-amz-date"
};
// Lower-cases names, trims values and collapses inner whitespace runs, joins repeated names
// with ',' in their given order, sorts by name.
CanonicalHeaders CanonicalizeHeaders(const std::vector<HttpHeader>& headers);

std::string CanonicalRequest(const SigningRequest& request);
// "20150830/us-east-1/service/aws4_request"; `amz_date` is the full "YYYYMMDDTHHMMSSZ".
std::string CredentialScope(std::string_view amz_date, const SigningScope& scope);
std::string StringToSign(std::string_view amz_date, std::string_view credential_scope,
                         std::string_view canonical_request);
// The raw derived key: HMAC chain "AWS4"+secret → date → region → service → "aws4_request".
std::string SigningKey(const Secret& secret_access_key, std::string_view amz_date,
                       const SigningScope& scope);

struct SignedRequest {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signature;      // hex
  std::string authorization;  // the Authorization header value
};

// Signs `request` as of `amz_date`. The caller has already put host, x-amz-date and (for S3)
// x-amz-content-sha256 and x-amz-security-token into request.headers.
SignedRequest SignRequest(const SigningRequest& request, const Credentials& credentials,
                          const SigningScope& scope, std::string_view amz_date);

// Query-string auth (presigned URL). `request.headers` must include host; `request.query`
// holds the request's own parameters. Returns the full encoded query string to append after
// '?', ending in X-Amz-Signature. The payload is UNSIGNED-PAYLOAD, as S3 requires.
std::string PresignUrlQuery(const SigningRequest& request, const Credentials& credentials,
                            const SigningScope& scope, std::string_view amz_date,
                            int expires_seconds);

}  // namespace firn::io::s3
