// Location claims (store/location_claims.h) as statements on a Session, for the shared SQL store.
// Every function runs inside the caller's Runner call; ClaimLocations must run inside a write
// transaction (it locks, checks and writes).
//
// Thread-safety: as the Session. Errors: kLocationConflict (a claim overlaps another owner's),
// kIllegalArgument (a location that is not normalised or is deeper than kMaxLocationDepth),
// and the backend's database errors.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "store/location_claims.h"
#include "store/sql/sql_session.h"

namespace firn::store::sql {

// The first conflict `claim` meets (no locks, no writes).
Result<std::optional<LocationConflict>> FindConflict(Session& session, const LocationOwner& owner,
                                                     const LocationClaim& claim);
// Locks (PostgreSQL), checks (unless !check) and replaces the owner's claims.
Status ClaimLocations(Session& session, const LocationOwner& owner, const LocationClaim& claim,
                      bool check = true);
Status ReleaseLocations(Session& session, const LocationOwner& owner);
// Moves an owner's claims to a new name (rename keeps the locations).
Status RenameLocationOwner(Session& session, const LocationOwner& from, const LocationOwner& to);
// What `owner` holds now (its locations, and the host catalog they keep, if any).
Result<LocationClaim> OwnerClaim(Session& session, const LocationOwner& owner);
// One object of another catalog whose files lie in `catalog`'s locations (it hosts them), if any.
Result<std::optional<HeldLocation>> HostedBy(Session& session, const std::string& realm,
                                             const std::string& catalog);
// Claims at `location` or at an ancestor of it.
Result<std::vector<HeldLocation>> HoldersOf(Session& session, std::string_view location);
Result<std::vector<HeldLocation>> ListClaims(Session& session);

}  // namespace firn::store::sql
