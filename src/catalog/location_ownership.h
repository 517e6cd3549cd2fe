// Location ownership, as the catalog service applies it (the store keeps the index and the
// atomic check; store/location_claims.h states the rule):
//   - which locations a table or view claims (its location, write.data.path and
//     write.metadata.path, normalised, each allowed for its catalog);
//   - a refusal that names the other owner only when the caller may see it (409
//     kLocationConflict), and otherwise says only that the location is taken (403 kForbidden);
//   - whether a file may be deleted on an object's behalf (purge, old metadata files): only
//     when no other table or view, and no other catalog, owns it or a folder above it.
//
// Thread-safety: stateless functions; the store is shared. Errors: kForbidden (a location the
// catalog does not allow, or taken by an object the caller cannot see), kLocationConflict,
// kIllegalArgument (a location that cannot be normalised), and the store's errors.
#pragma once

#include <string>
#include <string_view>

#include "catalog/catalog_registry.h"
#include "catalog/request_context.h"
#include "common/result.h"
#include "metadata/table_metadata.h"
#include "metadata/view_metadata.h"
#include "store/store.h"

namespace firn::catalog {

// A catalog property: "true" lets the catalog's own tables and views share locations. Unsafe
// (purge and maintenance of one may then delete the other's files); off by default; only a
// service admin may set it (docs/storage.md).
inline constexpr std::string_view kSharedLocationsProperty = "firn.unsafe-shared-table-locations";

store::LocationOwner OwnerOf(const RequestContext& ctx, const store::Identifier& id,
                             store::ObjectKind kind);

// The locations `meta` makes its table own, each checked against the catalog's allowed
// locations. Paths inside another claimed path are covered by it and dropped.
// `check_allowed` = false only for the backfill of data from before the index, which records
// where existing objects are (and reports what breaks the rules) instead of refusing.
Result<store::LocationClaim> TableLocationClaim(const CatalogInfo& catalog,
                                                const metadata::TableMetadata& meta,
                                                bool check_allowed = true);
Result<store::LocationClaim> ViewLocationClaim(const CatalogInfo& catalog,
                                               const metadata::ViewMetadata& meta,
                                               bool check_allowed = true);
// Whether `next` claims other locations than `base` (a move, or a new data/metadata path).
bool ClaimChanges(const metadata::TableMetadata& base, const metadata::TableMetadata& next);
bool ClaimChanges(const metadata::ViewMetadata& base, const metadata::ViewMetadata& next);

// A catalog's claim: its base and allowed locations, normalised, outermost only (no checks).
Result<store::LocationClaim> CatalogLocationClaim(const CatalogInfo& catalog);

// CatalogLocationClaim, checked: its base and allowed locations (normalised, outermost only), each inside
// the operator's storage roots (kForbidden otherwise; empty roots = unrestricted), and free of
// every other catalog's (kLocationConflict naming the other catalog when it is in `realm`,
// else only "a catalog of another realm"). The store re-checks atomically with the write.
Result<store::LocationClaim> CheckedCatalogClaim(store::CatalogStore& store,
                                                 const std::string& realm,
                                                 const CatalogInfo& catalog,
                                                 const std::vector<std::string>& storage_roots);

// Refuses (before any write) a claim another owner's location overlaps, and a table or view
// location that is the default location of one of the catalog's namespaces or contains one.
// The store re-checks atomically when the claim is written; this pass gives the refusal its
// words.
Status CheckLocationClaim(const RequestContext& ctx, store::CatalogStore& store,
                          const CatalogInfo& catalog, const store::LocationOwner& owner,
                          const store::LocationClaim& claim);

// Whether `file` may be deleted on behalf of `owner` (who may already be dropped): true only
// when no other table or view, and no other catalog, claims it or a folder above it. False
// (and logged) when the file cannot be normalised or the index cannot be read.
bool DeletableFor(store::CatalogStore& store, const store::LocationOwner& owner,
                  std::string_view file);

}  // namespace firn::catalog
