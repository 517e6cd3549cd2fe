// ManagementService: principal roles and their assignment to principals.
#include <algorithm>

#include "access/bootstrap.h"
#include "access/management_service.h"
#include "access/management_service_internal.h"
#include "common/clock.h"
#include "common/macros.h"

namespace firn::access {
namespace {

using auth::Privilege;

std::string Object(std::string_view role) { return "principal-role " + std::string(role); }

const RoleInfo* FindRole(const RealmState& realm, std::string_view name) {
  auto it = realm.principal_roles.find(name);
  return it == realm.principal_roles.end() ? nullptr : &it->second;
}

bool Assigned(const RealmState& realm, std::string_view principal, std::string_view role) {
  for (const auto& a : mgmt::PrincipalRoleLinks(realm)) {
    if (a.principal == principal && a.principal_role == role) return true;
  }
  return false;
}

}  // namespace

Result<std::vector<RoleView>> ManagementService::ListPrincipalRoles(
    const ManagementContext& ctx) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kListPrincipalRoles));
  auto snap = ReadSnapshot();
  std::vector<RoleView> out;
  for (const auto& [name, r] : mgmt::RealmOf(*snap, ctx.realm).principal_roles) {
    out.push_back(mgmt::ToView(r));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

Result<RoleView> ManagementService::CreatePrincipalRole(const ManagementContext& ctx,
                                                        std::string_view name,
                                                        const Properties& properties) {
  static constexpr auth::Operation kOp = auth::Operation::kCreatePrincipalRole;
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, "", Object(name)));
  FIRN_RETURN_IF_ERROR(mgmt::ValidateName("principal role", name));
  auto snap = WriteSnapshot();
  if (FindRole(mgmt::RealmOf(*snap, ctx.realm), name)) {
    Error e(ErrorKind::kAlreadyExists, "Principal role already exists: " + std::string(name));
    AuditFailure(ctx, kOp, "", Object(name), e);
    return std::unexpected(std::move(e));
  }
  RoleInfo role;
  role.name = std::string(name);
  role.properties = properties;
  std::vector<store::AccessWrite> writes{mgmt::Create(EncodePrincipalRole(ctx.realm, role))};
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, "", Object(name), writes));
  if (const RoleInfo* now = FindRole(mgmt::RealmOf(*state_.Current(), ctx.realm), name)) {
    return mgmt::ToView(*now);
  }
  role.entity_version = 1;
  role.created_ms = role.updated_ms = NowMillis();
  return mgmt::ToView(role);
}

Result<RoleView> ManagementService::GetPrincipalRole(const ManagementContext& ctx,
                                                     std::string_view name) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kGetPrincipalRole));
  auto snap = ReadSnapshot();
  const RoleInfo* r = FindRole(mgmt::RealmOf(*snap, ctx.realm), name);
  if (!r) return mgmt::NotFound("Principal role", name);
  return mgmt::ToView(*r);
}

Result<RoleView> ManagementService::UpdatePrincipalRole(const ManagementContext& ctx,
                                                        std::string_view name,
                                                        const PropertiesUpdate& update) {
  static constexpr auth::Operation kOp = auth::Operation::kUpdatePrincipalRole;
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, "", Object(name)));
  auto snap = WriteSnapshot();
  const RoleInfo* r = FindRole(mgmt::RealmOf(*snap, ctx.realm), name);
  if (!r) return mgmt::NotFound("Principal role", name);
  if (update.current_entity_version != r->entity_version) {
    Error e(ErrorKind::kCommitFailed,
            "The entity version doesn't match the currentEntityVersion of " + Object(name) +
                "; retry after fetching the latest version");
    AuditFailure(ctx, kOp, "", Object(name), e);
    return std::unexpected(std::move(e));
  }
  RoleInfo next = *r;
  next.properties = update.properties;
  std::vector<store::AccessWrite> writes{
      mgmt::Update(EncodePrincipalRole(ctx.realm, next), r->entity_version)};
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, "", Object(name), writes));
  if (const RoleInfo* now = FindRole(mgmt::RealmOf(*state_.Current(), ctx.realm), name)) {
    return mgmt::ToView(*now);
  }
  next.entity_version += 1;
  next.updated_ms = NowMillis();
  return mgmt::ToView(next);
}

Status ManagementService::DeletePrincipalRole(const ManagementContext& ctx,
                                              std::string_view name) {
  static constexpr auth::Operation kOp = auth::Operation::kDeletePrincipalRole;
  FIRN_RETURN_IF_ERROR(
      RequireForWrite(ctx, kOp, "", Object(name)));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  const RoleInfo* r = FindRole(realm, name);
  if (!r) return mgmt::NotFound("Principal role", name);
  if (name == kServiceAdminRole) {
    // It holds SERVICE_MANAGE_ACCESS; dropping it would leave the realm without administration.
    return Fail(ErrorKind::kBadRequest, "The service_admin principal role cannot be deleted");
  }
  std::vector<store::AccessWrite> writes{
      mgmt::Delete(EncodePrincipalRole(ctx.realm, *r), r->entity_version)};
  // Its assignments to principals, its catalog roles and its root grants go with it.
  for (const auto& link : realm.links) {
    bool mine = false;
    if (link.kind == store::AccessKind::kPrincipalRoleGrant) {
      auto a = DecodePrincipalRoleGrant(link);
      mine = a && a->principal_role == name;
    } else if (link.kind == store::AccessKind::kCatalogRoleGrant) {
      auto a = DecodeCatalogRoleGrant(link);
      mine = a && a->principal_role == name;
    } else if (link.kind == store::AccessKind::kPrivilegeGrant && link.scope.empty()) {
      auto g = DecodePrivilegeGrant(link);
      mine = g && g->grantee == name;
    }
    if (mine) writes.push_back(mgmt::Delete(link, std::nullopt));
  }
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, "", Object(name), writes));
  return Ok();
}

Result<std::vector<RoleView>> ManagementService::ListPrincipalRolesAssigned(
    const ManagementContext& ctx, std::string_view principal) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kListPrincipalRolesAssigned));
  auto snap = ReadSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (!realm.principals.contains(principal)) return mgmt::NotFound("Principal", principal);
  std::vector<RoleView> out;
  for (const auto& a : mgmt::PrincipalRoleLinks(realm)) {
    if (a.principal != principal) continue;
    if (const RoleInfo* r = FindRole(realm, a.principal_role)) out.push_back(mgmt::ToView(*r));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

Status ManagementService::AssignPrincipalRole(const ManagementContext& ctx,
                                              std::string_view principal,
                                              std::string_view principal_role) {
  static constexpr auth::Operation kOp = auth::Operation::kAssignPrincipalRole;
  std::string object = Object(principal_role) + " to principal " + std::string(principal);
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, "", object));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (!realm.principals.contains(principal)) return mgmt::NotFound("Principal", principal);
  if (!FindRole(realm, principal_role)) return mgmt::NotFound("Principal role", principal_role);
  store::AccessWrite w = mgmt::Create(EncodePrincipalRoleGrant(
      ctx.realm, {std::string(principal), std::string(principal_role)}));
  w.op = store::AccessWrite::Op::kUpsert;  // assigning twice is not an error (Polaris: 201)
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, "", object, {w}));
  return Ok();
}

Status ManagementService::RevokePrincipalRole(const ManagementContext& ctx,
                                              std::string_view principal,
                                              std::string_view principal_role) {
  static constexpr auth::Operation kOp = auth::Operation::kRevokePrincipalRole;
  std::string object = Object(principal_role) + " from principal " + std::string(principal);
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, "", object));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (!realm.principals.contains(principal)) return mgmt::NotFound("Principal", principal);
  if (!FindRole(realm, principal_role)) return mgmt::NotFound("Principal role", principal_role);
  if (!Assigned(realm, principal, principal_role)) {
    return Fail(ErrorKind::kNotFound, "Principal role " + std::string(principal_role) +
                                          " is not assigned to principal " +
                                          std::string(principal));
  }
  std::vector<store::AccessWrite> writes{
      mgmt::Delete(EncodePrincipalRoleGrant(ctx.realm, {std::string(principal),
                                                        std::string(principal_role)}),
                   std::nullopt)};
  if (principal_role == kServiceAdminRole) {
    // Firn has no fixed admin: the realm must keep someone who can manage access.
    auto other = mgmt::OtherServiceAdminLink(realm, principal);
    if (!other) {
      return Fail(ErrorKind::kBadRequest,
                  "Cannot revoke service_admin from the last principal that holds it");
    }
    writes.push_back(mgmt::Update(*other, other->entity_version));
  }
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, "", object, writes));
  return Ok();
}

Result<std::vector<PrincipalView>> ManagementService::ListAssigneePrincipals(
    const ManagementContext& ctx, std::string_view principal_role) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kListAssigneePrincipalsForPrincipalRole));
  auto snap = ReadSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (!FindRole(realm, principal_role)) return mgmt::NotFound("Principal role", principal_role);
  std::vector<PrincipalView> out;
  for (const auto& a : mgmt::PrincipalRoleLinks(realm)) {
    if (a.principal_role != principal_role) continue;
    auto p = realm.principals.find(a.principal);
    if (p != realm.principals.end()) out.push_back(mgmt::ToView(p->second));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

}  // namespace firn::access
