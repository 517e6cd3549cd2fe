#include "catalog/location_backfill.h"

#include <spdlog/spdlog.h>

#include <set>
#include <unordered_map>

#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "catalog/metadata_files.h"
#include "catalog/store_walk.h"
#include "common/log.h"
#include "common/macros.h"
#include "store/store_errors.h"
#include "store/store_keys.h"

namespace firn::catalog {
namespace {

struct Walk {
  store::CatalogStore& store;
  io::ObjectStore& objects;
  BackfillReport& report;
};

void Problem(Walk& w, std::string line) {
  spdlog::warn(R"("msg":"location backfill","problem":"{}")", log::Escape(line));
  w.report.problems.push_back(std::move(line));
}

Status ClaimObject(Walk& w, const store::CatalogScope& scope, const CatalogInfo& catalog,
                   const store::Identifier& id, store::ObjectKind kind) {
  auto ptr = w.store.LoadPointer(scope, id, kind);
  if (!ptr) return ptr.error().kind == ErrorKind::kNoSuchTable ||
                           ptr.error().kind == ErrorKind::kNoSuchView
                       ? Ok()
                       : Status(Fail(ptr.error()));
  const std::string label = std::string(store::ObjectKindName(kind)) + " " +
                            store::IdentifierDisplay(id) + " in " + scope.realm + "/" +
                            scope.catalog;
  Result<store::LocationClaim> claim = Fail(ErrorKind::kInternal, "");
  if (kind == store::ObjectKind::kTable) {
    auto meta = ReadTableMetadataFile(w.objects, ptr->metadata_location, std::nullopt);
    if (meta) claim = TableLocationClaim(catalog, *meta, /*check_allowed=*/false);
    else claim = Fail(meta.error());
    ++w.report.tables;
  } else {
    auto meta = ReadViewMetadataFile(w.objects, ptr->metadata_location, std::nullopt);
    if (meta) claim = ViewLocationClaim(catalog, *meta, /*check_allowed=*/false);
    else claim = Fail(meta.error());
    ++w.report.views;
  }
  if (!claim) {
    ++w.report.unreadable;
    Problem(w, label + ": " + claim.error().message);
    return Ok();
  }
  const store::LocationOwner owner{
      scope.realm, scope.catalog,
      kind == store::ObjectKind::kTable ? store::LocationOwnerKind::kTable
                                        : store::LocationOwnerKind::kView,
      id.ns, id.name};
  if (auto st = w.store.SetLocationClaim(owner, *claim, /*check=*/false); !st) {
    Problem(w, label + ": " + st.error().message);
  }
  return Ok();
}

Status WalkNamespace(Walk& w, const store::CatalogScope& scope, const CatalogInfo& catalog,
                     const store::Namespace& ns) {
  if (!ns.empty()) {
    ++w.report.namespaces;
    FIRN_ASSIGN_OR_RETURN(store::Properties props, w.store.LoadNamespace(scope, ns));
    if (auto it = props.find("location"); it != props.end() && !it->second.empty()) {
      auto location = NormalizeLocation(it->second);
      if (!location) {
        Problem(w, "namespace " + store::NamespaceDisplay(ns) + " in " + scope.realm + "/" +
                       scope.catalog + ": " + location.error().message);
      } else {
        store::LocationClaim claim;
        claim.locations.push_back(*location);
        FIRN_RETURN_IF_ERROR(w.store.SetLocationClaim(
            {scope.realm, scope.catalog, store::LocationOwnerKind::kNamespace, ns, ""}, claim,
            /*check=*/false));
      }
    }
    for (auto kind : {store::ObjectKind::kTable, store::ObjectKind::kView}) {
      FIRN_RETURN_IF_ERROR(EachPage<std::string>(
          [&](const store::PageRequest& p) { return w.store.ListObjects(scope, ns, kind, p); },
          [&](const std::string& name) {
            return ClaimObject(w, scope, catalog, {ns, name}, kind);
          }));
    }
  }
  return EachPage<store::Namespace>(
      [&](const store::PageRequest& p) { return w.store.ListNamespaces(scope, ns, p); },
      [&](const store::Namespace& child) { return WalkNamespace(w, scope, catalog, child); });
}

}  // namespace

Result<BackfillReport> BackfillLocationClaims(
    store::CatalogStore& store, io::ObjectStore& objects,
    const std::map<std::string, std::map<std::string, CatalogInfo>>& catalogs) {
  BackfillReport report;
  Walk w{store, objects, report};
  for (const auto& [realm, by_name] : catalogs) {
    for (const auto& [name, info] : by_name) {
      ++report.catalogs;
      auto claim = CatalogLocationClaim(info);
      if (!claim) {
        Problem(w, "catalog " + name + " in realm " + realm + ": " + claim.error().message);
        continue;
      }
      FIRN_RETURN_IF_ERROR(store.SetLocationClaim(
          {realm, name, store::LocationOwnerKind::kCatalog, {}, ""}, *claim, /*check=*/false));
    }
  }
  FIRN_ASSIGN_OR_RETURN(auto scopes, store.ListCatalogScopes());
  for (const store::CatalogScope& scope : scopes) {
    CatalogInfo info;
    info.name = scope.catalog;
    if (auto r = catalogs.find(scope.realm); r != catalogs.end()) {
      if (auto c = r->second.find(scope.catalog); c != r->second.end()) info = c->second;
    }
    FIRN_RETURN_IF_ERROR(WalkNamespace(w, scope, info, {}));
  }
  FIRN_RETURN_IF_ERROR(store.RefreshLocationStatistics());
  return report;
}

std::vector<LocationOverlap> FindLocationOverlaps(const std::vector<store::HeldLocation>& claims) {
  std::unordered_map<std::string, std::vector<const store::HeldLocation*>> by_location;
  for (const auto& c : claims) by_location[c.location].push_back(&c);
  std::vector<LocationOverlap> out;
  const store::LocationClaim plain;
  for (const auto& inner : claims) {
    // The same location: each unordered pair once (by address order).
    for (const store::HeldLocation* other : by_location[inner.location]) {
      if (other <= &inner) continue;
      if (store::LocationsConflict(inner.owner, plain, *other, store::LocationRelation::kSame)) {
        out.push_back({inner, *other, store::LocationRelation::kSame});
      }
    }
    for (const std::string& above : store::LocationAncestors(inner.location)) {
      auto it = by_location.find(above);
      if (it == by_location.end()) continue;
      for (const store::HeldLocation* outer : it->second) {
        if (store::LocationsConflict(inner.owner, plain, *outer,
                                     store::LocationRelation::kContains)) {
          out.push_back({inner, *outer, store::LocationRelation::kContains});
        }
      }
    }
  }
  return out;
}

}  // namespace firn::catalog
