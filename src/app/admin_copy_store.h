// CopyStore: copies a whole catalog database from one CatalogStore to another (any backends):
// every realm/catalog, every namespace with its properties, every table and view pointer, and
// every identity and access record (realms, signing keys, principals, roles, catalogs, grants),
// so a realm's principals, keys and grants move with its catalogs. Access records are copied
// in one transaction (upserts: the destination stamps its own entity versions and times). The
// audit trail is copied (oldest first, new ids) when the destination has none yet, so a rerun
// with force does not duplicate it.
//
// What is copied is the catalog's mutable truth only: metadata files stay where they are (the
// pointers keep naming them). Idempotency records and metrics reports are not copied (they are
// short-lived). The copy is not a snapshot of a source under concurrent writes: each pointer
// is one that was current when read. Quiesce the source (or copy a backup) for a consistent
// cut.
// Destination: refused (kAlreadyExists) when it already holds any namespace or access record,
// unless `force` (then source access records replace same-keyed ones; others are kept);
// with force, existing namespaces get the source's properties (extra keys removed) and
// existing pointers are replaced. A name that is a table on one side and a view on the other
// is an error (kAlreadyExists), left to the operator.
// Thread-safety: uses the stores' thread-safe API from the calling thread only.
// Errors: the first store error aborts the copy and is returned (the destination then holds a
// partial copy; rerun with force).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/result.h"
#include "store/store.h"

namespace firn::app {

struct CopyStoreStats {
  int64_t catalogs = 0;
  int64_t namespaces = 0;
  int64_t tables = 0;
  int64_t views = 0;
  int64_t access_records = 0;
  int64_t audit_rows = 0;
};

struct CopyStoreOptions {
  bool force = false;
  std::function<void(const std::string&)> progress;  // optional: one line per catalog
};

Result<CopyStoreStats> CopyStore(store::CatalogStore& from, store::CatalogStore& to,
                                 const CopyStoreOptions& options = {});

}  // namespace firn::app
