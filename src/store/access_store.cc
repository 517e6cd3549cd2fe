#include "store/access_store.h"

#include <array>

namespace firn::store {
namespace {

// Index = enumerator value; the stored names never change (append only).
constexpr std::array<std::string_view, 9> kKindNames = {
    "realm",          "signing_key",           "principal",
    "principal_role", "catalog",               "catalog_role",
    "principal_role_grant", "catalog_role_grant", "privilege_grant",
};

}  // namespace

std::string_view AccessKindName(AccessKind kind) {
  const auto index = static_cast<size_t>(kind);
  return index < kKindNames.size() ? kKindNames[index] : std::string_view("unknown");
}

std::optional<AccessKind> ParseAccessKind(std::string_view name) {
  for (size_t i = 0; i < kKindNames.size(); ++i) {
    if (kKindNames[i] == name) return static_cast<AccessKind>(i);
  }
  return std::nullopt;
}

}  // namespace firn::store
