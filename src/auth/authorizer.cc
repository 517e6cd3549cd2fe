#include "auth/authorizer.h"

#include <algorithm>
#include <bitset>

namespace firn::auth {
namespace {

std::string JoinLevels(const std::vector<std::string>& levels) {
  std::string out;
  for (size_t i = 0; i < levels.size(); ++i) {
    if (i > 0) out.push_back('.');
    out += levels[i];
  }
  return out;
}

Status Invalid(std::string msg) { return Fail(ErrorKind::kIllegalArgument, std::move(msg)); }

// The catalog roles a subject holds in one catalog, as a bitmask over role indexes. Catalogs
// with more roles than the inline mask spill to the heap (rare; still correct).
class RoleMask {
 public:
  explicit RoleMask(size_t n) : n_(n) {
    if (n > kInline) heap_.resize(n, false);
  }
  void Set(uint32_t i) {
    if (n_ > kInline) heap_[i] = true;
    else bits_.set(i);
  }
  bool Test(uint32_t i) const { return n_ > kInline ? heap_[i] : bits_.test(i); }
  bool Any() const {
    return n_ > kInline ? std::find(heap_.begin(), heap_.end(), true) != heap_.end()
                        : bits_.any();
  }

 private:
  static constexpr size_t kInline = 256;
  size_t n_;
  std::bitset<kInline> bits_;
  std::vector<bool> heap_;
};

}  // namespace

SecurableType Resource::type() const {
  if (catalog.empty()) return SecurableType::kRoot;
  if (table) return SecurableType::kTable;
  if (view) return SecurableType::kView;
  if (!namespace_levels.empty()) return SecurableType::kNamespace;
  return SecurableType::kCatalog;
}

std::string Resource::Describe() const {
  std::string in_catalog = " in catalog '" + catalog + "'";
  std::string ns = JoinLevels(namespace_levels);
  switch (type()) {
    case SecurableType::kRoot: return "the service";
    case SecurableType::kCatalog: return "catalog '" + catalog + "'";
    case SecurableType::kNamespace: return "namespace " + ns + in_catalog;
    case SecurableType::kTable:
      return "table " + (ns.empty() ? "" : ns + ".") + *table + in_catalog;
    case SecurableType::kView:
      return "view " + (ns.empty() ? "" : ns + ".") + *view + in_catalog;
  }
  return {};
}

GrantSnapshot::~GrantSnapshot() = default;

GrantSnapshotBuilder::GrantSnapshotBuilder() : snap_(new GrantSnapshot()) {}
GrantSnapshotBuilder::~GrantSnapshotBuilder() = default;

Status GrantSnapshotBuilder::AssignPrincipalRole(std::string_view realm,
                                                 std::string_view principal,
                                                 std::string_view principal_role) {
  if (realm.empty() || principal.empty() || principal_role.empty()) {
    return Invalid("Realm, principal and principal role must be non-empty");
  }
  auto& roles = snap_->realms_[std::string(realm)].principal_roles[std::string(principal)];
  if (std::find(roles.begin(), roles.end(), principal_role) == roles.end()) {
    roles.emplace_back(principal_role);
  }
  return Ok();
}

Status GrantSnapshotBuilder::AssignCatalogRole(std::string_view realm,
                                               std::string_view principal_role,
                                               std::string_view catalog,
                                               std::string_view catalog_role) {
  if (realm.empty() || principal_role.empty() || catalog.empty() || catalog_role.empty()) {
    return Invalid("Realm, principal role, catalog and catalog role must be non-empty");
  }
  auto& r = snap_->realms_[std::string(realm)];
  auto& cat = r.catalogs[std::string(catalog)];
  auto [it, inserted] =
      cat.role_index.try_emplace(std::string(catalog_role), cat.role_index.size());
  auto& list = r.catalog_roles[std::string(principal_role)];
  std::pair<std::string, uint32_t> entry{std::string(catalog), it->second};
  if (std::find(list.begin(), list.end(), entry) == list.end()) list.push_back(std::move(entry));
  return Ok();
}

Status GrantSnapshotBuilder::GrantOnRoot(std::string_view realm, std::string_view principal_role,
                                         Privilege p) {
  if (realm.empty() || principal_role.empty()) {
    return Invalid("Realm and principal role must be non-empty");
  }
  if (!GrantableOn(p, SecurableType::kRoot)) {
    return Invalid(std::string(PrivilegeName(p)) + " cannot be granted on the root container");
  }
  snap_->realms_[std::string(realm)].root_grants[std::string(principal_role)].Add(p);
  return Ok();
}

Status GrantSnapshotBuilder::Grant(const Resource& on, std::string_view catalog_role,
                                   Privilege p) {
  SecurableType type = on.type();
  if (on.realm.empty() || type == SecurableType::kRoot || catalog_role.empty()) {
    return Invalid("A grant needs a realm, a catalog and a catalog role");
  }
  if (!GrantableOn(p, type)) {
    return Invalid(std::string(PrivilegeName(p)) + " cannot be granted on a " +
                   std::string(SecurableTypeName(type)));
  }
  for (const auto& level : on.namespace_levels) {
    if (level.empty()) return Invalid("Namespace levels must be non-empty");
  }
  auto& cat = snap_->realms_[on.realm].catalogs[on.catalog];
  auto [role_it, inserted] =
      cat.role_index.try_emplace(std::string(catalog_role), cat.role_index.size());
  uint32_t role = role_it->second;

  GrantSnapshot::Node* node = &cat.root;
  for (const auto& level : on.namespace_levels) {
    auto& child = node->namespaces[level];
    if (!child) child = std::make_unique<GrantSnapshot::Node>();
    node = child.get();
  }
  GrantSnapshot::Grants* grants = &node->grants;
  if (on.table) grants = &node->tables[*on.table];
  if (on.view) grants = &node->views[*on.view];
  for (auto& [r, set] : *grants) {
    if (r == role) {
      set.Add(p);
      return Ok();
    }
  }
  grants->emplace_back(role, PrivilegeSet{p});
  return Ok();
}

std::shared_ptr<const GrantSnapshot> GrantSnapshotBuilder::Build(uint64_t version) {
  snap_->version_ = version;
  std::shared_ptr<const GrantSnapshot> out(snap_.release());
  snap_.reset(new GrantSnapshot());
  return out;
}

// The principal roles that count for a subject in one realm, found without allocating: the
// snapshot's assignments filtered by the token's roles, or (trusted_roles, external issuers)
// the token's roles as they are.
struct GrantSnapshot::Resolved {
  const Realm* realm = nullptr;
  const std::vector<std::string>* roles = nullptr;
  const Subject* subject = nullptr;
  bool filter = false;

  bool IsActive(const std::string& role) const {
    if (!filter || subject->all_roles) return true;
    const auto& active = subject->active_roles;
    return std::find(active.begin(), active.end(), role) != active.end();
  }
  template <typename F>
  void ForEachRole(F&& f) const {
    for (const auto& role : *roles) {
      if (IsActive(role)) f(role);
    }
  }
};

bool GrantSnapshot::Resolve(const Subject& subject, const Resource& resource,
                            Resolved* out) const {
  if (subject.realm != resource.realm) return false;
  auto realm_it = realms_.find(subject.realm);
  if (realm_it == realms_.end()) return false;
  out->realm = &realm_it->second;
  out->subject = &subject;
  if (subject.trusted_roles) {
    out->roles = &subject.active_roles;
    out->filter = false;
    return true;
  }
  auto principal_it = realm_it->second.principal_roles.find(subject.principal);
  if (principal_it == realm_it->second.principal_roles.end()) return false;
  out->roles = &principal_it->second;
  out->filter = true;
  return true;
}

template <typename Mask>
bool GrantSnapshot::CatalogRoleMask(const Resolved& who, std::string_view catalog, Mask* mask) {
  bool any = false;
  who.ForEachRole([&](const std::string& role) {
    auto cr = who.realm->catalog_roles.find(role);
    if (cr == who.realm->catalog_roles.end()) return;
    for (const auto& [name, idx] : cr->second) {
      if (name == catalog) {
        mask->Set(idx);
        any = true;
      }
    }
  });
  return any;
}

Decision Authorize(const GrantSnapshot& snap, const Subject& subject, Privilege privilege,
                   const Resource& resource) {
  auto deny = [&] { return Decision{false, privilege, resource.Describe()}; };
  GrantSnapshot::Resolved who;
  if (!snap.Resolve(subject, resource, &who)) return deny();
  const GrantSnapshot::Realm& realm = *who.realm;

  const PrivilegeSet& wanted = SatisfiedBy(privilege);

  // Root container: grants held directly by principal roles.
  bool root_ok = false;
  who.ForEachRole([&](const std::string& role) {
    if (root_ok) return;
    auto g = realm.root_grants.find(role);
    if (g != realm.root_grants.end() && g->second.Intersects(wanted)) root_ok = true;
  });
  if (root_ok) return Decision::Allow();
  if (resource.catalog.empty()) return deny();

  auto cat_it = realm.catalogs.find(resource.catalog);
  if (cat_it == realm.catalogs.end()) return deny();
  const GrantSnapshot::Catalog& cat = cat_it->second;

  RoleMask mask(cat.role_index.size());
  if (!GrantSnapshot::CatalogRoleMask(who, resource.catalog, &mask)) return deny();

  auto satisfied = [&](const GrantSnapshot::Grants& grants) {
    for (const auto& [role, set] : grants) {
      if (mask.Test(role) && set.Intersects(wanted)) return true;
    }
    return false;
  };

  // Walk catalog → namespaces → table/view, stopping where no deeper grants exist.
  const GrantSnapshot::Node* node = &cat.root;
  if (satisfied(node->grants)) return Decision::Allow();
  for (const auto& level : resource.namespace_levels) {
    auto child = node->namespaces.find(level);
    if (child == node->namespaces.end()) return deny();
    node = child->second.get();
    if (satisfied(node->grants)) return Decision::Allow();
  }
  if (resource.table) {
    auto t = node->tables.find(*resource.table);
    if (t != node->tables.end() && satisfied(t->second)) return Decision::Allow();
  } else if (resource.view) {
    auto v = node->views.find(*resource.view);
    if (v != node->views.end() && satisfied(v->second)) return Decision::Allow();
  }
  return deny();
}

bool CanSee(const GrantSnapshot& snap, const Subject& subject, const Resource& resource) {
  GrantSnapshot::Resolved who;
  if (resource.catalog.empty() || !snap.Resolve(subject, resource, &who)) return false;
  auto cat_it = who.realm->catalogs.find(resource.catalog);
  if (cat_it == who.realm->catalogs.end()) return false;
  const GrantSnapshot::Catalog& cat = cat_it->second;
  RoleMask mask(cat.role_index.size());
  if (!GrantSnapshot::CatalogRoleMask(who, resource.catalog, &mask)) return false;

  auto holds = [&](const GrantSnapshot::Grants& grants) {
    for (const auto& [role, set] : grants) {
      if (mask.Test(role) && !set.empty()) return true;
    }
    return false;
  };
  // Anything granted in the subtree rooted at `node`.
  auto below = [&](const GrantSnapshot::Node& root) {
    std::vector<const GrantSnapshot::Node*> stack{&root};
    while (!stack.empty()) {
      const GrantSnapshot::Node* n = stack.back();
      stack.pop_back();
      if (holds(n->grants)) return true;
      for (const auto& [name, g] : n->tables) {
        if (holds(g)) return true;
      }
      for (const auto& [name, g] : n->views) {
        if (holds(g)) return true;
      }
      for (const auto& [name, child] : n->namespaces) stack.push_back(child.get());
    }
    return false;
  };

  const GrantSnapshot::Node* node = &cat.root;
  if (holds(node->grants)) return true;  // the catalog itself: an ancestor of everything
  for (const auto& level : resource.namespace_levels) {
    auto child = node->namespaces.find(level);
    if (child == node->namespaces.end()) return false;
    node = child->second.get();
    if (holds(node->grants)) return true;  // the resource or an enclosing namespace
  }
  if (resource.table) {
    auto t = node->tables.find(*resource.table);
    return t != node->tables.end() && holds(t->second);
  }
  if (resource.view) {
    auto v = node->views.find(*resource.view);
    return v != node->views.end() && holds(v->second);
  }
  return below(*node);
}

Decision AuthorizeAll(const GrantSnapshot& snap, const Subject& subject,
                      const PrivilegeSet& privileges, const Resource& resource) {
  Decision result = Decision::Allow();
  privileges.ForEach([&](Privilege p) {
    if (!result.allowed) return;
    result = Authorize(snap, subject, p, resource);
  });
  return result;
}

}  // namespace firn::auth
