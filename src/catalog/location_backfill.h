// The location index for data that existed before it (docs/storage.md, "existing data"):
// BackfillLocationClaims walks every catalog, namespace, table and view of a database and
// records where each one is, without refusing anything; FindLocationOverlaps then lists every
// pair of claims that break the one-location-one-owner rule, for an operator to resolve.
// `firn serve` backfills once (a store setting remembers it) and logs the overlaps; `firn admin
// locations` prints them.
//
// Thread-safety: stateless; run it where nothing else writes (start-up, an admin command).
// Errors: the store's. A table or view whose metadata cannot be read is counted in
// `unreadable` and named in `problems`, not fatal.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "catalog/catalog_registry.h"
#include "common/result.h"
#include "io/object_store.h"
#include "store/store.h"

namespace firn::catalog {

inline constexpr std::string_view kLocationBackfillSetting = "location_claims_backfilled";

struct BackfillReport {
  size_t catalogs = 0;
  size_t namespaces = 0;
  size_t tables = 0;
  size_t views = 0;
  size_t unreadable = 0;
  std::vector<std::string> problems;  // one line per object whose claim could not be made
};

// `catalogs`: realm → catalog name → info, from the access records. Scopes with namespaces but
// no catalog record are walked too (their objects claimed without a catalog to check against).
Result<BackfillReport> BackfillLocationClaims(
    store::CatalogStore& store, io::ObjectStore& objects,
    const std::map<std::string, std::map<std::string, CatalogInfo>>& catalogs);

struct LocationOverlap {
  store::HeldLocation inner;  // the claim at or inside the other
  store::HeldLocation outer;
  store::LocationRelation relation = store::LocationRelation::kSame;  // of outer to inner
};

// Every conflicting pair among `claims` (store::LocationsConflict), each once.
std::vector<LocationOverlap> FindLocationOverlaps(const std::vector<store::HeldLocation>& claims);

}  // namespace firn::catalog
