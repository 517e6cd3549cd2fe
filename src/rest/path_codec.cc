#include "rest/path_codec.h"

namespace firn::rest {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Position of the next "%1F"/"%1f" or raw 0x1F at or after `from`, with its length.
std::pair<size_t, size_t> FindSeparator(std::string_view s, size_t from) {
  for (size_t i = from; i < s.size(); ++i) {
    if (s[i] == '\x1f') return {i, 1};
    if (s[i] == '%' && i + 2 < s.size() && s[i + 1] == '1' &&
        (s[i + 2] == 'F' || s[i + 2] == 'f')) {
      return {i, 3};
    }
  }
  return {std::string_view::npos, 0};
}

}  // namespace

Result<std::string> FormDecode(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%') {
      if (i + 2 >= raw.size()) {
        return Fail(ErrorKind::kBadRequest, "Malformed percent-encoding in request URI");
      }
      const int hi = HexValue(raw[i + 1]);
      const int lo = HexValue(raw[i + 2]);
      if (hi < 0 || lo < 0) {
        return Fail(ErrorKind::kBadRequest, "Malformed percent-encoding in request URI");
      }
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Result<store::Namespace> DecodeNamespaceSegment(std::string_view raw) {
  store::Namespace ns;
  size_t start = 0;
  while (true) {
    auto [pos, len] = FindSeparator(raw, start);
    std::string_view level =
        raw.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start);
    auto decoded = FormDecode(level);
    if (!decoded) return Fail(decoded.error());
    if (decoded->empty()) {
      return Fail(ErrorKind::kBadRequest, "Invalid namespace: empty level in namespace path");
    }
    ns.push_back(std::move(*decoded));
    if (pos == std::string_view::npos) break;
    start = pos + len;
  }
  return ns;
}

Result<std::string> DecodeNameSegment(std::string_view raw) {
  auto decoded = FormDecode(raw);
  if (!decoded) return Fail(decoded.error());
  if (decoded->empty()) return Fail(ErrorKind::kBadRequest, "Invalid name: empty");
  return decoded;
}

Result<QueryParams> QueryParams::Parse(std::string_view raw) {
  QueryParams q;
  size_t start = 0;
  while (start <= raw.size() && !raw.empty()) {
    size_t amp = raw.find('&', start);
    std::string_view pair = raw.substr(start, amp == std::string_view::npos ? amp : amp - start);
    if (!pair.empty()) {
      size_t eq = pair.find('=');
      auto name = FormDecode(pair.substr(0, eq));
      if (!name) return Fail(name.error());
      auto value = FormDecode(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
      if (!value) return Fail(value.error());
      q.values_.emplace(std::move(*name), std::move(*value));
    }
    if (amp == std::string_view::npos) break;
    start = amp + 1;
  }
  return q;
}

std::optional<std::string_view> QueryParams::Get(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return std::string_view(it->second);
}

store::Namespace NamespaceFromQueryValue(std::string_view value) {
  store::Namespace ns;
  if (value.empty()) return ns;
  size_t start = 0;
  while (true) {
    size_t pos = value.find('\x1f', start);
    ns.emplace_back(value.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return ns;
}

}  // namespace firn::rest
