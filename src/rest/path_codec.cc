#include "rest/path_codec.h"

#include "common/encoding.h"

namespace firn::rest {
namespace {

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

constexpr std::string_view kMalformed = "Malformed percent-encoding in request URI";

}  // namespace

Result<std::string> FormDecode(std::string_view raw) {
  auto decoded = PercentDecodeForm(raw);
  if (!decoded) return Fail(ErrorKind::kBadRequest, std::string(kMalformed));
  return std::move(*decoded);
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
  auto pairs = ParseFormEncoded(raw);
  if (!pairs) return Fail(ErrorKind::kBadRequest, std::string(kMalformed));
  QueryParams q;
  // emplace keeps the first value of a repeated name.
  for (auto& [name, value] : *pairs) q.values_.emplace(std::move(name), std::move(value));
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
