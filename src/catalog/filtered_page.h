// FilteredPage: one page of a store listing, keeping only the entries a predicate admits
// (list visibility), with the page size honoured after filtering.
//
// Contract: asks the store for at most (size - kept) entries at a time, so it never has to cut
// a store page in the middle and the store's own continuation token stays exact. After
// kMaxFetches store pages it returns what it has with the store's token: a short page with a
// next-page-token is legal in the REST spec, and it bounds the work for sparse visibility.
// Errors: whatever `fetch` returns. Thread-safety: as the callables passed in.
#pragma once

#include <utility>

#include "common/result.h"
#include "store/store.h"

namespace firn::catalog {

inline constexpr int kMaxFilteredFetches = 16;

template <typename T, typename Fetch, typename Keep>
Result<store::Page<T>> FilteredPage(const store::PageRequest& page, Fetch&& fetch, Keep&& keep) {
  store::Page<T> out;
  if (!page.size || *page.size <= 0) {
    auto all = fetch(page);
    if (!all) return std::unexpected(all.error());
    for (auto& item : all->items) {
      if (keep(item)) out.items.push_back(std::move(item));
    }
    out.next_token = std::move(all->next_token);
    return out;
  }
  store::PageRequest next{page.token, *page.size};
  for (int fetches = 0; fetches < kMaxFilteredFetches; ++fetches) {
    next.size = *page.size - static_cast<int64_t>(out.items.size());
    auto got = fetch(next);
    if (!got) return std::unexpected(got.error());
    for (auto& item : got->items) {
      if (keep(item)) out.items.push_back(std::move(item));
    }
    out.next_token = std::move(got->next_token);
    if (!out.next_token || static_cast<int64_t>(out.items.size()) >= *page.size) break;
    next.token = out.next_token;
  }
  return out;
}

}  // namespace firn::catalog
