// Wall-clock milliseconds since the epoch, as Iceberg metadata uses them.
#pragma once

#include <chrono>
#include <cstdint>

namespace firn {

inline int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace firn
