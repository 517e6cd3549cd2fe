#include "store/store_errors.h"

#include "store/store_keys.h"

namespace firn::store {
namespace {

std::string_view Capitalised(ObjectKind kind) {
  return kind == ObjectKind::kTable ? "Table" : "View";
}

}  // namespace

std::string_view ObjectKindName(ObjectKind kind) {
  return kind == ObjectKind::kTable ? "table" : "view";
}

Error NoSuchNamespaceError(const Namespace& ns) {
  return Error(ErrorKind::kNoSuchNamespace, "Namespace does not exist: " + NamespaceDisplay(ns));
}

Error NamespaceExistsError(const Namespace& ns) {
  return Error(ErrorKind::kAlreadyExists, "Namespace already exists: " + NamespaceDisplay(ns));
}

Error NamespaceNotEmptyError(const Namespace& ns) {
  return Error(ErrorKind::kNamespaceNotEmpty, "Namespace is not empty: " + NamespaceDisplay(ns));
}

Error NoSuchParentNamespaceError(const Namespace& ns) {
  Namespace parent(ns.begin(), ns.end() - (ns.empty() ? 0 : 1));
  return Error(ErrorKind::kNoSuchNamespace,
               "Cannot create namespace " + NamespaceDisplay(ns) +
                   ". Parent namespace does not exist: " + NamespaceDisplay(parent));
}

Error NoSuchObjectError(const Identifier& id, ObjectKind kind) {
  return Error(kind == ObjectKind::kTable ? ErrorKind::kNoSuchTable : ErrorKind::kNoSuchView,
               std::string(Capitalised(kind)) + " does not exist: " + IdentifierDisplay(id));
}

Error ObjectExistsError(const Identifier& id, ObjectKind kind, ObjectKind existing) {
  if (kind == existing) {
    return Error(ErrorKind::kAlreadyExists,
                 std::string(Capitalised(kind)) + " already exists: " + IdentifierDisplay(id));
  }
  return Error(ErrorKind::kAlreadyExists, std::string(Capitalised(existing)) +
                                              " with same name already exists: " +
                                              IdentifierDisplay(id));
}

Error RenameTargetExistsError(const Identifier& from, const Identifier& to, ObjectKind kind,
                              ObjectKind existing) {
  if (kind == existing) return ObjectExistsError(to, kind, existing);
  return Error(ErrorKind::kAlreadyExists, "Cannot rename " + IdentifierDisplay(from) + " to " +
                                              IdentifierDisplay(to) + ". " +
                                              std::string(Capitalised(existing)) +
                                              " already exists");
}

Error PointerMovedError(const Identifier& id, ObjectKind kind, const std::string& expected,
                        const std::string& actual) {
  return Error(ErrorKind::kCommitFailed,
               "Cannot commit " + std::string(ObjectKindName(kind)) + " " +
                   IdentifierDisplay(id) +
                   ": metadata location changed concurrently (expected " + expected +
                   ", found " + actual + ")");
}

}  // namespace firn::store
