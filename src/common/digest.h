// Message digests every area shares, over OpenSSL: SHA-256 (hex) and HMAC-SHA256 (raw).
// SigV4 signs with them; the token service keeps its verified-secret cache keyed by them.
//
// Contract: pure functions, thread-safe, never throw.
#pragma once

#include <string>
#include <string_view>

namespace firn {

// Hex (lowercase) SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);
// Raw 32-byte HMAC-SHA256 of `data` under `key`.
std::string HmacSha256(std::string_view key, std::string_view data);

}  // namespace firn
