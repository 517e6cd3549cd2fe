// Ownership claims on the object store (docs/ownership-claims.md): a small JSON object beside
// each table, `<table location>/.firn-claim.json`, naming the Firn deployment that owns the
// table. It is how two catalogs that share no database learn of each other: a register or a
// create that meets another deployment's claim is refused, whatever the other catalog's own
// index says.
//
// The object is written create-only (O_EXCL on file://, If-None-Match: * on S3), so of two
// catalogs claiming one table at once exactly one wins. The leading dot keeps it out of
// Iceberg's orphan-file removal (hidden paths are never listed for deletion).
//
// Thread-safety: pure functions. Errors: DecodeStoreClaim returns kBadRequest for a document
// that is not a claim of a known format version.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "io/object_store.h"
#include "metadata/table_metadata.h"
#include "store/store.h"

namespace firn::catalog {

// The store setting that holds the deployment's id (CatalogStore::EnsureSetting at start).
inline constexpr std::string_view kDeploymentIdSetting = "deployment_id";
inline constexpr std::string_view kClaimFileName = ".firn-claim.json";
inline constexpr std::string_view kClaimFormat = "firn-table-claim";
inline constexpr int kClaimFormatVersion = 1;
// A claim is a few hundred bytes; anything larger is not one.
inline constexpr size_t kMaxClaimBytes = 64 * 1024;

// What a claim says. `state` is "active", or "moving" while a move to `moving_to` (another
// catalog, in words) is under way (commits refused, loads served).
struct StoreClaim {
  std::string deployment;
  std::string realm;
  std::string catalog;
  store::Namespace ns;
  std::string name;
  std::string table_uuid;
  int64_t claimed_ms = 0;
  std::string state = "active";
  std::string moving_to;
  std::string location;  // the table location the claim sits in
};

// Same owner, table and claim time: the very claim one create wrote.
bool SameClaim(const StoreClaim& a, const StoreClaim& b);

// `<location>/.firn-claim.json` (one slash, whatever `location` ends with).
std::string StoreClaimUri(std::string_view table_location);
// `<location>/.firn-claim.takeover-<claimed_ms>`: the object whose create-only write decides
// which of several catalogs takes over the moving claim `moving` (one per move: a move-out
// stamps its claim anew).
std::string StoreClaimTakeoverUri(std::string_view table_location, const StoreClaim& moving);
std::string EncodeStoreClaim(const StoreClaim& claim);
Result<StoreClaim> DecodeStoreClaim(std::string_view text);

// Deletes the claim beside `table` when it is `deployment`'s claim of this very table (same
// UUID); anything else (no claim, another owner's, unreadable) stays. Whether it deleted.
bool DeleteOwnStoreClaim(io::ObjectStore& objects, std::string_view deployment,
                         const metadata::TableMetadata& table);

// "deployment <id> (realm r, catalog c, table ns.t)": how a refusal names a claim's owner.
std::string DescribeClaimOwner(const StoreClaim& claim);

}  // namespace firn::catalog
