// Content coding of responses (RFC 9110 §8.4, §12.5.3): gzip when the client accepts it, and
// the entity tags that go with it.
//
// Contract:
// - A response is sent gzip-encoded when it is compressible (not a HEAD request; a status with
//   a body, so not 1xx, 204 or 304; a body of at least kGzipMinBytes; a textual Content-Type:
//   text/*, JSON, JavaScript, XML, YAML, *+json, *+xml; no Content-Encoding yet) and the
//   request's Accept-Encoding prefers gzip over identity. Already-compressed types (images,
//   archives) and untyped bodies are left alone. Every compressible response carries
//   `Vary: Accept-Encoding`, whichever coding it is sent in.
// - Accept-Encoding: comma-separated codings with optional `;q=` weights, case-insensitive,
//   every field line of the request together. `gzip` (or `x-gzip`) with q > 0 accepts gzip;
//   unlisted, `*` decides; `q=0` refuses, even beside `*`. gzip is preferred unless identity
//   (or `*`, standing for it) is given a higher weight. An element with a malformed weight is
//   ignored; no header, an empty one, or garbage means identity.
// - A strong ETag names one representation, so the gzip one gets its own: `"x"` becomes
//   `"x-gzip"` (a weak tag already allows either coding and stays). `IfNoneMatch` accepts a
//   tag in either form, and a 304 answering the gzip form carries that form, so a client keeps
//   validating the copy it holds.
// Thread-safety: pure functions. Cost: parsing reads each header byte once and allocates
// nothing; only compressing allocates.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "http/http_types.h"

namespace firn::http {

// Below this a response is sent as is: gzip's 18 bytes of framing and a round of zlib set-up
// buy nothing on a small body.
inline constexpr size_t kGzipMinBytes = 1024;

// Whether an Accept-Encoding field value (one line) prefers gzip over identity.
bool AcceptsGzip(std::string_view accept_encoding);
// The same over every Accept-Encoding field line of `req` (false when there is none).
bool AcceptsGzip(const Request& req);

// Whether `r` goes to `req` gzip-encoded (the contract above). A handler that can produce the
// gzip body more cheaply than compressing `r.body` asks this, then calls UseGzipBody.
bool ShouldGzip(const Request& req, const Response& r);

// Makes `r` its gzip representation: `gzipped` (the gzip encoding of `r.body`) as the body,
// Content-Encoding: gzip, Vary: Accept-Encoding, a strong ETag in its gzip form.
void UseGzipBody(Response& r, std::string gzipped);

// What the server applies to every handler response: a response ShouldGzip selects is
// compressed (unless the handler already did, see UseGzipBody), every compressible one gets
// Vary, and a 304 answering the gzip form of its ETag names that form.
void EncodeContent(const Request& req, Response& r);

// The gzip representation's entity tag for `etag` (unchanged unless it is a strong tag).
std::string GzipEtag(std::string_view etag);

// Whether an If-None-Match field value ("*" or a list of entity tags) names `etag` (a strong
// tag) in either coding. Weak comparison, as RFC 9110 §13.1.2 asks; malformed lists match
// nothing from the first bad element on.
bool IfNoneMatch(std::string_view if_none_match, std::string_view etag);

}  // namespace firn::http
