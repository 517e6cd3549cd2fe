// ManagementService core: authorisation, the audited write path, shared helpers, audit listing.
#include "access/management_service.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "access/bootstrap.h"
#include "access/management_service_internal.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"
#include "common/strings.h"

namespace firn::access {

namespace mgmt {

Status ValidateName(std::string_view what, std::string_view name) {
  if (name.empty() || name.size() > 256) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid " + std::string(what) + " name: must be 1 to 256 characters");
  }
  // The spec's pattern refuses names starting with "system$" (any case, leading blanks).
  size_t i = name.find_first_not_of(" \t\r\n");
  if (i != std::string_view::npos && StartsWithIgnoreCase(name.substr(i), "system$")) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid " + std::string(what) + " name: 'system$' names are reserved");
  }
  if (name.find(kNameSeparator) != std::string_view::npos) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid " + std::string(what) + " name: control characters are not allowed");
  }
  return Ok();
}

std::unexpected<Error> NotFound(std::string_view what, std::string_view name) {
  return Fail(ErrorKind::kNotFound,
              std::string(what) + " does not exist: " + std::string(name));
}

PrincipalView ToView(const PrincipalInfo& p) {
  return PrincipalView{p.name,           p.client_id,  p.properties,
                       p.entity_version, p.created_ms, p.updated_ms};
}

RoleView ToView(const RoleInfo& r) {
  return RoleView{r.name, r.properties, r.federated, r.entity_version, r.created_ms,
                  r.updated_ms};
}

store::AccessWrite Create(store::AccessRecord record) {
  return store::AccessWrite{store::AccessWrite::Op::kCreate, std::move(record), std::nullopt};
}

store::AccessWrite Update(store::AccessRecord record, std::optional<int64_t> expected) {
  return store::AccessWrite{store::AccessWrite::Op::kUpdate, std::move(record), expected};
}

store::AccessWrite Delete(const store::AccessRecord& record, std::optional<int64_t> expected) {
  store::AccessRecord key;
  key.realm = record.realm;
  key.kind = record.kind;
  key.scope = record.scope;
  key.name = record.name;
  return store::AccessWrite{store::AccessWrite::Op::kDelete, std::move(key), expected};
}

std::vector<PrincipalRoleAssignment> PrincipalRoleLinks(const RealmState& realm) {
  std::vector<PrincipalRoleAssignment> out;
  for (const auto& r : realm.links) {
    if (r.kind != store::AccessKind::kPrincipalRoleGrant) continue;
    if (auto a = DecodePrincipalRoleGrant(r)) out.push_back(std::move(*a));
  }
  return out;
}

std::vector<CatalogRoleAssignment> CatalogRoleLinks(const RealmState& realm) {
  std::vector<CatalogRoleAssignment> out;
  for (const auto& r : realm.links) {
    if (r.kind != store::AccessKind::kCatalogRoleGrant) continue;
    if (auto a = DecodeCatalogRoleGrant(r)) out.push_back(std::move(*a));
  }
  return out;
}

std::vector<PrivilegeGrantInfo> PrivilegeGrants(const RealmState& realm) {
  std::vector<PrivilegeGrantInfo> out;
  for (const auto& r : realm.links) {
    if (r.kind != store::AccessKind::kPrivilegeGrant) continue;
    if (auto g = DecodePrivilegeGrant(r)) out.push_back(std::move(*g));
  }
  return out;
}

std::optional<store::AccessRecord> OtherServiceAdminLink(const RealmState& realm,
                                                         std::string_view excluded) {
  if (!realm.principal_roles.contains(kServiceAdminRole)) return std::nullopt;
  for (const auto& link : realm.links) {
    if (link.kind != store::AccessKind::kPrincipalRoleGrant) continue;
    auto a = DecodePrincipalRoleGrant(link);
    if (a && a->principal_role == kServiceAdminRole && a->principal != excluded &&
        realm.principals.contains(a->principal)) {
      return link;
    }
  }
  return std::nullopt;
}

const RealmState& RealmOf(const AccessSnapshot& snap, std::string_view realm) {
  static const RealmState kEmpty;
  const RealmState* r = snap.FindRealm(realm);
  return r ? *r : kEmpty;
}

const RoleInfo* FindCatalogRole(const RealmState& realm, std::string_view catalog,
                                std::string_view name) {
  auto c = realm.catalog_roles.find(catalog);
  if (c == realm.catalog_roles.end()) return nullptr;
  auto r = c->second.find(name);
  return r == c->second.end() ? nullptr : &r->second;
}

}  // namespace mgmt

ManagementService::ManagementService(store::AccessStore& access_store,
                                     store::CatalogStore& catalogs, AccessState& state,
                                     ManagementOptions options)
    : store_(access_store), catalogs_(catalogs), state_(state), options_(options) {}

auth::Resource ManagementService::Root(const ManagementContext& ctx) const {
  auth::Resource r;
  r.realm = ctx.realm;
  return r;
}

auth::Resource ManagementService::OnCatalog(const ManagementContext& ctx,
                                            std::string_view catalog) const {
  auth::Resource r;
  r.realm = ctx.realm;
  r.catalog = std::string(catalog);
  return r;
}

bool ManagementService::Holds(const ManagementContext& ctx, const auth::PrivilegeSet& privileges,
                              const auth::Resource& resource) const {
  if (!ctx.caller || !ctx.caller->authorization_enabled()) return true;
  return auth::AuthorizeAll(*ctx.caller->grants, ctx.caller->subject, privileges, resource)
      .allowed;
}

Result<auth::Resource> ManagementService::TargetOf(const ManagementContext& ctx,
                                                   auth::Operation op, std::string_view catalog,
                                                   const auth::Resource* securable) const {
  if (securable) return *securable;
  switch (auth::RuleOf(op).target) {
    case auth::AuthzTarget::kRoot: return Root(ctx);
    case auth::AuthzTarget::kCatalog: return OnCatalog(ctx, catalog);
    default:
      // A grant operation without its securable, or a catalog operation: a bug; refuse.
      return Fail(ErrorKind::kInternal, "Request refused",
                  "management operation " + std::string(auth::AuditName(op)) +
                      " has no securable here");
  }
}

Status ManagementService::Require(const ManagementContext& ctx, auth::Operation op,
                                  std::string_view catalog,
                                  const auth::Resource* securable) const {
  if (!ctx.caller || !ctx.caller->authorization_enabled()) return Ok();
  FIRN_ASSIGN_OR_RETURN(auth::Resource resource, TargetOf(ctx, op, catalog, securable));
  auth::Decision d = auth::AuthorizeAll(*ctx.caller->grants, ctx.caller->subject,
                                        auth::RuleOf(op).on_target, resource);
  if (d.allowed) return Ok();
  // Someone who may list every catalog learns nothing from "no such catalog": tell them so
  // rather than blaming a privilege that could not exist on a missing catalog.
  if (!resource.catalog.empty() &&
      Holds(ctx, auth::RuleOf(auth::Operation::kListCatalogs).on_target, Root(ctx)) &&
      !state_.Current()->FindCatalog(ctx.realm, resource.catalog)) {
    return mgmt::NotFound("Catalog", resource.catalog);
  }
  return Fail(ErrorKind::kForbidden, "Principal '" + ctx.caller->subject.principal +
                                         "' is not authorized: missing " +
                                         std::string(auth::PrivilegeName(d.missing)) + " on " +
                                         d.resource);
}

Status ManagementService::RequireForWrite(const ManagementContext& ctx, auth::Operation op,
                                          std::string_view catalog, std::string_view object,
                                          const auth::Resource* securable) {
  auto st = Require(ctx, op, catalog, securable);
  if (!st) AuditFailure(ctx, op, catalog, object, st.error());
  return st;
}

std::shared_ptr<const AccessSnapshot> ManagementService::ReadSnapshot() const {
  return state_.Current();
}

std::shared_ptr<const AccessSnapshot> ManagementService::WriteSnapshot() {
  // One cheap version read: a write decides on (and cascades over) the newest rows, not on
  // whatever this instance polled last.
  if (auto st = state_.Refresh(); !st) {
    spdlog::warn(R"("msg":"access refresh before management write failed","message":"{}")",
                 log::Escape(st.error().message));
  }
  return state_.Current();
}

namespace mgmt {

store::AuditEntry MakeAudit(const ManagementContext& ctx, auth::Operation op,
                            std::string_view catalog, std::string_view object) {
  store::AuditEntry a;
  a.at_ms = NowMillis();
  a.realm = ctx.realm;
  a.catalog = std::string(catalog);
  a.principal = ctx.caller ? ctx.caller->subject.principal : std::string();
  a.client = ctx.client;
  a.request_id = ctx.request_id;
  a.operation = std::string(auth::AuditName(op));
  a.object = std::string(object);
  return a;
}

Error MapStoreError(const Error& e, std::string_view object) {
  switch (e.kind) {
    case ErrorKind::kAlreadyExists:
      return Error(ErrorKind::kAlreadyExists, "Already exists: " + std::string(object), e.detail);
    case ErrorKind::kNotFound:
      return Error(ErrorKind::kNotFound, "Does not exist: " + std::string(object), e.detail);
    case ErrorKind::kCommitFailed:
      return Error(ErrorKind::kCommitFailed,
                   "The entity version doesn't match the currentEntityVersion of " +
                       std::string(object) + "; retry after fetching the latest version",
                   e.detail);
    default:
      return e;
  }
}

}  // namespace mgmt

using mgmt::MakeAudit;
using mgmt::MapStoreError;

void ManagementService::AuditFailure(const ManagementContext& ctx, auth::Operation op,
                                     std::string_view catalog, std::string_view object,
                                     const Error& error) {
  store::AuditEntry a = MakeAudit(ctx, op, catalog, object);
  a.outcome = std::string(ErrorKindName(error.kind));
  a.detail = error.message;  // client-safe by contract, never a secret
  if (auto st = store_.AppendAudit(a); !st) {
    spdlog::warn(R"("msg":"audit append failed","operation":"{}","message":"{}")",
                 log::Escape(a.operation), log::Escape(st.error().message));
  }
}

Result<int64_t> ManagementService::Apply(const ManagementContext& ctx, auth::Operation op,
                                         std::string_view catalog,
                                         std::string_view object,
                                         const std::vector<store::AccessWrite>& writes) {
  store::AuditEntry audit = MakeAudit(ctx, op, catalog, object);
  audit.outcome = std::string(mgmt::kSuccess);
  auto version = store_.ApplyAccessWrites(writes, &audit, audit.at_ms);
  if (!version) {
    Error e = MapStoreError(version.error(), object);
    AuditFailure(ctx, op, catalog, object, e);
    return std::unexpected(std::move(e));
  }
  // The write is durable; a slow reload or a slow peer must not turn it into an error (a
  // created principal's secret is shown only in this response).
  if (auto st = state_.AwaitPropagation(*version); !st) {
    spdlog::warn(R"("msg":"management change committed, propagation incomplete","operation":"{}","version":{},"message":"{}")",
                 log::Escape(audit.operation), *version, log::Escape(st.error().message));
  }
  return *version;
}

std::vector<std::string> ManagementService::ActiveRoles(const ManagementContext& ctx,
                                                        const AccessSnapshot& snap) const {
  std::vector<std::string> out;
  if (!ctx.caller) return out;
  const auth::Subject& s = ctx.caller->subject;
  if (s.trusted_roles) return s.active_roles;
  for (const auto& a : mgmt::PrincipalRoleLinks(mgmt::RealmOf(snap, ctx.realm))) {
    if (a.principal != s.principal) continue;
    if (s.all_roles || std::find(s.active_roles.begin(), s.active_roles.end(),
                                 a.principal_role) != s.active_roles.end()) {
      out.push_back(a.principal_role);
    }
  }
  return out;
}

Result<AuditPage> ManagementService::ListAudit(const ManagementContext& ctx,
                                               const AuditQuery& query) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kListAuditEntries));
  if (query.limit < 1 || query.limit > 1000) {
    return Fail(ErrorKind::kBadRequest, "Invalid limit: must be between 1 and 1000");
  }
  store::AuditFilter f;
  f.realm = ctx.realm;
  f.catalog = query.catalog;
  f.principal = query.principal;
  f.operation = query.operation;
  f.outcome = query.outcome;
  f.object_prefix = query.object_prefix;
  f.since_ms = query.since_ms;
  f.until_ms = query.until_ms;
  f.after_id = query.after_id;
  f.limit = query.limit;
  FIRN_ASSIGN_OR_RETURN(auto rows, store_.ListAudit(f));
  AuditPage page;
  // Without after_id the rows are the newest, newest first: a view, not a cursor. With
  // after_id (0 = from the start) rows come oldest first and a full page carries `next`.
  if (query.after_id && static_cast<int64_t>(rows.size()) == query.limit) {
    page.next = rows.back().id;
  }
  page.entries = std::move(rows);
  return page;
}

Result<std::vector<store::Task>> ManagementService::ListTasks(const ManagementContext& ctx,
                                                             store::TaskFilter filter) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kListTasks));
  if (filter.limit < 1 || filter.limit > 1000) {
    return Fail(ErrorKind::kBadRequest, "Invalid limit: must be between 1 and 1000");
  }
  filter.realm = ctx.realm;
  return catalogs_.ListTasks(filter);
}

}  // namespace firn::access
