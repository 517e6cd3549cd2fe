// Location claims: which table, view, namespace or catalog owns which storage location, for the
// whole deployment (every realm and catalog of one database). The store keeps the claims in an
// index and refuses, atomically with the write that makes it, a claim that overlaps another
// owner's (docs/storage.md, "one location, one owner"):
//   - tables and views own their locations exclusively: no other table or view may hold the same
//     location, one inside it or one containing it;
//   - namespaces (an explicit `location` property) and catalogs (base and allowed locations) are
//     containers: their own catalog's tables and views sit inside them, but no table or view may
//     equal or contain them;
//   - nothing of one catalog may overlap anything of another catalog, in any direction, except
//     that a table or view moved to another catalog (CatalogStore::MoveObject) still sits inside
//     the containers of the catalog whose locations hold its files, its host.
// Locations are compared as the normalised strings the caller passes (catalog/location_policy.h:
// "scheme://authority/seg/seg", a root as "scheme://authority/"), on path-segment boundaries.
//
// Thread-safety: pure values and functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace firn::store {

using Namespace = std::vector<std::string>;  // as in store.h: levels, outermost first

enum class LocationOwnerKind { kTable, kView, kNamespace, kCatalog };
std::string_view LocationOwnerKindName(LocationOwnerKind kind);  // "table", "view", …
std::optional<LocationOwnerKind> ParseLocationOwnerKind(std::string_view name);
// Tables and views own exclusively; namespaces and catalogs contain.
bool IsExclusiveOwner(LocationOwnerKind kind);

struct LocationOwner {
  std::string realm;
  std::string catalog;
  LocationOwnerKind kind = LocationOwnerKind::kTable;
  Namespace ns;      // tables, views, namespaces
  std::string name;  // tables and views
  friend bool operator==(const LocationOwner&, const LocationOwner&) = default;
};
// "table a.b.t in catalog c of realm r", for logs and admin reports (never for a caller who may
// not see the owner).
std::string LocationOwnerLabel(const LocationOwner& owner);

// The complete set of locations an owner holds; a write carrying a claim replaces what the
// owner held before (an empty set releases everything).
struct LocationClaim {
  std::vector<std::string> locations;
  // The catalog opted out of the rule among its own tables and views (unsafe; off by default).
  // Overlaps with other catalogs' objects are refused regardless.
  bool shared_within_catalog = false;
  // A table or view whose files lie in another catalog's locations (it was moved here): that
  // catalog. "" = its own catalog.
  std::string host_catalog;
};

struct HeldLocation {
  std::string location;
  LocationOwner owner;
  std::string host_catalog;  // as LocationClaim::host_catalog
};

enum class LocationRelation {
  kSame,      // the held location is the claimed one
  kContains,  // the held location contains the claimed one
  kInside,    // the held location sits inside the claimed one
};

struct LocationConflict {
  HeldLocation held;
  std::string claimed;
  LocationRelation relation = LocationRelation::kSame;
};

// Whether `claimant` (claiming with `claim`'s options) may hold a location that stands in
// `relation` to `held`. The rule of this header, in one place.
bool LocationsConflict(const LocationOwner& claimant, const LocationClaim& claim,
                       const HeldLocation& held, LocationRelation relation);

// The proper ancestors of a normalised location, outermost first: "s3://b/x/y" →
// {"s3://b/", "s3://b/x"}. Empty for a root or a string without "://".
std::vector<std::string> LocationAncestors(std::string_view location);
// [low, high) of the locations strictly inside `location`, in byte order.
std::pair<std::string, std::string> LocationDescendantRange(std::string_view location);
// The most path segments a claimed location may have (deeper ones are refused).
inline constexpr size_t kMaxLocationDepth = 64;

}  // namespace firn::store
