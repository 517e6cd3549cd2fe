// Authorization checks for CatalogService: an auth::Operation's rule (auth/operations.h) on the
// securable the request names, judged against the caller's grant snapshot.
//
// Contract: every check builds its Resource from the request's own names (realm, catalog,
// namespace, object) and never reads the store, so it can run before any existence check or
// side effect: a caller without the privilege gets the same 403 whether the object exists or
// not. A null caller or a caller without a grant snapshot means authorisation is off (allow).
// Errors: kForbidden "Principal 'bob' is not authorized: missing <PRIVILEGE> on <resource>";
// kInternal for an operation whose rule targets no catalog securable (a management operation
// passed here: a bug, which fails closed; operations_test walks every enumerator's target).
// Thread-safety: pure functions of their arguments.
#pragma once

#include <optional>
#include <string_view>

#include "auth/authorizer.h"
#include "auth/operations.h"
#include "catalog/request_context.h"
#include "common/result.h"
#include "metadata/table_update.h"
#include "store/store.h"

namespace firn::catalog {

inline bool AuthorizationOn(const RequestContext& ctx) {
  return ctx.caller && ctx.caller->grants;
}

auth::Resource NamespaceResource(const RequestContext& ctx, const store::Namespace& ns);
auth::Resource ObjectResource(const RequestContext& ctx, const store::Identifier& id,
                              store::ObjectKind kind);

// A namespace-level operation (list/create/load/drop namespaces, list tables/views):
// `ns` is the securable the rule targets — the parent for createNamespace/listNamespaces.
Status AuthorizeNamespaceOp(const RequestContext& ctx, auth::Operation op,
                            const store::Namespace& ns);

// An operation on the table or view `id`. The rule's target picks the securable: the table
// (kTable) or view (kView) itself, or its namespace (kParentNamespace: create, register).
// `privileges`, when given, replaces the rule's own set (updateTable's fine-grained
// privileges). `destination` is the rename target; the rule's secondary privileges are
// checked on its namespace.
Status AuthorizeObjectOp(const RequestContext& ctx, auth::Operation op,
                         const store::Identifier& id,
                         const std::optional<auth::PrivilegeSet>& privileges = std::nullopt,
                         const store::Identifier* destination = nullptr);

// The fine-grained privileges a table change's updates need (Polaris's updateTable mapping):
// each update type's row in auth::kUpdateActionPrivileges, resolved at compile time — a
// metadata::TableUpdate alternative without a row does not compile.
auth::PrivilegeSet UpdatePrivileges(const std::vector<metadata::TableUpdate>& updates);

// The privilege of one update type, e.g. kUpdatePrivilegeOf<metadata::AddSnapshot>.
template <typename Update>
inline constexpr auth::Privilege kUpdatePrivilegeOf =
    auth::UpdateActionPrivilegeOf(Update::kAction);

// Lists: Ok(false) when the caller may list everything under `ns` (the rule's privilege, or
// authorisation off); Ok(true) when it may see only the entries CanSee() admits (it holds no
// list privilege there but holds something at or beneath `ns`); kForbidden otherwise.
Result<bool> AuthorizeList(const RequestContext& ctx, auth::Operation op,
                           const store::Namespace& ns);

// Whether the caller sees `resource` in a listing (auth/authorizer.h CanSee).
bool Visible(const RequestContext& ctx, const auth::Resource& resource);

}  // namespace firn::catalog
