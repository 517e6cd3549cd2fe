#include "store/sql/sql_location_ops.h"

#include <algorithm>
#include <array>
#include <map>
#include <string>

#include "common/macros.h"
#include "store/sql/sql_statements.h"
#include "store/store_keys.h"

namespace firn::store::sql {

std::string_view LocationsAtStatement(size_t n) {
  static const auto* statements = [] {
    auto* out = new std::array<std::string, kMaxLocationDepth + 2>();
    for (size_t i = 1; i < out->size(); ++i) {
      std::string text =
          "SELECT location, realm, catalog, owner_kind, ns_key, name, host_catalog "
          "FROM object_locations WHERE location IN (";
      for (size_t p = 1; p <= i; ++p) text += (p > 1 ? ", $" : "$") + std::to_string(p);
      (*out)[i] = text + ")";
    }
    return out;
  }();
  return (*statements)[std::clamp<size_t>(n, 1, statements->size() - 1)];
}

namespace {

Result<HeldLocation> RowToHeld(const Row& row) {
  auto kind = ParseLocationOwnerKind(row.Text(3));
  if (!kind) {
    return Fail(ErrorKind::kInternal, "Catalog database error",
                "unknown location owner kind " + std::string(row.Text(3)));
  }
  HeldLocation held;
  held.location = std::string(row.Text(0));
  held.owner.realm = std::string(row.Text(1));
  held.owner.catalog = std::string(row.Text(2));
  held.owner.kind = *kind;
  held.owner.ns = NamespaceFromKey(row.Text(4));
  held.owner.name = std::string(row.Text(5));
  held.host_catalog = std::string(row.Text(6));
  return held;
}

// A claimed location must look normalised: "scheme://…/" or "scheme://…/seg…", no trailing
// slash except at the root, no empty segment, not deeper than kMaxLocationDepth.
Status CheckClaimedLocation(std::string_view location) {
  const size_t scheme = location.find("://");
  const size_t root = scheme == std::string_view::npos ? scheme : location.find('/', scheme + 3);
  bool ok = scheme != std::string_view::npos && scheme > 0 && root != std::string_view::npos;
  if (ok && location.size() > root + 1) {
    ok = location.back() != '/' && location.find("//", root) == std::string_view::npos;
  }
  if (!ok) {
    return Fail(ErrorKind::kIllegalArgument,
                "Invalid location " + std::string(location) + ": not a normalised location");
  }
  if (static_cast<size_t>(std::count(location.begin() + root, location.end(), '/')) >
      kMaxLocationDepth) {
    return Fail(ErrorKind::kIllegalArgument,
                "Invalid location " + std::string(location) + ": more than " +
                    std::to_string(kMaxLocationDepth) + " path segments");
  }
  return Ok();
}

// The claimed location and its ancestors, as one IN (…) lookup.
Result<std::vector<HeldLocation>> AtOrAbove(Session& session, std::string_view location) {
  std::vector<std::string> keys = LocationAncestors(location);
  keys.emplace_back(location);
  std::vector<Value> params(keys.begin(), keys.end());
  std::vector<HeldLocation> out;
  FIRN_RETURN_IF_ERROR(session.Query(LocationsAtStatement(params.size()), params,
                                     [&](const Row& row) -> Status {
                                       FIRN_ASSIGN_OR_RETURN(HeldLocation h, RowToHeld(row));
                                       out.push_back(std::move(h));
                                       return Ok();
                                     }));
  return out;
}

// FNV-1a, folded to the int4 range of pg_advisory_xact_lock(int4, int4). Collisions only make
// two unrelated claims wait for each other.
int32_t LockKey(std::string_view location) {
  uint32_t h = 2166136261u;
  for (unsigned char c : location) h = (h ^ c) * 16777619u;
  return static_cast<int32_t>(h);
}

Status LockClaim(Session& session, const LocationClaim& claim) {
  if (!session.HasRowLocks()) return Ok();  // one writer at a time
  std::map<int32_t, bool> keys;  // key → exclusive; sorted, so every writer locks in one order
  for (const std::string& location : claim.locations) {
    keys[LockKey(location)] = true;
    for (const std::string& a : LocationAncestors(location)) keys.try_emplace(LockKey(a), false);
  }
  for (const auto& [key, exclusive] : keys) {
    FIRN_RETURN_IF_ERROR(session.Query(exclusive ? kLockLocation : kLockLocationShared,
                                       {static_cast<int64_t>(key)},
                                       [](const Row&) -> Status { return Ok(); }));
  }
  return Ok();
}

Error ConflictError(const LocationConflict& c) {
  return Error(ErrorKind::kLocationConflict,
               "Location " + c.claimed + " overlaps a location owned by another table, view, "
               "namespace or catalog",
               LocationOwnerLabel(c.held.owner) + " holds " + c.held.location);
}

}  // namespace

Result<std::optional<LocationConflict>> FindConflict(Session& session, const LocationOwner& owner,
                                                     const LocationClaim& claim) {
  const bool exclusive = IsExclusiveOwner(owner.kind) && !claim.shared_within_catalog;
  const std::string ns_key = NamespaceKey(owner.ns);
  for (const std::string& location : claim.locations) {
    FIRN_RETURN_IF_ERROR(CheckClaimedLocation(location));
    FIRN_ASSIGN_OR_RETURN(auto above, AtOrAbove(session, location));
    for (HeldLocation& held : above) {
      const auto relation =
          held.location == location ? LocationRelation::kSame : LocationRelation::kContains;
      if (LocationsConflict(owner, claim, held, relation)) {
        return std::optional<LocationConflict>(
            LocationConflict{std::move(held), location, relation});
      }
    }
    const auto [low, high] = LocationDescendantRange(location);
    std::optional<HeldLocation> inside;
    auto take = [&](const Row& row) -> Status {
      FIRN_ASSIGN_OR_RETURN(HeldLocation h, RowToHeld(row));
      inside = std::move(h);
      return Ok();
    };
    if (exclusive) {
      FIRN_RETURN_IF_ERROR(session.Query(kLocationInsideOtherOwner,
                                         {low, high, owner.realm, owner.catalog,
                                          LocationOwnerKindName(owner.kind), ns_key, owner.name},
                                         take));
    } else {
      FIRN_RETURN_IF_ERROR(session.Query(kLocationInsideOtherCatalog,
                                         {low, high, owner.realm, owner.catalog}, take));
    }
    if (inside && LocationsConflict(owner, claim, *inside, LocationRelation::kInside)) {
      return std::optional<LocationConflict>(
          LocationConflict{std::move(*inside), location, LocationRelation::kInside});
    }
  }
  return std::optional<LocationConflict>();
}

Status ClaimLocations(Session& session, const LocationOwner& owner, const LocationClaim& claim,
                      bool check) {
  for (const std::string& location : claim.locations) {
    FIRN_RETURN_IF_ERROR(CheckClaimedLocation(location));
  }
  FIRN_RETURN_IF_ERROR(LockClaim(session, claim));
  if (check) {
    FIRN_ASSIGN_OR_RETURN(auto conflict, FindConflict(session, owner, claim));
    if (conflict) return Fail(ConflictError(*conflict));
  }
  FIRN_RETURN_IF_ERROR(ReleaseLocations(session, owner));
  const std::string ns_key = NamespaceKey(owner.ns);
  for (const std::string& location : claim.locations) {
    FIRN_RETURN_IF_ERROR(session.Run(kInsertLocation,
                                     {location, owner.realm, owner.catalog,
                                      LocationOwnerKindName(owner.kind), ns_key, owner.name,
                                      claim.host_catalog}));
  }
  return Ok();
}

Status ReleaseLocations(Session& session, const LocationOwner& owner) {
  return session.Run(kDeleteOwnerLocations, {owner.realm, owner.catalog,
                                             LocationOwnerKindName(owner.kind),
                                             NamespaceKey(owner.ns), owner.name});
}

Status RenameLocationOwner(Session& session, const LocationOwner& from, const LocationOwner& to) {
  return session.Run(kRenameOwnerLocations,
                     {from.realm, from.catalog, LocationOwnerKindName(from.kind),
                      NamespaceKey(from.ns), from.name, NamespaceKey(to.ns), to.name});
}

Result<LocationClaim> OwnerClaim(Session& session, const LocationOwner& owner) {
  LocationClaim claim;
  FIRN_RETURN_IF_ERROR(session.Query(
      kOwnerLocations,
      {owner.realm, owner.catalog, LocationOwnerKindName(owner.kind), NamespaceKey(owner.ns),
       owner.name},
      [&](const Row& row) -> Status {
        claim.locations.emplace_back(row.Text(0));
        if (!row.Text(1).empty()) claim.host_catalog = std::string(row.Text(1));
        return Ok();
      }));
  return claim;
}

Result<std::optional<HeldLocation>> HostedBy(Session& session, const std::string& realm,
                                             const std::string& catalog) {
  std::optional<HeldLocation> hosted;
  FIRN_RETURN_IF_ERROR(session.Query(kHostedBy, {realm, catalog}, [&](const Row& row) -> Status {
    FIRN_ASSIGN_OR_RETURN(HeldLocation h, RowToHeld(row));
    hosted = std::move(h);
    return Ok();
  }));
  return hosted;
}

Result<std::vector<HeldLocation>> HoldersOf(Session& session, std::string_view location) {
  FIRN_RETURN_IF_ERROR(CheckClaimedLocation(location));
  return AtOrAbove(session, location);
}

Result<std::vector<HeldLocation>> ListClaims(Session& session) {
  std::vector<HeldLocation> out;
  FIRN_RETURN_IF_ERROR(session.Query(kListLocations, {}, [&](const Row& row) -> Status {
    FIRN_ASSIGN_OR_RETURN(HeldLocation h, RowToHeld(row));
    out.push_back(std::move(h));
    return Ok();
  }));
  return out;
}

}  // namespace firn::store::sql
