// Where an S3 request goes: URI parsing (s3://bucket/key) and URL construction for path-style
// and virtual-hosted addressing. Pure functions.
//
// Keys are taken byte for byte from the URI (no percent-decoding), as Iceberg's S3FileIO
// does, and percent-encoded once for the wire (S3 does not double-encode).
// Errors: kIllegalArgument for a malformed URI or endpoint.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "io/s3/sigv4.h"

namespace firn::io::s3 {

// True for "<scheme>://..." with a scheme the registry gives this store (io/storage_schemes.h:
// s3, s3a, s3n; case-insensitive).
bool IsS3Uri(std::string_view uri);

struct S3Location {
  std::string scheme;  // as written ("s3", "s3a"), so listed URIs keep the caller's form
  std::string bucket;
  std::string key;     // may be empty (a bucket-level prefix)
};

// "s3://bucket/key" → {s3, bucket, key}. The bucket must be non-empty and made of letters,
// digits, '.', '-' and '_'.
Result<S3Location> ParseS3Uri(std::string_view uri);

// The URI of `key` in `location`'s bucket, in `location`'s scheme.
std::string S3UriOf(const S3Location& location, std::string_view key);

struct Endpoint {
  std::string scheme;  // "http" or "https"
  std::string host;    // "127.0.0.1", "s3.us-east-1.amazonaws.com", "[::1]"
  int port = 0;        // 0: the scheme's default
  // The Host header value: host, plus ":port" when a port was given.
  std::string HostHeader() const;
};

// Parses "http(s)://host[:port]" (a trailing '/' is allowed, a path is not). An empty
// `endpoint` gives https://s3.<region>.amazonaws.com.
Result<Endpoint> ParseEndpoint(std::string_view endpoint, std::string_view region);

struct RequestTarget {
  std::string url;            // what curl is given
  std::string host;           // the Host header, signed
  std::string canonical_uri;  // the encoded path, signed
  std::vector<QueryParam> query;
};

// The target of a request on `bucket`/`key` (key empty: the bucket itself, as for
// ListObjectsV2). The query is encoded in the URL exactly as SigV4 canonicalises it.
RequestTarget MakeTarget(const Endpoint& endpoint, bool path_style, std::string_view bucket,
                         std::string_view key, std::vector<QueryParam> query = {});

}  // namespace firn::io::s3
