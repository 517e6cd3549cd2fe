#include "common/encoding.h"

#include <boost/url/encoding_opts.hpp>
#include <boost/url/pct_string_view.hpp>

#include <array>
#include <cstdint>

namespace firn {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr char kBase64UrlAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

constexpr std::array<int8_t, 256> MakeBase64UrlReverse() {
  std::array<int8_t, 256> table{};
  for (auto& v : table) v = -1;
  for (int i = 0; i < 64; ++i) {
    table[static_cast<uint8_t>(kBase64UrlAlphabet[i])] = static_cast<int8_t>(i);
  }
  return table;
}
constexpr std::array<int8_t, 256> kBase64UrlReverse = MakeBase64UrlReverse();

std::optional<std::string> PercentDecode(std::string_view text, bool space_as_plus) {
  auto encoded = boost::urls::make_pct_string_view(text);
  if (!encoded) return std::nullopt;
  boost::urls::encoding_opts opts;
  opts.space_as_plus = space_as_plus;
  return encoded->decode(opts);
}

}  // namespace

std::string HexEncode(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kHexDigits[c >> 4]);
    out.push_back(kHexDigits[c & 0xF]);
  }
  return out;
}

namespace {

// RFC 4648 base64 with `alphabet`; '=' padding when `pad`.
std::string Base64With(const char* alphabet, bool pad, std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (uint32_t{p[i]} << 16) | (uint32_t{p[i + 1]} << 8) | p[i + 2];
    for (int shift : {18, 12, 6, 0}) out.push_back(alphabet[(v >> shift) & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = uint32_t{p[i]} << 16;
    if (rest == 2) v |= uint32_t{p[i + 1]} << 8;
    // 1 byte → 2 characters, 2 bytes → 3; then the padding to 4.
    for (size_t k = 0; k <= rest; ++k) out.push_back(alphabet[(v >> (18 - 6 * k)) & 63]);
    if (pad) out.append(3 - rest, '=');
  }
  return out;
}

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

std::string Base64UrlEncode(std::string_view bytes) {
  return Base64With(kBase64UrlAlphabet, /*pad=*/false, bytes);
}

std::string Base64Encode(std::string_view bytes) {
  return Base64With(kBase64Alphabet, /*pad=*/true, bytes);
}

std::optional<std::string> Base64UrlDecode(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const int8_t v = kBase64UrlReverse[static_cast<uint8_t>(c)];
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  // Leftover bits must be zero, otherwise two encodings would decode to the same bytes.
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

std::optional<std::string> PercentDecodePath(std::string_view text) {
  return PercentDecode(text, false);
}

std::optional<std::string> PercentDecodeForm(std::string_view text) {
  return PercentDecode(text, true);
}

std::optional<FormPairs> ParseFormEncoded(std::string_view text) {
  FormPairs out;
  while (!text.empty()) {
    const size_t amp = text.find('&');
    const std::string_view pair = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    auto name = PercentDecodeForm(pair.substr(0, eq));
    auto value = PercentDecodeForm(eq == std::string_view::npos ? std::string_view()
                                                                 : pair.substr(eq + 1));
    if (!name || !value) return std::nullopt;
    out.emplace_back(std::move(*name), std::move(*value));
  }
  return out;
}

std::string PercentEncode(std::string_view text, bool encode_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
                            c == '~';
    if (unreserved || (c == '/' && !encode_slash)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    }
  }
  return out;
}

}  // namespace firn
