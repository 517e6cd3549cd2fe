#include "catalog/authorization.h"

#include <string>
#include <variant>
#include <vector>

#include "common/macros.h"

namespace firn::catalog {
namespace {

Error Denied(const RequestContext& ctx, const auth::Decision& d) {
  return Error(ErrorKind::kForbidden, "Principal '" + ctx.caller->subject.principal +
                                          "' is not authorized: missing " +
                                          std::string(auth::PrivilegeName(d.missing)) + " on " +
                                          d.resource);
}

// A rule called through the wrong entry point (a management operation, say) is a bug: refuse.
Error WrongTarget(auth::Operation op) {
  return Error(ErrorKind::kInternal, "Request refused",
               "operation " + std::string(auth::RuleOf(op).operation_id) + "/" +
                   std::string(auth::RuleOf(op).variant) + " has no catalog securable here");
}

// The compile-time form of "every update type has a privilege row", with a readable message;
// UpdatePrivileges' lookup would not compile without it either.
template <typename Variant>
struct EveryUpdateHasARow;
template <typename... Update>
struct EveryUpdateHasARow<std::variant<Update...>> {
  static constexpr bool value =
      (auth::FindUpdateActionPrivilege(Update::kAction).has_value() && ...);
};
static_assert(EveryUpdateHasARow<metadata::TableUpdate>::value,
              "a metadata::TableUpdate alternative has no row in auth::kUpdateActionPrivileges");

bool TargetsNamespace(auth::AuthzTarget target) {
  return target == auth::AuthzTarget::kNamespace || target == auth::AuthzTarget::kParentNamespace;
}

Status Check(const RequestContext& ctx, const auth::PrivilegeSet& privileges,
             const auth::Resource& resource) {
  auth::Decision d =
      auth::AuthorizeAll(*ctx.caller->grants, ctx.caller->subject, privileges, resource);
  if (!d) return std::unexpected(Denied(ctx, d));
  return Ok();
}

}  // namespace

auth::Resource NamespaceResource(const RequestContext& ctx, const store::Namespace& ns) {
  return auth::Resource{ctx.scope.realm, ctx.scope.catalog, ns, std::nullopt,
                        std::nullopt};
}

auth::Resource ObjectResource(const RequestContext& ctx, const store::Identifier& id,
                              store::ObjectKind kind) {
  auth::Resource r = NamespaceResource(ctx, id.ns);
  if (kind == store::ObjectKind::kTable) {
    r.table = id.name;
  } else {
    r.view = id.name;
  }
  return r;
}

Status AuthorizeNamespaceOp(const RequestContext& ctx, auth::Operation op,
                            const store::Namespace& ns) {
  if (!AuthorizationOn(ctx)) return Ok();
  const auth::OperationRule& rule = auth::RuleOf(op);
  if (!TargetsNamespace(rule.target)) return std::unexpected(WrongTarget(op));
  return Check(ctx, rule.on_target, NamespaceResource(ctx, ns));
}

Status AuthorizeObjectOp(const RequestContext& ctx, auth::Operation op,
                         const store::Identifier& id,
                         const std::optional<auth::PrivilegeSet>& privileges,
                         const store::Identifier* destination) {
  if (!AuthorizationOn(ctx)) return Ok();
  const auth::OperationRule& rule = auth::RuleOf(op);
  const auth::PrivilegeSet& wanted = privileges ? *privileges : rule.on_target;
  switch (rule.target) {
    case auth::AuthzTarget::kParentNamespace:
    case auth::AuthzTarget::kNamespace:
      FIRN_RETURN_IF_ERROR(Check(ctx, wanted, NamespaceResource(ctx, id.ns)));
      break;
    case auth::AuthzTarget::kTable:
      FIRN_RETURN_IF_ERROR(Check(ctx, wanted, ObjectResource(ctx, id, store::ObjectKind::kTable)));
      break;
    case auth::AuthzTarget::kView:
      FIRN_RETURN_IF_ERROR(Check(ctx, wanted, ObjectResource(ctx, id, store::ObjectKind::kView)));
      break;
    case auth::AuthzTarget::kNone:
    case auth::AuthzTarget::kRoot:
    case auth::AuthzTarget::kCatalog:
      return std::unexpected(WrongTarget(op));
  }
  if (destination && rule.secondary != auth::AuthzTarget::kNone) {
    return Check(ctx, rule.on_secondary, NamespaceResource(ctx, destination->ns));
  }
  return Ok();
}

auth::PrivilegeSet UpdatePrivileges(const std::vector<metadata::TableUpdate>& updates) {
  std::vector<auth::Privilege> per_update;
  per_update.reserve(updates.size());
  for (const auto& update : updates) {
    per_update.push_back(std::visit(
        [](const auto& u) { return kUpdatePrivilegeOf<std::decay_t<decltype(u)>>; }, update));
  }
  return auth::UpdateTablePrivileges(per_update);
}

Result<bool> AuthorizeList(const RequestContext& ctx, auth::Operation op,
                           const store::Namespace& ns) {
  if (!AuthorizationOn(ctx)) return false;
  const auth::OperationRule& rule = auth::RuleOf(op);
  if (!TargetsNamespace(rule.target)) return std::unexpected(WrongTarget(op));
  const auth::Resource where = NamespaceResource(ctx, ns);
  auth::Decision d =
      auth::AuthorizeAll(*ctx.caller->grants, ctx.caller->subject, rule.on_target, where);
  if (d) return false;
  if (auth::CanSee(*ctx.caller->grants, ctx.caller->subject, where)) return true;
  return std::unexpected(Denied(ctx, d));
}

bool Visible(const RequestContext& ctx, const auth::Resource& resource) {
  return !AuthorizationOn(ctx) ||
         auth::CanSee(*ctx.caller->grants, ctx.caller->subject, resource);
}

}  // namespace firn::catalog
