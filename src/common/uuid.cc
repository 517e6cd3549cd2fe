#include "common/uuid.h"

#include <openssl/rand.h>

#include <array>
#include <cctype>
#include <cstdint>
#include <random>
#include <string_view>

#include "common/clock.h"

namespace firn {
namespace {

std::string Format(const std::array<uint8_t, 16>& b) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[b[i] >> 4]);
    out.push_back(kHex[b[i] & 0xF]);
  }
  return out;
}

void FillRandom(uint8_t* data, size_t n) {
  if (RAND_bytes(data, static_cast<int>(n)) != 1) {
    // OpenSSL's CSPRNG should never fail; fall back rather than return a fixed value.
    thread_local std::mt19937_64 gen{std::random_device{}()};
    for (size_t i = 0; i < n; ++i) data[i] = static_cast<uint8_t>(gen());
  }
}

}  // namespace

std::string NewUuidV4() {
  std::array<uint8_t, 16> b{};
  FillRandom(b.data(), b.size());
  b[6] = (b[6] & 0x0F) | 0x40;
  b[8] = (b[8] & 0x3F) | 0x80;
  return Format(b);
}

std::string NewUuidV7() {
  std::array<uint8_t, 16> b{};
  FillRandom(b.data(), b.size());
  const uint64_t ms = static_cast<uint64_t>(NowMillis());
  for (int i = 0; i < 6; ++i) b[i] = static_cast<uint8_t>(ms >> (40 - 8 * i));
  b[6] = (b[6] & 0x0F) | 0x70;
  b[8] = (b[8] & 0x3F) | 0x80;
  return Format(b);
}

bool IsUuid(std::string_view t) {
  if (t.size() != 36) return false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!std::isxdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  return true;
}

}  // namespace firn
