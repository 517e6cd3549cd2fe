// StoredObjectGrants: catalog::ObjectGrants over the stored privilege grants (access_records.h):
// the plans that make grants follow a renamed, dropped, restored or moved table or view, or a
// dropped namespace (catalog/object_grants.h says when; docs/authorization.md says what).
//
// A dropped object's stash is a JSON array of {"grantee","privilege"}: the securable is the
// object itself, named again when it is restored.
//
// Thread-safety: immutable; Changed() is AccessState::Refresh, which is thread-safe.
#pragma once

#include "access/access_state.h"
#include "catalog/object_grants.h"

namespace firn::access {

class StoredObjectGrants final : public catalog::ObjectGrants {
 public:
  // `state` (may be null: no local refresh) must outlive this object.
  explicit StoredObjectGrants(AccessState* state) : state_(state) {}

  store::GrantsPlan Rename(const store::CatalogScope& scope, store::ObjectKind kind,
                           const store::Identifier& from,
                           const store::Identifier& to) const override;
  store::GrantsPlan Drop(const store::CatalogScope& scope, store::ObjectKind kind,
                         const store::Identifier& id, bool keep) const override;
  store::GrantsPlan Restore(const store::CatalogScope& scope, store::ObjectKind kind,
                            const store::Identifier& target) const override;
  store::GrantsPlan DropNamespace(const store::CatalogScope& scope,
                                  const store::Namespace& ns) const override;
  void Changed() const override;

 private:
  AccessState* state_;
};

}  // namespace firn::access
