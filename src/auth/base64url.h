// Base64url (RFC 4648 §5) without padding, as JWS compact serialisation uses it.
//
// Contract: pure functions, thread-safe. Decode is strict: it rejects '=', characters outside
// the url-safe alphabet, an impossible length (4n+1) and non-zero trailing bits, so one byte
// string has exactly one accepted encoding (a token cannot be re-encoded to dodge a cache key
// or a denylist).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace firn::auth {

std::string Base64UrlEncode(std::string_view bytes);

// nullopt when `text` is not canonical unpadded base64url.
std::optional<std::string> Base64UrlDecode(std::string_view text);

}  // namespace firn::auth
