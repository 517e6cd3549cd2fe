#include "store/location_claims.h"

#include "store/store_keys.h"

namespace firn::store {

std::string_view LocationOwnerKindName(LocationOwnerKind kind) {
  switch (kind) {
    case LocationOwnerKind::kTable: return "table";
    case LocationOwnerKind::kView: return "view";
    case LocationOwnerKind::kNamespace: return "namespace";
    case LocationOwnerKind::kCatalog: return "catalog";
  }
  return "table";
}

std::optional<LocationOwnerKind> ParseLocationOwnerKind(std::string_view name) {
  for (auto kind : {LocationOwnerKind::kTable, LocationOwnerKind::kView,
                    LocationOwnerKind::kNamespace, LocationOwnerKind::kCatalog}) {
    if (LocationOwnerKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

bool IsExclusiveOwner(LocationOwnerKind kind) {
  return kind == LocationOwnerKind::kTable || kind == LocationOwnerKind::kView;
}

std::string LocationOwnerLabel(const LocationOwner& owner) {
  std::string out(LocationOwnerKindName(owner.kind));
  if (owner.kind == LocationOwnerKind::kCatalog) {
    out += " " + owner.catalog;
  } else {
    const std::string ns = NamespaceDisplay(owner.ns);
    out += " " + (owner.name.empty() ? ns : (ns.empty() ? owner.name : ns + "." + owner.name));
    out += " in catalog " + owner.catalog;
  }
  return out + " of realm " + owner.realm;
}

bool LocationsConflict(const LocationOwner& claimant, const LocationClaim& claim,
                       const HeldLocation& held, LocationRelation relation) {
  const LocationOwner& other = held.owner;
  if (other == claimant) return false;
  const bool mine_exclusive = IsExclusiveOwner(claimant.kind);
  const bool other_exclusive = IsExclusiveOwner(other.kind);
  if (other.realm != claimant.realm) return true;
  if (other.catalog != claimant.catalog) {
    // A moved table or view still sits inside the containers of its host catalog.
    if (mine_exclusive && !other_exclusive && relation == LocationRelation::kContains &&
        !claim.host_catalog.empty() && claim.host_catalog == other.catalog) {
      return false;
    }
    if (!mine_exclusive && other_exclusive && relation == LocationRelation::kInside &&
        !held.host_catalog.empty() && held.host_catalog == claimant.catalog) {
      return false;
    }
    return true;
  }
  if (mine_exclusive && other_exclusive) return !claim.shared_within_catalog;
  if (other_exclusive) return relation != LocationRelation::kInside;   // it holds my container
  if (mine_exclusive) return relation != LocationRelation::kContains;  // I would hold a container
  return false;  // a catalog and its namespaces nest freely
}

std::vector<std::string> LocationAncestors(std::string_view location) {
  std::vector<std::string> out;
  const size_t scheme = location.find("://");
  if (scheme == std::string_view::npos) return out;
  const size_t root_slash = location.find('/', scheme + 3);
  if (root_slash == std::string_view::npos || root_slash + 1 >= location.size()) return out;
  out.emplace_back(location.substr(0, root_slash + 1));  // "scheme://authority/"
  for (size_t pos = location.find('/', root_slash + 1); pos != std::string_view::npos;
       pos = location.find('/', pos + 1)) {
    out.emplace_back(location.substr(0, pos));
  }
  return out;
}

std::pair<std::string, std::string> LocationDescendantRange(std::string_view location) {
  std::string low(location);
  if (low.empty() || low.back() != '/') low.push_back('/');
  std::string high = low;
  high.back() = static_cast<char>('/' + 1);  // '0': the first byte after '/'
  return {low, high};
}

}  // namespace firn::store
