#include "catalog/authorization.h"

#include <string>
#include <type_traits>
#include <variant>

namespace firn::catalog {
namespace {

Error Denied(const RequestContext& ctx, const auth::Decision& d) {
  return Error(ErrorKind::kForbidden, "Principal '" + ctx.caller->subject.principal +
                                          "' is not authorized: missing " +
                                          std::string(auth::PrivilegeName(d.missing)) + " on " +
                                          d.resource);
}

Result<const auth::OperationRule*> Rule(std::string_view operation_id, std::string_view variant) {
  const auth::OperationRule* rule = auth::FindOperationRule(operation_id, variant);
  if (!rule) {
    return Fail(ErrorKind::kInternal, "Request refused",
                "no authorization rule for " + std::string(operation_id) + "/" +
                    std::string(variant));
  }
  return rule;
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

Status AuthorizeNamespaceOp(const RequestContext& ctx, std::string_view operation_id,
                            const store::Namespace& ns) {
  if (!AuthorizationOn(ctx)) return Ok();
  auto rule = Rule(operation_id, "");
  if (!rule) return Fail(rule.error());
  return Check(ctx, (*rule)->on_target, NamespaceResource(ctx, ns));
}

Status AuthorizeObjectOp(const RequestContext& ctx, std::string_view operation_id,
                         std::string_view variant, const store::Identifier& id,
                         store::ObjectKind kind,
                         const std::optional<auth::PrivilegeSet>& privileges,
                         const store::Identifier* destination) {
  if (!AuthorizationOn(ctx)) return Ok();
  auto found = Rule(operation_id, variant);
  if (!found) return Fail(found.error());
  const auth::OperationRule& rule = **found;
  const auth::PrivilegeSet& wanted = privileges ? *privileges : rule.on_target;
  if (rule.target == auth::AuthzTarget::kParentNamespace ||
      rule.target == auth::AuthzTarget::kNamespace) {
    if (auto st = Check(ctx, wanted, NamespaceResource(ctx, id.ns)); !st) return st;
  } else {
    if (auto st = Check(ctx, wanted, ObjectResource(ctx, id, kind)); !st) return st;
  }
  if (destination && rule.secondary != auth::AuthzTarget::kNone) {
    return Check(ctx, rule.on_secondary, NamespaceResource(ctx, destination->ns));
  }
  return Ok();
}

auth::PrivilegeSet UpdatePrivileges(const std::vector<metadata::TableUpdate>& updates) {
  auth::PrivilegeSet out;
  for (const auto& update : updates) {
    std::string_view action = std::visit(
        [](const auto& u) -> std::string_view { return std::decay_t<decltype(u)>::kAction; },
        update);
    out.Add(auth::UpdateActionPrivilege(action));
  }
  if (out.empty()) out.Add(auth::Privilege::kTABLE_WRITE_PROPERTIES);
  return out;
}

Result<bool> AuthorizeList(const RequestContext& ctx, std::string_view operation_id,
                           const store::Namespace& ns) {
  if (!AuthorizationOn(ctx)) return false;
  auto rule = Rule(operation_id, "");
  if (!rule) return Fail(rule.error());
  const auth::Resource where = NamespaceResource(ctx, ns);
  auth::Decision d =
      auth::AuthorizeAll(*ctx.caller->grants, ctx.caller->subject, (*rule)->on_target, where);
  if (d) return false;
  if (auth::CanSee(*ctx.caller->grants, ctx.caller->subject, where)) return true;
  return std::unexpected(Denied(ctx, d));
}

bool Visible(const RequestContext& ctx, const auth::Resource& resource) {
  return !AuthorizationOn(ctx) ||
         auth::CanSee(*ctx.caller->grants, ctx.caller->subject, resource);
}

}  // namespace firn::catalog
