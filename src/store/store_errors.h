// The Iceberg-worded errors of the CatalogStore contract, in one place so every backend
// (SQLite now, PostgreSQL later) answers with the same kinds and messages.
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "common/error.h"
#include "store/store.h"

namespace firn::store {

// "Namespace does not exist: a.b"
Error NoSuchNamespaceError(const Namespace& ns);
// "Namespace already exists: a.b"
Error NamespaceExistsError(const Namespace& ns);
// "Namespace is not empty: a.b"
Error NamespaceNotEmptyError(const Namespace& ns);
// "Cannot create namespace a.b. Parent namespace does not exist: a"
Error NoSuchParentNamespaceError(const Namespace& ns);
// "Table does not exist: a.t" / "View does not exist: a.v"
Error NoSuchObjectError(const Identifier& id, ObjectKind kind);
// Creating `kind` at `id` where `existing` already is:
//   same kind: "Table already exists: a.t" / "View already exists: a.v"
//   table over a view: "View with same name already exists: a.t"
//   view over a table: "Table with same name already exists: a.v"
Error ObjectExistsError(const Identifier& id, ObjectKind kind, ObjectKind existing);
// Renaming a `kind` onto `existing` at `to`:
//   table onto view: "Cannot rename a.x to a.y. View already exists"
//   view onto table: "Cannot rename a.x to a.y. Table already exists"
//   same kind: "Table already exists: a.y" / "View already exists: a.y"
Error RenameTargetExistsError(const Identifier& from, const Identifier& to, ObjectKind kind,
                              ObjectKind existing);
// kCommitFailed: the pointer is not the expected one. The Java client prefixes
// "Commit failed: " itself, so the message does not.
Error PointerMovedError(const Identifier& id, ObjectKind kind, const std::string& expected,
                        const std::string& actual);

std::string_view ObjectKindName(ObjectKind kind);  // "table" / "view"

}  // namespace firn::store
