// Structured (JSON-lines) logging on spdlog. Never pass a Secret's revealed value or a
// request body to these functions.
#pragma once

#include <spdlog/spdlog.h>

#include <string_view>

namespace firn::log {

// Installs a JSON-lines logger on stderr at `level` ("debug", "info", "warn", "error").
void Init(std::string_view level);
// True for the levels Init takes: trace, debug, info, warn, error, critical, off. (spdlog
// reads any other word as "off", which silenced every line: callers refuse it first.)
bool IsLevel(std::string_view level);

// JSON-escapes `text` so it can be placed inside a quoted log field.
std::string Escape(std::string_view text);

}  // namespace firn::log
