#include "catalog/location_ownership.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "catalog/authorization.h"
#include "catalog/identifiers.h"
#include "catalog/location_policy.h"
#include "common/log.h"
#include "common/macros.h"
#include "metadata/metadata_paths.h"
#include "store/store_errors.h"
#include "store/store_keys.h"

namespace firn::catalog {
namespace {

constexpr std::string_view kWriteDataPath = "write.data.path";

std::string_view Property(const std::map<std::string, std::string>& props,
                          std::string_view key) {
  auto it = props.find(std::string(key));
  return it == props.end() ? std::string_view() : std::string_view(it->second);
}

bool Shared(const CatalogInfo& catalog) {
  auto it = catalog.properties.find(std::string(kSharedLocationsProperty));
  return it != catalog.properties.end() && it->second == "true";
}

// Normalises and checks each location, then keeps only the outermost ones.
Result<store::LocationClaim> ClaimOf(const CatalogInfo& catalog,
                                     std::initializer_list<std::string_view> locations,
                                     bool check_allowed) {
  std::vector<std::string> normalised;
  for (std::string_view location : locations) {
    if (location.empty()) continue;
    if (check_allowed) FIRN_RETURN_IF_ERROR(CheckLocationAllowed(catalog, location));
    FIRN_ASSIGN_OR_RETURN(std::string n, NormalizeLocation(location));
    normalised.push_back(std::move(n));
  }
  std::sort(normalised.begin(), normalised.end());
  store::LocationClaim claim;
  claim.shared_within_catalog = Shared(catalog);
  for (std::string& n : normalised) {
    const bool covered = std::any_of(claim.locations.begin(), claim.locations.end(),
                                     [&](const std::string& kept) { return IsUnder(n, kept); });
    if (!covered) claim.locations.push_back(std::move(n));
  }
  return claim;
}

std::string ObjectWords(const store::LocationOwner& owner) {
  if (store::IsDroppedOwner(owner)) {
    return std::string("a dropped ") +
           (owner.kind == store::LocationOwnerKind::kView ? "view" : "table") +
           " kept for its catalog's retention (dropped object " + owner.name +
           "; undrop it, or expunge it: DELETE /api/management/v1/catalogs/" + owner.catalog +
           "/dropped-objects/" + owner.name + ")";
  }
  switch (owner.kind) {
    case store::LocationOwnerKind::kTable:
      return "table " + FormatIdentifier({owner.ns, owner.name});
    case store::LocationOwnerKind::kView:
      return "view " + FormatIdentifier({owner.ns, owner.name});
    case store::LocationOwnerKind::kNamespace:
      return "namespace " + store::NamespaceDisplay(owner.ns);
    case store::LocationOwnerKind::kCatalog:
      return "catalog " + owner.catalog;
  }
  return "object";
}

// Whether the caller may learn that `owner` exists.
bool CallerSees(const RequestContext& ctx, const store::LocationOwner& owner) {
  if (owner.realm != ctx.scope.realm || owner.catalog != ctx.scope.catalog) return false;
  // Dropped objects: seen by whoever may list them.
  if (store::IsDroppedOwner(owner)) {
    return AuthorizeNamespaceOp(ctx, auth::Operation::kListDroppedObjects, {}).has_value();
  }
  switch (owner.kind) {
    case store::LocationOwnerKind::kTable:
      return Visible(ctx, ObjectResource(ctx, {owner.ns, owner.name}, store::ObjectKind::kTable));
    case store::LocationOwnerKind::kView:
      return Visible(ctx, ObjectResource(ctx, {owner.ns, owner.name}, store::ObjectKind::kView));
    case store::LocationOwnerKind::kNamespace:
      return Visible(ctx, NamespaceResource(ctx, owner.ns));
    case store::LocationOwnerKind::kCatalog:
      return true;  // the caller's own catalog
  }
  return false;
}

std::optional<store::ObjectKind> ObjectKindOf(store::LocationOwnerKind kind) {
  switch (kind) {
    case store::LocationOwnerKind::kTable: return store::ObjectKind::kTable;
    case store::LocationOwnerKind::kView: return store::ObjectKind::kView;
    default: return std::nullopt;
  }
}

Error Refusal(const RequestContext& ctx, const store::LocationOwner& claimant,
              const store::LocationConflict& c) {
  spdlog::info(R"("msg":"location refused","request_id":"{}","claimed":"{}","holder":"{}")",
               log::Escape(ctx.request_id), log::Escape(c.claimed),
               log::Escape(store::LocationOwnerLabel(c.held.owner)));
  // A table and a view of the same name (their default locations are the same): the name is
  // what is taken, and the caller is told so as the store would tell it.
  const store::LocationOwner& held = c.held.owner;
  const auto held_kind = ObjectKindOf(held.kind);
  const auto claimant_kind = ObjectKindOf(claimant.kind);
  if (held_kind && claimant_kind && held.realm == claimant.realm &&
      held.catalog == claimant.catalog && held.ns == claimant.ns && held.name == claimant.name) {
    return store::ObjectExistsError(store::Identifier{held.ns, held.name}, *claimant_kind, *held_kind);
  }
  if (!CallerSees(ctx, c.held.owner)) {
    return Error(ErrorKind::kForbidden,
                 "Location " + c.claimed + " is not available: it overlaps a location owned by "
                 "another table, view, namespace or catalog");
  }
  const std::string who = ObjectWords(c.held.owner);
  std::string how;
  switch (c.relation) {
    case store::LocationRelation::kSame: how = "is the location of " + who; break;
    case store::LocationRelation::kContains:
      how = "is inside " + c.held.location + ", the location of " + who;
      break;
    case store::LocationRelation::kInside:
      how = "contains " + c.held.location + ", the location of " + who;
      break;
  }
  return Error(ErrorKind::kLocationConflict,
               "Location " + c.claimed + " " + how + "; one location has one owner");
}

// A claimed location inside the catalog's base that is (or contains) the default location of
// an existing namespace (`<base>/<level>/…`): claiming it would take that namespace's tables'
// default locations.
Status CheckNamespaceDefaults(const RequestContext& ctx, store::CatalogStore& store,
                              const CatalogInfo& catalog, const std::string& location) {
  auto base = NormalizeLocation(catalog.base_location);
  if (!base || !IsUnder(location, *base) || location == *base) return Ok();
  std::string_view rel(location);
  rel.remove_prefix(base->size() + (base->back() == '/' ? 0 : 1));
  store::Namespace levels;
  for (size_t pos = 0; pos <= rel.size();) {
    size_t next = rel.find('/', pos);
    if (next == std::string_view::npos) next = rel.size();
    levels.emplace_back(rel.substr(pos, next - pos));
    pos = next + 1;
  }
  auto props = store.LoadNamespace(ctx.scope, levels);
  if (!props) {
    if (props.error().kind == ErrorKind::kNoSuchNamespace) return Ok();
    return Fail(props.error());
  }
  const store::LocationOwner ns_owner{ctx.scope.realm, ctx.scope.catalog,
                                      store::LocationOwnerKind::kNamespace, levels, ""};
  store::LocationConflict c{{location, ns_owner}, location, store::LocationRelation::kSame};
  Error e = Refusal(ctx, ns_owner, c);
  if (e.kind == ErrorKind::kLocationConflict) {
    e.message = "Location " + location + " is the default location of namespace " +
                store::NamespaceDisplay(levels) + "; one location has one owner";
  }
  return Fail(std::move(e));
}

}  // namespace

store::LocationOwner OwnerOf(const RequestContext& ctx, const store::Identifier& id,
                             store::ObjectKind kind) {
  return {ctx.scope.realm, ctx.scope.catalog,
          kind == store::ObjectKind::kTable ? store::LocationOwnerKind::kTable
                                            : store::LocationOwnerKind::kView,
          id.ns, id.name};
}

Result<store::LocationClaim> TableLocationClaim(const CatalogInfo& catalog,
                                                const metadata::TableMetadata& meta,
                                                bool check_allowed) {
  return ClaimOf(catalog,
                 {meta.location, Property(meta.properties, kWriteDataPath),
                  Property(meta.properties, metadata::kWriteMetadataPathProperty)},
                 check_allowed);
}

Result<store::LocationClaim> ViewLocationClaim(const CatalogInfo& catalog,
                                               const metadata::ViewMetadata& meta,
                                               bool check_allowed) {
  return ClaimOf(catalog,
                 {meta.location, Property(meta.properties, metadata::kWriteMetadataPathProperty)},
                 check_allowed);
}

Result<store::LocationClaim> CatalogLocationClaim(const CatalogInfo& catalog) {
  std::vector<std::string> normalised;
  std::vector<std::string> given = catalog.allowed_locations;
  if (!catalog.base_location.empty()) given.push_back(catalog.base_location);
  for (const std::string& location : given) {
    FIRN_ASSIGN_OR_RETURN(std::string n, NormalizeLocation(location));
    normalised.push_back(std::move(n));
  }
  std::sort(normalised.begin(), normalised.end());
  store::LocationClaim claim;
  for (std::string& n : normalised) {
    const bool covered = std::any_of(claim.locations.begin(), claim.locations.end(),
                                     [&](const std::string& kept) { return IsUnder(n, kept); });
    if (!covered) claim.locations.push_back(std::move(n));
  }
  return claim;
}

Result<store::LocationClaim> CheckedCatalogClaim(store::CatalogStore& store,
                                                 const std::string& realm,
                                                 const CatalogInfo& catalog,
                                                 const std::vector<std::string>& storage_roots) {
  std::vector<std::string> given = catalog.allowed_locations;
  if (!catalog.base_location.empty()) given.push_back(catalog.base_location);
  for (const std::string& location : given) {
    FIRN_RETURN_IF_ERROR(CheckInsideStorageRoots(storage_roots, location));
  }
  FIRN_ASSIGN_OR_RETURN(store::LocationClaim claim, CatalogLocationClaim(catalog));
  const store::LocationOwner owner{realm, catalog.name, store::LocationOwnerKind::kCatalog, {},
                                   ""};
  FIRN_ASSIGN_OR_RETURN(auto conflict, store.FindLocationConflict(owner, claim));
  if (conflict) {
    const store::LocationOwner& other = conflict->held.owner;
    std::string who = other.realm == realm ? ObjectWords(other) : "a catalog of another realm";
    if (other.realm == realm && other.kind != store::LocationOwnerKind::kCatalog) {
      who += " of catalog " + other.catalog;
    }
    return Fail(ErrorKind::kLocationConflict,
                "Location " + conflict->claimed + " of catalog " + catalog.name + " overlaps " +
                    conflict->held.location + ", owned by " + who +
                    "; catalogs may not share, contain or sit inside each other's locations");
  }
  return claim;
}

bool ClaimChanges(const metadata::TableMetadata& base, const metadata::TableMetadata& next) {
  return base.location != next.location ||
         Property(base.properties, kWriteDataPath) != Property(next.properties, kWriteDataPath) ||
         Property(base.properties, metadata::kWriteMetadataPathProperty) !=
             Property(next.properties, metadata::kWriteMetadataPathProperty);
}

bool ClaimChanges(const metadata::ViewMetadata& base, const metadata::ViewMetadata& next) {
  return base.location != next.location ||
         Property(base.properties, metadata::kWriteMetadataPathProperty) !=
             Property(next.properties, metadata::kWriteMetadataPathProperty);
}

Status CheckLocationClaim(const RequestContext& ctx, store::CatalogStore& store,
                          const CatalogInfo& catalog, const store::LocationOwner& owner,
                          const store::LocationClaim& claim) {
  FIRN_ASSIGN_OR_RETURN(auto conflict, store.FindLocationConflict(owner, claim));
  if (conflict) return Fail(Refusal(ctx, owner, *conflict));
  for (const std::string& location : claim.locations) {
    FIRN_RETURN_IF_ERROR(CheckNamespaceDefaults(ctx, store, catalog, location));
  }
  return Ok();
}

bool DeletableFor(store::CatalogStore& store, const store::LocationOwner& owner,
                  std::string_view file) {
  auto normalised = NormalizeLocation(file);
  if (!normalised) return false;
  auto holders = store.LocationHolders(*normalised);
  if (!holders) {
    spdlog::warn(R"("msg":"cannot read location claims; file kept","file":"{}","error":"{}")",
                 log::Escape(file), log::Escape(holders.error().message));
    return false;
  }
  // A moved object's files lie in its host catalog's containers (store.h, MoveObject).
  std::string host;
  for (const store::HeldLocation& held : *holders) {
    if (held.owner == owner && !held.host_catalog.empty()) host = held.host_catalog;
  }
  for (const store::HeldLocation& held : *holders) {
    if (held.owner == owner) continue;
    const bool exclusive = store::IsExclusiveOwner(held.owner.kind);
    if (!exclusive && !host.empty() && held.owner.realm == owner.realm &&
        held.owner.catalog == host) {
      continue;
    }
    const bool other_catalog =
        held.owner.realm != owner.realm || held.owner.catalog != owner.catalog;
    if (other_catalog || exclusive) return false;
  }
  return true;
}

}  // namespace firn::catalog
