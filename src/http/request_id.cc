#include "http/request_id.h"

#include <atomic>
#include <cstdint>
#include <random>

namespace firn::http {

namespace {

constexpr char kHex[] = "0123456789abcdef";

uint32_t ProcessPrefix() {
  static const uint32_t prefix = [] {
    std::random_device rd;
    return static_cast<uint32_t>(rd());
  }();
  return prefix;
}

}  // namespace

bool IsAcceptableRequestId(std::string_view id) {
  if (id.empty() || id.size() > kMaxRequestIdLength) return false;
  for (char c : id) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string NewRequestId() {
  static std::atomic<uint64_t> counter{0};
  const uint64_t n = counter.fetch_add(1, std::memory_order_relaxed);
  const uint32_t prefix = ProcessPrefix();
  std::string id(8 + 1 + 12, '-');
  for (int i = 0; i < 8; ++i) id[i] = kHex[(prefix >> (28 - 4 * i)) & 0xF];
  for (int i = 0; i < 12; ++i) id[9 + i] = kHex[(n >> (44 - 4 * i)) & 0xF];
  return id;
}

}  // namespace firn::http
