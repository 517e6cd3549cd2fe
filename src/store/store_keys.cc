#include "store/store_keys.h"

#include <array>

namespace firn::store {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int DecodeChar(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

std::string Join(const Namespace& ns, char sep) {
  std::string out;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i > 0) out.push_back(sep);
    out += ns[i];
  }
  return out;
}

}  // namespace

std::string NamespaceKey(const Namespace& ns) { return Join(ns, kNamespaceSeparator); }

Namespace NamespaceFromKey(std::string_view key) {
  Namespace ns;
  if (key.empty()) return ns;
  size_t start = 0;
  while (true) {
    size_t pos = key.find(kNamespaceSeparator, start);
    if (pos == std::string_view::npos) {
      ns.emplace_back(key.substr(start));
      break;
    }
    ns.emplace_back(key.substr(start, pos - start));
    start = pos + 1;
  }
  return ns;
}

std::string ParentKey(const Namespace& ns) {
  if (ns.size() <= 1) return "";
  return NamespaceKey(Namespace(ns.begin(), ns.end() - 1));
}

std::string NamespaceDisplay(const Namespace& ns) { return Join(ns, '.'); }

std::string IdentifierDisplay(const Identifier& id) {
  if (id.ns.empty()) return id.name;
  return NamespaceDisplay(id.ns) + "." + id.name;
}

Status ValidateNamespaceForCreate(const Namespace& ns) {
  if (ns.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "Namespace must have at least one level");
  }
  for (const auto& level : ns) {
    if (level.empty()) {
      return Fail(ErrorKind::kIllegalArgument, "Namespace levels must not be empty");
    }
    if (level.find(kNamespaceSeparator) != std::string::npos) {
      return Fail(ErrorKind::kIllegalArgument,
                  "Namespace levels must not contain the 0x1F separator character");
    }
  }
  return Ok();
}

std::string Base64UrlEncode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  size_t rest = bytes.size() - i;
  if (rest == 1) {
    uint32_t v = uint8_t(bytes[i]) << 16;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
  } else if (rest == 2) {
    uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8);
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
  }
  return out;
}

std::optional<std::string> Base64UrlDecode(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int d = DecodeChar(c);
    if (d < 0) return std::nullopt;
    acc = (acc << 6) | uint32_t(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(char((acc >> bits) & 0xFF));
    }
  }
  // Leftover bits must be zero, or the token was not produced by Base64UrlEncode.
  if ((acc & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

std::string EncodePageToken(std::string_view last_key) { return Base64UrlEncode(last_key); }

Result<std::optional<std::string>> DecodePageToken(const std::optional<std::string>& token) {
  if (!token || token->empty()) return std::optional<std::string>();
  auto decoded = Base64UrlDecode(*token);
  if (!decoded) return Fail(ErrorKind::kIllegalArgument, "Invalid page token: " + *token);
  return std::optional<std::string>(std::move(*decoded));
}

Status CheckPageSize(const std::optional<int64_t>& size) {
  if (size && *size < 1) {
    return Fail(ErrorKind::kIllegalArgument,
                "Invalid page size: " + std::to_string(*size) + " (must be at least 1)");
  }
  return Ok();
}

}  // namespace firn::store
