// Remote signing of a client's S3 request (the REST spec's signRequest): what the request
// touches, what access it needs, and its SigV4 headers signed with the server's keys. Pure
// functions; the catalog decides whether the caller may have the signature.
//
// A request is addressed either path-style (http://host[:port]/bucket/key) or virtual-hosted
// (http://bucket.host[:port]/key); `endpoint_host` (the client-facing endpoint's host) tells
// them apart: a host that is `<bucket>.<endpoint_host>` is virtual-hosted, anything else is
// path-style. What it touches: the key itself; for a listing (GET on the bucket) the `prefix`
// parameter; for DeleteObjects (POST ?delete) every key in the body. On the bucket itself only
// a GET/HEAD with listing parameters only (list-type, prefix, …) and DeleteObjects are signed.
// Access: GET and HEAD read; PUT, POST and DELETE write (uploads, multipart steps, deletes).
// Errors: kIllegalArgument for a URI that is not http(s), names no bucket, carries a malformed
// escape, or a method S3 has no use for here (PATCH, OPTIONS); kIllegalArgument for a
// DeleteObjects body that is not a <Delete> document.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "io/s3/sigv4.h"

namespace firn::io::s3 {

struct ClientS3Request {
  std::string method;  // upper case
  std::string uri;     // as the client will send it
  std::vector<HttpHeader> headers;
  std::string body;  // only for DeleteObjects
};

struct SignTarget {
  std::string scheme;  // http / https
  std::string host;    // with :port when given
  std::string path;    // encoded, as sent
  std::vector<QueryParam> query;  // decoded
  std::string bucket;
  std::string key;  // decoded; empty for a bucket-level request
};

enum class S3Access { kRead, kWrite };

Result<SignTarget> ParseSignTarget(std::string_view uri, std::string_view endpoint_host);
Result<S3Access> AccessOf(std::string_view method);
// The object keys (decoded) or key prefixes the request reaches: never empty for an accepted
// request (a bucket-level request without a prefix reaches the whole bucket: "").
Result<std::vector<std::string>> TouchedKeys(const ClientS3Request& request,
                                             const SignTarget& target);

// The headers the client sends: its own (except the ones SigV4 must not cover: authorization,
// user-agent, expect, connection, x-amzn-trace-id) plus x-amz-date, x-amz-content-sha256 (the
// client's, else UNSIGNED-PAYLOAD), x-amz-security-token (temporary server keys) and
// Authorization, signed for service s3 in `region`.
std::vector<HttpHeader> SignClientRequest(const ClientS3Request& request,
                                          const SignTarget& target,
                                          const Credentials& credentials,
                                          std::string_view region,
                                          std::chrono::system_clock::time_point now);

}  // namespace firn::io::s3
