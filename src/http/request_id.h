// Request ids: echoed as X-Request-Id and used to correlate logs.
//
// Thread-safety: both functions are safe from any thread. No errors.
#pragma once

#include <string>
#include <string_view>

namespace firn::http {

// Longest incoming X-Request-Id we honour.
inline constexpr size_t kMaxRequestIdLength = 64;

// True if a client-supplied id is 1..kMaxRequestIdLength characters of [A-Za-z0-9._-]
// (anything else could smuggle text into logs, so it is replaced).
bool IsAcceptableRequestId(std::string_view id);

// A new id, unique within this process and very likely across processes:
// 8 random hex digits (per process) '-' 12 hex digits of a counter.
std::string NewRequestId();

}  // namespace firn::http
