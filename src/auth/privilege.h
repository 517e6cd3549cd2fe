// Polaris privileges, the securables each may be granted on, and privilege implication.
//
// Contract: pure data and functions, thread-safe. Names are Polaris's verbatim
// (polaris-management-service.yml, PolarisPrivilege.java). Implication follows Polaris's
// SUPER_PRIVILEGES table (PolarisAuthorizerImpl / DefaultPolarisAuthorizer): it is ONE level,
// not transitive — "granted G satisfies desired D" iff G == D or G ∈ SUPER_PRIVILEGES[D].
// Sources and the few places where Firn had to choose are listed in docs/auth.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace firn::auth {

#define FIRN_PRIVILEGES(X)                                                              \
  X(SERVICE_MANAGE_ACCESS) X(CATALOG_MANAGE_ACCESS) X(CATALOG_ROLE_USAGE)               \
  X(PRINCIPAL_ROLE_USAGE)                                                               \
  X(NAMESPACE_CREATE) X(TABLE_CREATE) X(VIEW_CREATE)                                    \
  X(NAMESPACE_DROP) X(TABLE_DROP) X(VIEW_DROP)                                          \
  X(NAMESPACE_LIST) X(TABLE_LIST) X(VIEW_LIST)                                          \
  X(NAMESPACE_READ_PROPERTIES) X(TABLE_READ_PROPERTIES) X(VIEW_READ_PROPERTIES)         \
  X(NAMESPACE_WRITE_PROPERTIES) X(TABLE_WRITE_PROPERTIES) X(VIEW_WRITE_PROPERTIES)      \
  X(TABLE_READ_DATA) X(TABLE_WRITE_DATA)                                                \
  X(NAMESPACE_FULL_METADATA) X(TABLE_FULL_METADATA) X(VIEW_FULL_METADATA)               \
  X(CATALOG_CREATE) X(CATALOG_DROP) X(CATALOG_LIST) X(CATALOG_READ_PROPERTIES)          \
  X(CATALOG_WRITE_PROPERTIES) X(CATALOG_FULL_METADATA) X(CATALOG_MANAGE_METADATA)       \
  X(CATALOG_MANAGE_CONTENT)                                                             \
  X(PRINCIPAL_LIST_GRANTS) X(PRINCIPAL_ROLE_LIST_GRANTS) X(CATALOG_ROLE_LIST_GRANTS)    \
  X(CATALOG_LIST_GRANTS) X(NAMESPACE_LIST_GRANTS) X(TABLE_LIST_GRANTS)                  \
  X(VIEW_LIST_GRANTS)                                                                   \
  X(CATALOG_MANAGE_GRANTS_ON_SECURABLE) X(NAMESPACE_MANAGE_GRANTS_ON_SECURABLE)         \
  X(TABLE_MANAGE_GRANTS_ON_SECURABLE) X(VIEW_MANAGE_GRANTS_ON_SECURABLE)                \
  X(PRINCIPAL_CREATE) X(PRINCIPAL_DROP) X(PRINCIPAL_LIST) X(PRINCIPAL_READ_PROPERTIES)  \
  X(PRINCIPAL_WRITE_PROPERTIES) X(PRINCIPAL_FULL_METADATA)                              \
  X(PRINCIPAL_MANAGE_GRANTS_ON_SECURABLE) X(PRINCIPAL_MANAGE_GRANTS_FOR_GRANTEE)        \
  X(PRINCIPAL_ROTATE_CREDENTIALS) X(PRINCIPAL_RESET_CREDENTIALS)                        \
  X(PRINCIPAL_ROLE_CREATE) X(PRINCIPAL_ROLE_DROP) X(PRINCIPAL_ROLE_LIST)                \
  X(PRINCIPAL_ROLE_READ_PROPERTIES) X(PRINCIPAL_ROLE_WRITE_PROPERTIES)                  \
  X(PRINCIPAL_ROLE_FULL_METADATA) X(PRINCIPAL_ROLE_MANAGE_GRANTS_ON_SECURABLE)          \
  X(PRINCIPAL_ROLE_MANAGE_GRANTS_FOR_GRANTEE)                                           \
  X(CATALOG_ROLE_CREATE) X(CATALOG_ROLE_DROP) X(CATALOG_ROLE_LIST)                      \
  X(CATALOG_ROLE_READ_PROPERTIES) X(CATALOG_ROLE_WRITE_PROPERTIES)                      \
  X(CATALOG_ROLE_FULL_METADATA) X(CATALOG_ROLE_MANAGE_GRANTS_ON_SECURABLE)              \
  X(CATALOG_ROLE_MANAGE_GRANTS_FOR_GRANTEE)                                             \
  X(POLICY_CREATE) X(POLICY_READ) X(POLICY_DROP) X(POLICY_WRITE) X(POLICY_LIST)         \
  X(POLICY_FULL_METADATA) X(POLICY_ATTACH) X(POLICY_DETACH)                             \
  X(CATALOG_ATTACH_POLICY) X(CATALOG_DETACH_POLICY) X(NAMESPACE_ATTACH_POLICY)          \
  X(NAMESPACE_DETACH_POLICY) X(TABLE_ATTACH_POLICY) X(TABLE_DETACH_POLICY)              \
  X(TABLE_ASSIGN_UUID) X(TABLE_UPGRADE_FORMAT_VERSION) X(TABLE_ADD_SCHEMA)              \
  X(TABLE_SET_CURRENT_SCHEMA) X(TABLE_ADD_PARTITION_SPEC) X(TABLE_ADD_SORT_ORDER)       \
  X(TABLE_SET_DEFAULT_SORT_ORDER) X(TABLE_ADD_SNAPSHOT) X(TABLE_SET_SNAPSHOT_REF)       \
  X(TABLE_REMOVE_SNAPSHOTS) X(TABLE_REMOVE_SNAPSHOT_REF) X(TABLE_SET_LOCATION)          \
  X(TABLE_SET_PROPERTIES) X(TABLE_REMOVE_PROPERTIES) X(TABLE_SET_STATISTICS)            \
  X(TABLE_REMOVE_STATISTICS) X(TABLE_REMOVE_PARTITION_SPECS) X(TABLE_MANAGE_STRUCTURE)

enum class Privilege : uint8_t {
#define FIRN_PRIVILEGE_ENUM(name) k##name,
  FIRN_PRIVILEGES(FIRN_PRIVILEGE_ENUM)
#undef FIRN_PRIVILEGE_ENUM
};

inline constexpr int kPrivilegeCount = 0
#define FIRN_PRIVILEGE_COUNT(name) +1
    FIRN_PRIVILEGES(FIRN_PRIVILEGE_COUNT)
#undef FIRN_PRIVILEGE_COUNT
    ;
static_assert(kPrivilegeCount <= 128);

// A set of privileges: two machine words, constexpr, trivially copyable.
class PrivilegeSet {
 public:
  constexpr PrivilegeSet() = default;
  constexpr PrivilegeSet(std::initializer_list<Privilege> ps) {
    for (Privilege p : ps) Add(p);
  }
  constexpr void Add(Privilege p) { w_[Idx(p) >> 6] |= uint64_t{1} << (Idx(p) & 63); }
  constexpr bool Contains(Privilege p) const {
    return (w_[Idx(p) >> 6] >> (Idx(p) & 63)) & 1;
  }
  constexpr bool Intersects(const PrivilegeSet& o) const {
    return ((w_[0] & o.w_[0]) | (w_[1] & o.w_[1])) != 0;
  }
  constexpr bool empty() const { return (w_[0] | w_[1]) == 0; }
  constexpr PrivilegeSet& operator|=(const PrivilegeSet& o) {
    w_[0] |= o.w_[0];
    w_[1] |= o.w_[1];
    return *this;
  }
  constexpr bool operator==(const PrivilegeSet&) const = default;
  // Calls f(Privilege) for each member, in enum order.
  template <typename F>
  constexpr void ForEach(F&& f) const {
    for (int i = 0; i < kPrivilegeCount; ++i) {
      if ((w_[i >> 6] >> (i & 63)) & 1) f(static_cast<Privilege>(i));
    }
  }

 private:
  static constexpr int Idx(Privilege p) { return static_cast<int>(p); }
  uint64_t w_[2] = {0, 0};
};

std::string_view PrivilegeName(Privilege p);
std::optional<Privilege> ParsePrivilege(std::string_view name);

// Every granted privilege that satisfies `desired` (always includes `desired` itself).
const PrivilegeSet& SatisfiedBy(Privilege desired);
inline bool Satisfies(Privilege granted, Privilege desired) {
  return SatisfiedBy(desired).Contains(granted);
}

enum class SecurableType { kRoot, kCatalog, kNamespace, kTable, kView };
std::string_view SecurableTypeName(SecurableType t);

// Whether `p` may be granted on a securable of type `t` (the management spec's
// CatalogPrivilege / NamespacePrivilege / TablePrivilege / ViewPrivilege enums; root accepts
// the service-level privileges a principal role may hold).
bool GrantableOn(Privilege p, SecurableType t);

}  // namespace firn::auth
