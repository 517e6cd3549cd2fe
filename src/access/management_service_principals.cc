// ManagementService: principals (list, create, get, update, delete, rotate, reset).
#include <algorithm>

#include "access/bootstrap.h"
#include "access/management_service.h"
#include "access/management_service_internal.h"
#include "common/clock.h"
#include "common/macros.h"
#include "common/uuid.h"

namespace firn::access {
namespace {

using auth::Privilege;

std::string Object(std::string_view principal) {
  return "principal " + std::string(principal);
}

const PrincipalInfo* FindPrincipal(const RealmState& realm, std::string_view name) {
  auto it = realm.principals.find(name);
  return it == realm.principals.end() ? nullptr : &it->second;
}

// A client id no principal of the realm uses.
std::string NewClientId(const RealmState& realm) {
  for (;;) {
    std::string id = auth::GenerateClientId();
    if (!realm.principal_by_client.contains(id)) return id;
  }
}

std::unexpected<Error> VersionConflict(std::string_view principal) {
  return Fail(ErrorKind::kCommitFailed,
              "The entity version doesn't match the currentEntityVersion of " +
                  Object(principal) + "; retry after fetching the latest version");
}

}  // namespace

Result<std::vector<PrincipalView>> ManagementService::ListPrincipals(
    const ManagementContext& ctx) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kListPrincipals));
  auto snap = ReadSnapshot();
  std::vector<PrincipalView> out;
  for (const auto& [name, p] : mgmt::RealmOf(*snap, ctx.realm).principals) {
    out.push_back(mgmt::ToView(p));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

Result<PrincipalWithCredentials> ManagementService::CreatePrincipal(
    const ManagementContext& ctx, std::string_view name, const Properties& properties) {
  static constexpr auth::Operation kOp = auth::Operation::kCreatePrincipal;
  FIRN_RETURN_IF_ERROR(
      RequireForWrite(ctx, kOp, "", Object(name)));
  FIRN_RETURN_IF_ERROR(mgmt::ValidateName("principal", name));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (FindPrincipal(realm, name)) {
    Error e(ErrorKind::kAlreadyExists, "Principal already exists: " + std::string(name));
    AuditFailure(ctx, kOp, "", Object(name), e);
    return std::unexpected(std::move(e));
  }
  Secret secret = auth::GenerateClientSecret();
  PrincipalInfo p;
  p.id = NewUuidV4();
  p.name = std::string(name);
  p.client_id = NewClientId(realm);
  FIRN_ASSIGN_OR_RETURN(p.secret_hash, auth::HashSecretScrypt(secret, options_.scrypt));
  p.credential_version = 1;
  p.properties = properties;
  std::vector<store::AccessWrite> writes{mgmt::Create(EncodePrincipal(ctx.realm, p))};
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, "", Object(name), writes));

  PrincipalWithCredentials out;
  if (const PrincipalInfo* now = FindPrincipal(mgmt::RealmOf(*state_.Current(), ctx.realm), name)) {
    out.principal = mgmt::ToView(*now);
  } else {
    p.entity_version = 1;
    p.created_ms = p.updated_ms = NowMillis();
    out.principal = mgmt::ToView(p);
  }
  out.credentials = PrincipalCredentials{p.client_id, std::move(secret)};
  return out;
}

Result<PrincipalView> ManagementService::GetPrincipal(const ManagementContext& ctx,
                                                      std::string_view name) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kGetPrincipal));
  auto snap = ReadSnapshot();
  const PrincipalInfo* p = FindPrincipal(mgmt::RealmOf(*snap, ctx.realm), name);
  if (!p) return mgmt::NotFound("Principal", name);
  return mgmt::ToView(*p);
}

Result<PrincipalView> ManagementService::UpdatePrincipal(const ManagementContext& ctx,
                                                         std::string_view name,
                                                         const PropertiesUpdate& update) {
  static constexpr auth::Operation kOp = auth::Operation::kUpdatePrincipal;
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, "", Object(name)));
  auto snap = WriteSnapshot();
  const PrincipalInfo* p = FindPrincipal(mgmt::RealmOf(*snap, ctx.realm), name);
  if (!p) return mgmt::NotFound("Principal", name);
  if (update.current_entity_version != p->entity_version) {
    auto e = VersionConflict(name);
    AuditFailure(ctx, kOp, "", Object(name), e.error());
    return e;
  }
  PrincipalInfo next = *p;
  next.properties = update.properties;
  std::vector<store::AccessWrite> writes{
      mgmt::Update(EncodePrincipal(ctx.realm, next), update.current_entity_version)};
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, "", Object(name), writes));
  if (const PrincipalInfo* now = FindPrincipal(mgmt::RealmOf(*state_.Current(), ctx.realm), name)) {
    return mgmt::ToView(*now);
  }
  next.entity_version += 1;
  next.updated_ms = NowMillis();
  return mgmt::ToView(next);
}

Status ManagementService::DeletePrincipal(const ManagementContext& ctx, std::string_view name) {
  static constexpr auth::Operation kOp = auth::Operation::kDeletePrincipal;
  FIRN_RETURN_IF_ERROR(
      RequireForWrite(ctx, kOp, "", Object(name)));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  const PrincipalInfo* p = FindPrincipal(realm, name);
  if (!p) return mgmt::NotFound("Principal", name);
  if (ctx.caller && !ctx.caller->external && ctx.caller->subject.principal == name) {
    // Firn has no fixed admin: deleting oneself could leave a realm with no administrator.
    return Fail(ErrorKind::kBadRequest, "A principal cannot delete itself");
  }
  std::vector<store::AccessWrite> writes{
      mgmt::Delete(EncodePrincipal(ctx.realm, *p), p->entity_version)};
  bool admin = false;
  for (const auto& link : realm.links) {
    if (link.kind != store::AccessKind::kPrincipalRoleGrant) continue;
    auto a = DecodePrincipalRoleGrant(link);
    if (a && a->principal == name) {
      writes.push_back(mgmt::Delete(link, std::nullopt));
      admin = admin || a->principal_role == kServiceAdminRole;
    }
  }
  if (admin) {
    auto other = mgmt::OtherServiceAdminLink(realm, name);
    if (!other) {
      return Fail(ErrorKind::kBadRequest,
                  "Cannot delete the last principal that holds service_admin");
    }
    writes.push_back(mgmt::Update(*other, other->entity_version));
  }
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, "", Object(name), writes));
  return Ok();
}

Result<PrincipalWithCredentials> ManagementService::WriteCredentials(
    const ManagementContext& ctx, auth::Operation operation, const PrincipalInfo& current,
    PrincipalInfo next, Secret secret) {
  next.credential_version = current.credential_version + 1;  // revokes earlier tokens
  std::vector<store::AccessWrite> writes{
      mgmt::Update(EncodePrincipal(ctx.realm, next), current.entity_version)};
  FIRN_RETURN_IF_ERROR(Apply(ctx, operation, "", Object(current.name), writes));
  PrincipalWithCredentials out;
  const PrincipalInfo* now = FindPrincipal(mgmt::RealmOf(*state_.Current(), ctx.realm),
                                           current.name);
  if (now && now->entity_version > current.entity_version) {
    out.principal = mgmt::ToView(*now);
  } else {
    next.entity_version = current.entity_version + 1;
    next.updated_ms = NowMillis();
    out.principal = mgmt::ToView(next);
  }
  out.credentials = PrincipalCredentials{next.client_id, std::move(secret)};
  return out;
}

Result<PrincipalWithCredentials> ManagementService::RotateCredentials(
    const ManagementContext& ctx, std::string_view name) {
  static constexpr auth::Operation kOp = auth::Operation::kRotateCredentials;
  // A principal may always rotate its own secret; others need PRINCIPAL_ROTATE_CREDENTIALS or
  // SERVICE_MANAGE_ACCESS on the service.
  bool self = ctx.caller && !ctx.caller->external && ctx.caller->subject.principal == name;
  if (!self && !Holds(ctx, {Privilege::kSERVICE_MANAGE_ACCESS}, Root(ctx))) {
    FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, "", Object(name)));
  }
  auto snap = WriteSnapshot();
  const PrincipalInfo* p = FindPrincipal(mgmt::RealmOf(*snap, ctx.realm), name);
  if (!p) return mgmt::NotFound("Principal", name);
  Secret secret = auth::GenerateClientSecret();
  PrincipalInfo next = *p;
  next.previous_secret_hash = p->secret_hash;  // valid until the next rotation
  FIRN_ASSIGN_OR_RETURN(next.secret_hash, auth::HashSecretScrypt(secret, options_.scrypt));
  return WriteCredentials(ctx, kOp, *p, std::move(next), std::move(secret));
}

Result<PrincipalWithCredentials> ManagementService::ResetCredentials(
    const ManagementContext& ctx, std::string_view name, const CredentialsReset& request) {
  static constexpr auth::Operation kOp = auth::Operation::kResetCredentials;
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, "", Object(name)));
  if ((request.client_id || request.client_secret) && !options_.allow_supplied_credentials) {
    return Fail(ErrorKind::kBadRequest,
                "Caller-supplied credentials are not accepted by this server");
  }
  if (request.client_secret &&
      request.client_secret->Reveal().size() < options_.min_supplied_secret_length) {
    return Fail(ErrorKind::kBadRequest,
                "clientSecret must be at least " +
                    std::to_string(options_.min_supplied_secret_length) + " characters");
  }
  if (request.client_id) FIRN_RETURN_IF_ERROR(mgmt::ValidateName("clientId", *request.client_id));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  const PrincipalInfo* p = FindPrincipal(realm, name);
  if (!p) return mgmt::NotFound("Principal", name);
  PrincipalInfo next = *p;
  if (request.client_id) {
    auto owner = realm.principal_by_client.find(*request.client_id);
    if (owner != realm.principal_by_client.end() && owner->second != name) {
      return Fail(ErrorKind::kAlreadyExists, "clientId is already in use");
    }
    next.client_id = *request.client_id;
  } else {
    next.client_id = NewClientId(realm);
  }
  Secret secret = request.client_secret ? *request.client_secret : auth::GenerateClientSecret();
  FIRN_ASSIGN_OR_RETURN(next.secret_hash, auth::HashSecretScrypt(secret, options_.scrypt));
  next.previous_secret_hash.clear();  // reset: nothing earlier keeps working
  return WriteCredentials(ctx, kOp, *p, std::move(next), std::move(secret));
}

}  // namespace firn::access
