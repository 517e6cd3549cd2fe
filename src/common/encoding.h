// Byte encodings every area shares: lowercase hex, unpadded base64url (RFC 4648 §5, as JWS
// and page tokens use it), padded standard base64 (§4) and percent-decoding (RFC 3986, done by Boost.URL).
//
// Contract: pure functions, thread-safe. Decoders return nullopt for text that is not a valid
// encoding and never throw; what that means (a 400, a rejected token) is the caller's call.
// Base64UrlDecode is strict: it refuses '=', characters outside the url-safe alphabet, a
// length of 4n+1 and non-zero trailing bits, so one byte string has exactly one accepted
// encoding (a token cannot be re-encoded to dodge a cache key or a denylist).
// Percent-decoding comes in two named rules because '+' means different things: in a URI path
// (RFC 3986) it is a '+', in application/x-www-form-urlencoded text (query strings, form
// bodies, the Iceberg REST path segments Java clients form-encode) it is a space.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace firn {

// Two lowercase hex digits per byte.
std::string HexEncode(std::string_view bytes);

std::string Base64UrlEncode(std::string_view bytes);
// Standard base64 with '=' padding (RFC 4648 §4), for formats that ask for it (webhook
// signatures).
std::string Base64Encode(std::string_view bytes);
// nullopt unless `text` is canonical unpadded base64url.
std::optional<std::string> Base64UrlDecode(std::string_view text);

// RFC 3986 percent-encoding: every byte but the unreserved ones (A-Z a-z 0-9 - . _ ~) becomes
// "%XX" (upper-case hex); '/' too unless `encode_slash` is false. SigV4 canonicalises with it,
// and a path segment built from a name is encoded with it.
std::string PercentEncode(std::string_view text, bool encode_slash = true);

// "%XX" (either case) becomes the byte XX; '+' stays '+'. nullopt when a '%' is not followed
// by two hex digits. "%00" decodes to a NUL byte (the caller's name rules refuse it).
std::optional<std::string> PercentDecodePath(std::string_view text);
// As PercentDecodePath, but '+' becomes a space.
std::optional<std::string> PercentDecodeForm(std::string_view text);

using FormPairs = std::vector<std::pair<std::string, std::string>>;
// "a=1&b&c=x+y": split on '&', each pair on its first '='; names and values form-decoded. Empty
// pairs are skipped, a pair without '=' has an empty value, order and repeats are kept (the
// caller decides what a repeated name means). nullopt when any escape is malformed. Only the
// escapes are checked: bytes RFC 3986 would want escaped ('|', raw UTF-8) pass through, as
// the HTTP parser lets them through.
std::optional<FormPairs> ParseFormEncoded(std::string_view text);

}  // namespace firn
