// Walking a whole catalog database, for admin tools (location backfill, the foreign-writer
// scan): every page of a listing, and every table or view of every catalog scope.
//
// Thread-safety: stateless; the store is thread-safe. Errors: the first error of a listing or
// of `each` stops the walk and is returned.
#pragma once

#include <functional>

#include "common/macros.h"
#include "common/result.h"
#include "store/store.h"

namespace firn::catalog {

// Calls `each` for every item of every page `fetch` returns, 500 at a time.
template <typename T, typename F>
Status EachPage(F fetch, const std::function<Status(const T&)>& each) {
  store::PageRequest page;
  page.size = 500;
  while (true) {
    FIRN_ASSIGN_OR_RETURN(store::Page<T> got, fetch(page));
    for (const T& item : got.items) FIRN_RETURN_IF_ERROR(each(item));
    if (!got.next_token) return Ok();
    page.token = got.next_token;
  }
}

// Every object of `kind` in `scope` under namespace `ns` and its descendants (all of the
// scope for an empty `ns`).
inline Status ForEachObject(
    store::CatalogStore& store, const store::CatalogScope& scope, const store::Namespace& ns,
    store::ObjectKind kind,
    const std::function<Status(const store::Identifier&)>& each) {
  if (!ns.empty()) {
    FIRN_RETURN_IF_ERROR(EachPage<std::string>(
        [&](const store::PageRequest& p) { return store.ListObjects(scope, ns, kind, p); },
        [&](const std::string& name) { return each({ns, name}); }));
  }
  return EachPage<store::Namespace>(
      [&](const store::PageRequest& p) { return store.ListNamespaces(scope, ns, p); },
      [&](const store::Namespace& child) {
        return ForEachObject(store, scope, child, kind, each);
      });
}

}  // namespace firn::catalog
