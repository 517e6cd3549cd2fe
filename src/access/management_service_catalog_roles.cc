// ManagementService: catalog roles and their assignment to principal roles.
#include <algorithm>

#include "access/management_service.h"
#include "access/management_service_internal.h"
#include "common/clock.h"
#include "common/macros.h"

namespace firn::access {
namespace {

using auth::Privilege;

std::string Object(std::string_view catalog, std::string_view role) {
  return "catalog-role " + std::string(role) + " in catalog " + std::string(catalog);
}

Status CatalogExists(const RealmState& realm, std::string_view catalog) {
  if (!realm.catalogs.contains(catalog)) return mgmt::NotFound("Catalog", catalog);
  return Ok();
}

Result<const RoleInfo*> ExistingRole(const RealmState& realm, std::string_view catalog,
                                     std::string_view name) {
  FIRN_RETURN_IF_ERROR(CatalogExists(realm, catalog));
  const RoleInfo* r = mgmt::FindCatalogRole(realm, catalog, name);
  if (!r) return mgmt::NotFound("Catalog role", name);
  return r;
}

void SortByName(std::vector<RoleView>& roles) {
  std::sort(roles.begin(), roles.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
}

}  // namespace

Result<std::vector<RoleView>> ManagementService::ListCatalogRoles(const ManagementContext& ctx,
                                                                  std::string_view catalog) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kListCatalogRoles, catalog));
  auto snap = ReadSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  FIRN_RETURN_IF_ERROR(CatalogExists(realm, catalog));
  std::vector<RoleView> out;
  if (auto roles = realm.catalog_roles.find(catalog); roles != realm.catalog_roles.end()) {
    for (const auto& [name, r] : roles->second) out.push_back(mgmt::ToView(r));
  }
  SortByName(out);
  return out;
}

Result<RoleView> ManagementService::CreateCatalogRole(const ManagementContext& ctx,
                                                      std::string_view catalog,
                                                      std::string_view name,
                                                      const Properties& properties) {
  static constexpr auth::Operation kOp = auth::Operation::kCreateCatalogRole;
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, catalog, Object(catalog, name)));
  FIRN_RETURN_IF_ERROR(mgmt::ValidateName("catalog role", name));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  FIRN_RETURN_IF_ERROR(CatalogExists(realm, catalog));
  if (mgmt::FindCatalogRole(realm, catalog, name)) {
    Error e(ErrorKind::kAlreadyExists, "Catalog role already exists: " + std::string(name));
    AuditFailure(ctx, kOp, catalog, Object(catalog, name), e);
    return std::unexpected(std::move(e));
  }
  RoleInfo role;
  role.name = std::string(name);
  role.catalog = std::string(catalog);
  role.properties = properties;
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, catalog, Object(catalog, name),
                             {mgmt::Create(EncodeCatalogRole(ctx.realm, role))}));
  if (const RoleInfo* now =
          mgmt::FindCatalogRole(mgmt::RealmOf(*state_.Current(), ctx.realm), catalog, name)) {
    return mgmt::ToView(*now);
  }
  role.entity_version = 1;
  role.created_ms = role.updated_ms = NowMillis();
  return mgmt::ToView(role);
}

Result<RoleView> ManagementService::GetCatalogRole(const ManagementContext& ctx,
                                                   std::string_view catalog,
                                                   std::string_view name) {
  FIRN_RETURN_IF_ERROR(
      Require(ctx, auth::Operation::kGetCatalogRole, catalog));
  auto snap = ReadSnapshot();
  FIRN_ASSIGN_OR_RETURN(const RoleInfo* r,
                        ExistingRole(mgmt::RealmOf(*snap, ctx.realm), catalog, name));
  return mgmt::ToView(*r);
}

Result<RoleView> ManagementService::UpdateCatalogRole(const ManagementContext& ctx,
                                                      std::string_view catalog,
                                                      std::string_view name,
                                                      const PropertiesUpdate& update) {
  static constexpr auth::Operation kOp = auth::Operation::kUpdateCatalogRole;
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, catalog, Object(catalog, name)));
  auto snap = WriteSnapshot();
  FIRN_ASSIGN_OR_RETURN(const RoleInfo* r,
                        ExistingRole(mgmt::RealmOf(*snap, ctx.realm), catalog, name));
  if (update.current_entity_version != r->entity_version) {
    Error e(ErrorKind::kCommitFailed,
            "The entity version doesn't match the currentEntityVersion of " +
                Object(catalog, name) + "; retry after fetching the latest version");
    AuditFailure(ctx, kOp, catalog, Object(catalog, name), e);
    return std::unexpected(std::move(e));
  }
  RoleInfo next = *r;
  next.properties = update.properties;
  FIRN_RETURN_IF_ERROR(
      Apply(ctx, kOp, catalog, Object(catalog, name),
            {mgmt::Update(EncodeCatalogRole(ctx.realm, next), r->entity_version)}));
  if (const RoleInfo* now =
          mgmt::FindCatalogRole(mgmt::RealmOf(*state_.Current(), ctx.realm), catalog, name)) {
    return mgmt::ToView(*now);
  }
  next.entity_version += 1;
  next.updated_ms = NowMillis();
  return mgmt::ToView(next);
}

Status ManagementService::DeleteCatalogRole(const ManagementContext& ctx,
                                            std::string_view catalog, std::string_view name) {
  static constexpr auth::Operation kOp = auth::Operation::kDeleteCatalogRole;
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, catalog, Object(catalog, name)));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  FIRN_ASSIGN_OR_RETURN(const RoleInfo* r, ExistingRole(realm, catalog, name));
  if (name == kCatalogAdminRole) {
    return Fail(ErrorKind::kBadRequest, "The catalog_admin role cannot be deleted");
  }
  std::vector<store::AccessWrite> writes{
      mgmt::Delete(EncodeCatalogRole(ctx.realm, *r), r->entity_version)};
  // "All associated grants will also be deleted" (spec), and its assignments.
  for (const auto& link : realm.links) {
    if (link.scope != catalog) continue;
    bool mine = false;
    if (link.kind == store::AccessKind::kCatalogRoleGrant) {
      auto a = DecodeCatalogRoleGrant(link);
      mine = a && a->catalog_role == name;
    } else if (link.kind == store::AccessKind::kPrivilegeGrant) {
      auto g = DecodePrivilegeGrant(link);
      mine = g && g->grantee == name;
    }
    if (mine) writes.push_back(mgmt::Delete(link, std::nullopt));
  }
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, catalog, Object(catalog, name), writes));
  return Ok();
}

Result<std::vector<RoleView>> ManagementService::ListCatalogRolesForPrincipalRole(
    const ManagementContext& ctx, std::string_view principal_role, std::string_view catalog) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kListCatalogRolesForPrincipalRole));
  auto snap = ReadSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (!realm.principal_roles.contains(principal_role)) {
    return mgmt::NotFound("Principal role", principal_role);
  }
  FIRN_RETURN_IF_ERROR(CatalogExists(realm, catalog));
  std::vector<RoleView> out;
  for (const auto& a : mgmt::CatalogRoleLinks(realm)) {
    if (a.catalog != catalog || a.principal_role != principal_role) continue;
    if (const RoleInfo* r = mgmt::FindCatalogRole(realm, catalog, a.catalog_role)) {
      out.push_back(mgmt::ToView(*r));
    }
  }
  SortByName(out);
  return out;
}

Status ManagementService::AssignCatalogRole(const ManagementContext& ctx,
                                            std::string_view principal_role,
                                            std::string_view catalog,
                                            std::string_view catalog_role) {
  static constexpr auth::Operation kOp = auth::Operation::kAssignCatalogRoleToPrincipalRole;
  std::string object = Object(catalog, catalog_role) + " to principal-role " +
                       std::string(principal_role);
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, catalog, object));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (!realm.principal_roles.contains(principal_role)) {
    return mgmt::NotFound("Principal role", principal_role);
  }
  FIRN_RETURN_IF_ERROR(ExistingRole(realm, catalog, catalog_role));
  store::AccessWrite w = mgmt::Create(EncodeCatalogRoleGrant(
      ctx.realm, {std::string(catalog), std::string(principal_role), std::string(catalog_role)}));
  w.op = store::AccessWrite::Op::kUpsert;
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, catalog, object, {w}));
  return Ok();
}

Status ManagementService::RevokeCatalogRole(const ManagementContext& ctx,
                                            std::string_view principal_role,
                                            std::string_view catalog,
                                            std::string_view catalog_role) {
  static constexpr auth::Operation kOp = auth::Operation::kRevokeCatalogRoleFromPrincipalRole;
  std::string object = Object(catalog, catalog_role) + " from principal-role " +
                       std::string(principal_role);
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, catalog, object));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (!realm.principal_roles.contains(principal_role)) {
    return mgmt::NotFound("Principal role", principal_role);
  }
  FIRN_RETURN_IF_ERROR(ExistingRole(realm, catalog, catalog_role));
  bool assigned = false;
  for (const auto& a : mgmt::CatalogRoleLinks(realm)) {
    assigned |= a.catalog == catalog && a.principal_role == principal_role &&
                a.catalog_role == catalog_role;
  }
  if (!assigned) {
    return Fail(ErrorKind::kNotFound, "Catalog role " + std::string(catalog_role) +
                                          " is not assigned to principal role " +
                                          std::string(principal_role));
  }
  FIRN_RETURN_IF_ERROR(Apply(
      ctx, kOp, catalog, object,
      {mgmt::Delete(EncodeCatalogRoleGrant(ctx.realm, {std::string(catalog),
                                                       std::string(principal_role),
                                                       std::string(catalog_role)}),
                    std::nullopt)}));
  return Ok();
}

Result<std::vector<RoleView>> ManagementService::ListAssigneePrincipalRoles(
    const ManagementContext& ctx, std::string_view catalog, std::string_view catalog_role) {
  FIRN_RETURN_IF_ERROR(
      Require(ctx, auth::Operation::kListAssigneePrincipalRolesForCatalogRole, catalog));
  auto snap = ReadSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  FIRN_RETURN_IF_ERROR(ExistingRole(realm, catalog, catalog_role));
  std::vector<RoleView> out;
  for (const auto& a : mgmt::CatalogRoleLinks(realm)) {
    if (a.catalog != catalog || a.catalog_role != catalog_role) continue;
    auto p = realm.principal_roles.find(a.principal_role);
    if (p != realm.principal_roles.end()) out.push_back(mgmt::ToView(p->second));
  }
  SortByName(out);
  return out;
}

}  // namespace firn::access
