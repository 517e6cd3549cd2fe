// Secret: a string that never prints. Formatting it (fmt, spdlog, ostream) yields "***".
#pragma once

#include <fmt/format.h>

#include <ostream>
#include <string>
#include <utility>

namespace firn {

class Secret {
 public:
  Secret() = default;
  explicit Secret(std::string value) : value_(std::move(value)) {}
  // The only way to read the value: the call site says so.
  const std::string& Reveal() const { return value_; }
  bool empty() const { return value_.empty(); }

 private:
  std::string value_;
};

inline std::ostream& operator<<(std::ostream& os, const Secret&) { return os << "***"; }

}  // namespace firn

template <>
struct fmt::formatter<firn::Secret> : fmt::formatter<std::string_view> {
  template <typename Ctx>
  auto format(const firn::Secret&, Ctx& ctx) const {
    return fmt::formatter<std::string_view>::format("***", ctx);
  }
};
