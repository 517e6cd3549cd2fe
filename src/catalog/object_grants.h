// ObjectGrants: the grants on a table, view or namespace follow it (docs/authorization.md,
// "Grants follow their object"). A rename carries them to the new name; a drop takes them
// away, so a new object of the old name starts with none; a soft drop keeps them with the
// dropped object and an undrop brings them back under the name it restores to; a move to
// another catalog leaves them behind (catalog roles belong to one catalog).
//
// The catalog says when grants move; access/ (StoredObjectGrants) knows how they are stored.
// Each method returns a store::GrantsPlan that the store runs inside the object's own
// transaction (store.h), so the object and its grants change together or not at all.
//
// Thread-safety: implementations are immutable after construction. No errors of its own: a
// plan's error (an unreadable stash) rolls back the write it runs in.
#pragma once

#include "store/store.h"

namespace firn::catalog {

class ObjectGrants {
 public:
  virtual ~ObjectGrants() = default;

  // The grants on `from` move to `to` (same catalog, same kind).
  virtual store::GrantsPlan Rename(const store::CatalogScope& scope, store::ObjectKind kind,
                                   const store::Identifier& from,
                                   const store::Identifier& to) const = 0;
  // The grants on `id` go; when `keep`, the plan's stash holds them for Restore.
  virtual store::GrantsPlan Drop(const store::CatalogScope& scope, store::ObjectKind kind,
                                 const store::Identifier& id, bool keep) const = 0;
  // The grants a dropped object kept come back on `target`, where their grantee (a catalog
  // role) still exists.
  virtual store::GrantsPlan Restore(const store::CatalogScope& scope, store::ObjectKind kind,
                                    const store::Identifier& target) const = 0;
  // The grants on namespace `ns` go with it.
  virtual store::GrantsPlan DropNamespace(const store::CatalogScope& scope,
                                          const store::Namespace& ns) const = 0;
  // After a write that ran one of these plans: this instance sees the new grants at once
  // (others on their next poll).
  virtual void Changed() const = 0;
};

}  // namespace firn::catalog
