// Polaris-model authorisation over an immutable, versioned snapshot of grants.
//
// Model (Polaris access-control): principal → principal roles → catalog roles → privileges on
// securables (catalog, namespace, table, view). A grant on a catalog or namespace applies to
// everything beneath it. Principal roles may also hold privileges on the realm's root
// container (SERVICE_MANAGE_ACCESS for service_admin). Realms never see each other.
//
// Contract: GrantSnapshot is immutable after Build(); share it as shared_ptr<const ...> and
// publish a new one (with a higher version) when grants change. Authorize is a pure function,
// thread-safe, allocation-free when it allows, and costs O(path depth × grants per securable on
// the path). A Deny names the missing privilege and the resource as the caller named it, both
// safe to return to that caller.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "auth/privilege.h"
#include "common/result.h"

namespace firn::auth {

// Who is asking: the authenticated principal and the principal roles it activated.
struct Subject {
  std::string realm;
  std::string principal;
  // Roles the token activated; ignored when all_roles ("PRINCIPAL_ROLE:ALL"). Either way only
  // roles the snapshot still assigns to the principal count, so a stale token claim of a
  // revoked role grants nothing.
  std::vector<std::string> active_roles;
  bool all_roles = true;
  // External (OIDC) subjects: the issuer vouches for the roles, so active_roles are used as
  // they are, without the snapshot's principal → principal role assignments.
  bool trusted_roles = false;
};

// What is being touched. An empty catalog means the realm's root container.
struct Resource {
  std::string realm;
  std::string catalog;
  std::vector<std::string> namespace_levels;
  std::optional<std::string> table;
  std::optional<std::string> view;

  SecurableType type() const;
  // e.g. "table ns1.ns2.orders in catalog 'wild'".
  std::string Describe() const;
};

struct Decision {
  bool allowed = false;
  Privilege missing = Privilege::kSERVICE_MANAGE_ACCESS;  // meaningful only when denied
  std::string resource;                                   // set only when denied

  static Decision Allow() { return Decision{true, {}, {}}; }
  explicit operator bool() const { return allowed; }
};

class GrantSnapshot;

// Builds a snapshot; not thread-safe. Each call validates its input: kIllegalArgument for a
// privilege that cannot be granted on that securable type or for empty names.
class GrantSnapshotBuilder {
 public:
  GrantSnapshotBuilder();
  ~GrantSnapshotBuilder();

  Status AssignPrincipalRole(std::string_view realm, std::string_view principal,
                             std::string_view principal_role);
  Status AssignCatalogRole(std::string_view realm, std::string_view principal_role,
                           std::string_view catalog, std::string_view catalog_role);
  Status GrantOnRoot(std::string_view realm, std::string_view principal_role, Privilege p);
  // Grants to a catalog role on the securable `on` (its realm and catalog must be set).
  Status Grant(const Resource& on, std::string_view catalog_role, Privilege p);

  std::shared_ptr<const GrantSnapshot> Build(uint64_t version);

 private:
  std::unique_ptr<GrantSnapshot> snap_;
};

class GrantSnapshot {
 public:
  uint64_t version() const { return version_; }
  ~GrantSnapshot();

 private:
  friend class GrantSnapshotBuilder;
  friend Decision Authorize(const GrantSnapshot&, const Subject&, Privilege, const Resource&);
  friend bool CanSee(const GrantSnapshot&, const Subject&, const Resource&);

  struct StrHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  template <typename V>
  using StrMap = std::unordered_map<std::string, V, StrHash, std::equal_to<>>;

  using Grants = std::vector<std::pair<uint32_t, PrivilegeSet>>;  // catalog role → privileges
  // A catalog or namespace; only securables that carry grants (or lead to ones that do) exist.
  struct Node {
    Grants grants;
    StrMap<std::unique_ptr<Node>> namespaces;
    StrMap<Grants> tables;
    StrMap<Grants> views;
  };
  struct Catalog {
    StrMap<uint32_t> role_index;
    Node root;
  };
  struct Realm {
    StrMap<std::vector<std::string>> principal_roles;  // principal → assigned principal roles
    StrMap<PrivilegeSet> root_grants;                  // principal role → privileges on root
    // principal role → (catalog, catalog role index)
    StrMap<std::vector<std::pair<std::string, uint32_t>>> catalog_roles;
    StrMap<Catalog> catalogs;
  };

  struct Resolved;
  // Realm and active principal roles of `subject` for `resource`; false = deny.
  bool Resolve(const Subject& subject, const Resource& resource, Resolved* out) const;
  // Sets the indexes of the catalog roles the active roles hold in `catalog`; false if none.
  template <typename Mask>
  static bool CatalogRoleMask(const Resolved& who, std::string_view catalog, Mask* mask);

  GrantSnapshot() = default;
  uint64_t version_ = 0;
  StrMap<Realm> realms_;
};

// Allow iff some grant reachable from the subject's active roles, on the resource or one of
// its ancestors (or root), satisfies `privilege` per SatisfiedBy().
Decision Authorize(const GrantSnapshot& snapshot, const Subject& subject, Privilege privilege,
                   const Resource& resource);

// All of `privileges` must be satisfied; the first one that is not is reported.
Decision AuthorizeAll(const GrantSnapshot& snapshot, const Subject& subject,
                      const PrivilegeSet& privileges, const Resource& resource);

// Visibility for list filtering: true iff an active catalog role of the subject holds ANY
// privilege on `resource`, on one of its ancestors (catalog, enclosing namespaces), or on
// anything beneath it — so a caller granted only db.t sees namespace db in a listing. Root
// (service-level) grants do not make catalog content visible. Pure and thread-safe; cost is
// the path walk plus, for a namespace or catalog, the granted subtree below it.
bool CanSee(const GrantSnapshot& snapshot, const Subject& subject, const Resource& resource);

}  // namespace firn::auth
