// Where a webhook may send (docs/events.md, "Where sinks may point"). One home for the rule,
// used when a sink is created (the management API's 400) and again before every delivery (so
// a sink created before the operator narrowed the list is held back, never sent).
//   - the URL: http:// or https://, a host, at most 2048 bytes, no spaces or control bytes;
//   - the operator's allowlist (`--event-sink-urls`): when set, the URL must start with one of
//     its prefixes at a boundary: the prefix ends with '/', or the URL goes on with '/', '?',
//     '#' or ends there. "https://hooks.example.com" admits "https://hooks.example.com/x", not
//     "https://hooks.example.com.evil.net/", "https://hooks.example.com@evil.net/" or
//     "https://hooks.example.com:8443/".
// Messages never contain the URL (a sink's URL may carry a token).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace firn::events {

// "prefix[,prefix…]" → the prefixes; each must be a valid sink URL itself. "" = no allowlist.
Result<std::vector<std::string>> ParseSinkUrlPrefixes(std::string_view text);

// kBadRequest when `url` is malformed or (with a non-empty `allowed`) outside every prefix.
Status CheckSinkUrl(std::string_view url, const std::vector<std::string>& allowed);

// The URL for the audit trail: without userinfo, query or fragment.
std::string RedactedSinkUrl(std::string_view url);

}  // namespace firn::events
