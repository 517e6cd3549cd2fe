// Firn's version: `firn version`, `firn --version` and the firn_build_info metric.
#pragma once

#include <string_view>

namespace firn {

inline constexpr std::string_view kFirnVersion = "0.1.0";

}  // namespace firn
