#include "store/store_keys.h"

#include "common/encoding.h"

namespace firn::store {
namespace {

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
