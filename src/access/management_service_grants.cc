// ManagementService: privilege grants to catalog roles (list, add, revoke).
#include <algorithm>

#include "access/management_service.h"
#include "access/management_service_internal.h"
#include "common/macros.h"

namespace firn::access {
namespace {

using auth::Privilege;
using auth::SecurableType;

PrivilegeGrantInfo ToInfo(std::string_view catalog, std::string_view role,
                          const GrantResource& g) {
  PrivilegeGrantInfo info;
  info.catalog = std::string(catalog);
  info.grantee = std::string(role);
  info.type = g.type;
  info.namespace_levels = g.namespace_levels;
  info.name = g.name;
  info.privilege = g.privilege;
  return info;
}

GrantResource FromInfo(const PrivilegeGrantInfo& info) {
  return GrantResource{info.type, info.namespace_levels, info.name, info.privilege};
}

// The securable a grant is on, as an authorisation resource.
auth::Resource Securable(std::string_view realm, std::string_view catalog,
                         const GrantResource& g) {
  auth::Resource r;
  r.realm = std::string(realm);
  r.catalog = std::string(catalog);
  r.namespace_levels = g.namespace_levels;
  if (g.type == SecurableType::kTable) r.table = g.name;
  if (g.type == SecurableType::kView) r.view = g.name;
  return r;
}

// addGrantToCatalogRole / revokeGrantFromCatalogRole for the securable the grant is on: each
// variant's rule needs <TYPE>_MANAGE_GRANTS_ON_SECURABLE there (auth/operations.cc).
auth::Operation GrantOperation(bool revoke, SecurableType type) {
  using O = auth::Operation;
  switch (type) {
    case SecurableType::kNamespace:
      return revoke ? O::kRevokeGrantOnNamespace : O::kAddGrantOnNamespace;
    case SecurableType::kTable: return revoke ? O::kRevokeGrantOnTable : O::kAddGrantOnTable;
    case SecurableType::kView: return revoke ? O::kRevokeGrantOnView : O::kAddGrantOnView;
    default: return revoke ? O::kRevokeGrantOnCatalog : O::kAddGrantOnCatalog;
  }
}

std::string Describe(const GrantResource& g) {
  std::string ns;
  for (const auto& l : g.namespace_levels) ns += (ns.empty() ? "" : ".") + l;
  std::string on(auth::SecurableTypeName(g.type));
  if (g.type == SecurableType::kNamespace) on += " " + ns;
  if (g.type == SecurableType::kTable || g.type == SecurableType::kView) {
    on += " " + (ns.empty() ? "" : ns + ".") + g.name;
  }
  return std::string(auth::PrivilegeName(g.privilege)) + " on " + on;
}

std::string Object(std::string_view catalog, std::string_view role, const GrantResource& g) {
  return "grant " + Describe(g) + " to catalog-role " + std::string(role) + " in catalog " +
         std::string(catalog);
}

Status ValidateShape(const GrantResource& g) {
  switch (g.type) {
    case SecurableType::kCatalog:
      if (!g.namespace_levels.empty() || !g.name.empty()) {
        return Fail(ErrorKind::kBadRequest, "A catalog grant takes no namespace or name");
      }
      break;
    case SecurableType::kNamespace:
      if (g.namespace_levels.empty()) {
        return Fail(ErrorKind::kBadRequest, "A namespace grant needs a non-empty namespace");
      }
      break;
    case SecurableType::kTable:
    case SecurableType::kView:
      if (g.namespace_levels.empty() || g.name.empty()) {
        return Fail(ErrorKind::kBadRequest,
                    "A table or view grant needs a namespace and a name");
      }
      break;
    default: return Fail(ErrorKind::kBadRequest, "Unsupported grant type");
  }
  for (const auto& l : g.namespace_levels) {
    if (l.empty()) return Fail(ErrorKind::kBadRequest, "Namespace levels must not be empty");
  }
  if (!auth::GrantableOn(g.privilege, g.type)) {
    return Fail(ErrorKind::kBadRequest,
                "Privilege " + std::string(auth::PrivilegeName(g.privilege)) +
                    " cannot be granted on a " + std::string(auth::SecurableTypeName(g.type)));
  }
  return Ok();
}

// `g` lies strictly beneath `parent` in the catalog tree.
bool Beneath(const PrivilegeGrantInfo& g, const GrantResource& parent) {
  if (parent.type == SecurableType::kCatalog) return g.type != SecurableType::kCatalog;
  if (parent.type != SecurableType::kNamespace) return false;
  const auto& p = parent.namespace_levels;
  if (g.namespace_levels.size() < p.size()) return false;
  if (!std::equal(p.begin(), p.end(), g.namespace_levels.begin())) return false;
  return g.type != SecurableType::kNamespace || g.namespace_levels.size() > p.size();
}

}  // namespace

Result<std::vector<GrantResource>> ManagementService::ListGrants(const ManagementContext& ctx,
                                                                 std::string_view catalog,
                                                                 std::string_view catalog_role) {
  FIRN_RETURN_IF_ERROR(
      Require(ctx, auth::Operation::kListGrantsForCatalogRole, catalog));
  auto snap = ReadSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (!realm.catalogs.contains(catalog)) return mgmt::NotFound("Catalog", catalog);
  if (!mgmt::FindCatalogRole(realm, catalog, catalog_role)) {
    return mgmt::NotFound("Catalog role", catalog_role);
  }
  std::vector<GrantResource> out;
  for (const auto& g : mgmt::PrivilegeGrants(realm)) {
    if (g.catalog == catalog && g.grantee == catalog_role) out.push_back(FromInfo(g));
  }
  return out;
}

Status ManagementService::AddGrant(const ManagementContext& ctx, std::string_view catalog,
                                   std::string_view catalog_role, const GrantResource& grant) {
  const auth::Operation op = GrantOperation(/*revoke=*/false, grant.type);
  std::string object = Object(catalog, catalog_role, grant);
  const auth::Resource securable = Securable(ctx.realm, catalog, grant);
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, op, catalog, object, &securable));
  FIRN_RETURN_IF_ERROR(ValidateShape(grant));
  PrivilegeGrantInfo info = ToInfo(catalog, catalog_role, grant);
  if (auto st = ValidatePrivilegeGrant(info); !st) {
    return Fail(ErrorKind::kBadRequest, st.error().message);
  }
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (!realm.catalogs.contains(catalog)) return mgmt::NotFound("Catalog", catalog);
  if (!mgmt::FindCatalogRole(realm, catalog, catalog_role)) {
    return mgmt::NotFound("Catalog role", catalog_role);
  }
  store::AccessWrite w = mgmt::Create(EncodePrivilegeGrant(ctx.realm, info));
  w.op = store::AccessWrite::Op::kUpsert;  // granting twice is not an error
  FIRN_RETURN_IF_ERROR(Apply(ctx, op, catalog, object, {w}));
  return Ok();
}

Status ManagementService::RevokeGrant(const ManagementContext& ctx, std::string_view catalog,
                                      std::string_view catalog_role, const GrantResource& grant,
                                      bool cascade) {
  const auth::Operation op = GrantOperation(/*revoke=*/true, grant.type);
  std::string object = Object(catalog, catalog_role, grant);
  const auth::Resource securable = Securable(ctx.realm, catalog, grant);
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, op, catalog, object, &securable));
  FIRN_RETURN_IF_ERROR(ValidateShape(grant));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (!realm.catalogs.contains(catalog)) return mgmt::NotFound("Catalog", catalog);
  if (!mgmt::FindCatalogRole(realm, catalog, catalog_role)) {
    return mgmt::NotFound("Catalog role", catalog_role);
  }
  PrivilegeGrantInfo target = ToInfo(catalog, catalog_role, grant);
  std::vector<store::AccessWrite> writes;
  for (const auto& link : realm.links) {
    if (link.kind != store::AccessKind::kPrivilegeGrant || link.scope != catalog) continue;
    auto g = DecodePrivilegeGrant(link);
    if (!g || g->grantee != catalog_role) continue;
    bool exact = *g == target;
    bool below = cascade && g->privilege == grant.privilege && Beneath(*g, grant);
    if (exact || below) writes.push_back(mgmt::Delete(link, std::nullopt));
  }
  if (writes.empty()) {
    return Fail(ErrorKind::kNotFound, "Grant does not exist: " + Describe(grant));
  }
  FIRN_RETURN_IF_ERROR(Apply(ctx, op, catalog, object, writes));
  return Ok();
}

}  // namespace firn::access
