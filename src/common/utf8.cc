#include "common/utf8.h"

#include <cstdint>

namespace firn::utf8 {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool IsContinuation(uint8_t b) { return (b & 0xC0) == 0x80; }

// How many bytes of a sequence starting at `pos` are a valid prefix (at least 1 for an
// ill-formed lead byte), so that a maximal ill-formed subpart becomes one U+FFFD.
size_t IllFormedPrefix(std::string_view text, size_t pos) {
  const auto b0 = static_cast<uint8_t>(text[pos]);
  size_t need = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 1;
  }
  size_t i = 1;
  for (; i <= need && pos + i < text.size(); ++i) {
    const auto b = static_cast<uint8_t>(text[pos + i]);
    const bool ok = i == 1 ? (b >= lo && b <= hi) : IsContinuation(b);
    if (!ok) break;
  }
  return i;
}

}  // namespace

size_t SequenceLength(std::string_view text, size_t pos) {
  if (pos >= text.size()) return 0;
  const auto b0 = static_cast<uint8_t>(text[pos]);
  if (b0 < 0x80) return 1;
  const size_t prefix = IllFormedPrefix(text, pos);
  size_t need = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2;
  return prefix == need ? need : 0;
}

bool IsWellFormed(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t n = SequenceLength(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string Sanitize(std::string_view text) {
  if (IsWellFormed(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (size_t i = 0; i < text.size();) {
    const size_t n = SequenceLength(text, i);
    if (n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out.append(kReplacement);
      i += IllFormedPrefix(text, i);
    }
  }
  return out;
}

}  // namespace firn::utf8
