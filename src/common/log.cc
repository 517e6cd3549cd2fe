#include "common/log.h"

#include <spdlog/sinks/stdout_sinks.h>

#include <string>

namespace firn::log {

void Init(std::string_view level) {
  auto logger = spdlog::stderr_logger_mt("firn");
  // Each line is one JSON object; callers put their fields in the message as `"k":v` pairs.
  logger->set_pattern(R"({"ts":"%Y-%m-%dT%H:%M:%S.%e%z","level":"%l",%v})");
  logger->set_level(spdlog::level::from_str(std::string(level)));
  spdlog::set_default_logger(logger);
  spdlog::flush_on(spdlog::level::warn);
}

bool IsLevel(std::string_view level) {
  for (std::string_view known : {"trace", "debug", "info", "warn", "error", "critical", "off"}) {
    if (level == known) return true;
  }
  return false;
}

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out.push_back(kHex[(c >> 4) & 0xF]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(c);
        }
    }
  }
  return out;
}

}  // namespace firn::log
