// CatalogService: namespaces (create, load, list, exists, drop, properties) and the default
// location a namespace reports. Part of catalog_service.h.
#include <algorithm>

#include "catalog/audit.h"
#include "catalog/authorization.h"
#include "catalog/catalog_service.h"
#include "catalog/filtered_page.h"
#include "catalog/identifiers.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "common/macros.h"
#include "common/strings.h"

namespace firn::catalog {

using auth::Operation;

namespace {
Namespace Parent(const Namespace& ns) {
  return ns.empty() ? ns : Namespace(ns.begin(), ns.end() - 1);
}
}  // namespace

// Namespaces: the store enforces existence and emptiness; the service only adds defaults.

Result<Properties> CatalogService::CreateNamespace(const RequestContext& ctx, const Namespace& ns,
                                                   const Properties& props) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, Operation::kCreateNamespace, Parent(ns)));
  FIRN_RETURN_IF_ERROR(ValidateNamespace(ns));
  FIRN_RETURN_IF_ERROR(CheckProperties(limits_.properties, "namespace properties", props));
  FIRN_ASSIGN_OR_RETURN(auto claim, NamespaceClaim(ctx, ns, props));
  const store::AuditEntry audit = MakeAudit(ctx, Operation::kCreateNamespace, AuditObject(ns));
  FIRN_RETURN_IF_ERROR(
      store_->CreateNamespace(ctx.scope, ns, props, &audit, claim ? &*claim : nullptr));
  return WithDefaultLocation(ctx, ns, props);
}

// A namespace with an explicit `location` holds it as a container (its catalog's tables may sit
// inside; no table may equal or contain it); nullopt when `props` name no location.
Result<std::optional<store::LocationClaim>> CatalogService::NamespaceClaim(
    const RequestContext& ctx, const Namespace& ns, const Properties& props) {
  auto it = props.find("location");
  if (it == props.end()) return std::optional<store::LocationClaim>();
  store::LocationClaim claim;
  if (!it->second.empty()) {
    FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, it->second));
    FIRN_ASSIGN_OR_RETURN(std::string location, NormalizeLocation(it->second));
    claim.locations.push_back(std::move(location));
  }
  const store::LocationOwner owner{ctx.scope.realm, ctx.scope.catalog,
                                   store::LocationOwnerKind::kNamespace, ns, ""};
  FIRN_RETURN_IF_ERROR(CheckLocationClaim(ctx, *store_, CatalogOf(ctx, catalogs_), owner, claim));
  return std::optional<store::LocationClaim>(std::move(claim));
}

Result<Properties> CatalogService::LoadNamespaceMetadata(const RequestContext& ctx,
                                                         const Namespace& ns) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, Operation::kLoadNamespaceMetadata, ns));
  FIRN_ASSIGN_OR_RETURN(Properties props, store_->LoadNamespace(ctx.scope, ns));
  return WithDefaultLocation(ctx, ns, std::move(props));
}

// Engines such as Trino place a table under its namespace's `location` (and refuse a
// non-empty directory otherwise), so a namespace without one reports where its tables go by
// default. It is derived, not stored: it follows the catalog's base location.
Properties CatalogService::WithDefaultLocation(const RequestContext& ctx, const Namespace& ns,
                                               Properties props) const {
  if (!props.contains("location")) {
    // The catalog resolved for this request; hand-built contexts fall back to the registry.
    const CatalogInfo* info = ctx.catalog ? ctx.catalog.get() : catalogs_.Find(ctx.scope.catalog);
    std::string location =
        StripTrailingSlash(info ? info->base_location : catalogs_.Default().base_location);
    for (const std::string& level : ns) location += "/" + level;
    props.emplace("location", std::move(location));
  }
  return props;
}

Status CatalogService::NamespaceExists(const RequestContext& ctx, const Namespace& ns) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, Operation::kNamespaceExists, ns));
  FIRN_RETURN_IF_ERROR(store_->LoadNamespace(ctx.scope, ns));
  return Ok();
}

Result<store::Page<Namespace>> CatalogService::ListNamespaces(const RequestContext& ctx,
                                                              const Namespace& parent,
                                                              const store::PageRequest& page) {
  FIRN_ASSIGN_OR_RETURN(bool filter, AuthorizeList(ctx, Operation::kListNamespaces, parent));
  auto fetch = [&](const store::PageRequest& p) {
    return store_->ListNamespaces(ctx.scope, parent, p);
  };
  if (!filter) return fetch(page);
  return FilteredPage<Namespace>(page, fetch, [&](const Namespace& child) {
    return Visible(ctx, NamespaceResource(ctx, child));
  });
}

Status CatalogService::DropNamespace(const RequestContext& ctx, const Namespace& ns) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, Operation::kDropNamespace, ns));
  const store::AuditEntry audit = MakeAudit(ctx, Operation::kDropNamespace, AuditObject(ns));
  return WithGrants([&](const ObjectGrants& g) { return g.DropNamespace(ctx.scope, ns); },
                    [&](const store::GrantsPlan* plan) {
                      return store_->DropNamespace(ctx.scope, ns, &audit, plan);
                    });
}

Result<store::PropertiesUpdateResult> CatalogService::UpdateProperties(
    const RequestContext& ctx, const Namespace& ns, const std::vector<std::string>& removals,
    const Properties& updates) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, Operation::kUpdateProperties, ns));
  for (const std::string& key : removals) {
    if (updates.contains(key)) {
      return Fail(ErrorKind::kUnprocessableEntity,
                  "Invalid namespace properties update: key '" + key +
                      "' is both updated and removed");
    }
  }
  // The updates alone over a limit are refused before anything is written; what they add up
  // to is judged on the whole map after the change, in the store's transaction, so small
  // updates cannot add up past the limits, concurrent ones included.
  FIRN_RETURN_IF_ERROR(CheckProperties(limits_.properties, "namespace properties", updates));
  // Setting `location` moves the namespace's claim; removing it releases the claim.
  std::optional<store::LocationClaim> claim;
  if (updates.contains("location")) {
    FIRN_ASSIGN_OR_RETURN(claim, NamespaceClaim(ctx, ns, updates));
  } else if (std::find(removals.begin(), removals.end(), "location") != removals.end()) {
    claim = store::LocationClaim{};
  }
  const store::AuditEntry audit = MakeAudit(ctx, Operation::kUpdateProperties, AuditObject(ns));
  const store::PropertiesCheck within_limits = [this](const Properties& after) {
    return CheckProperties(limits_.properties, "namespace properties", after);
  };
  return store_->UpdateNamespaceProperties(ctx.scope, ns, removals, updates, &audit,
                                           updates.empty() ? nullptr : &within_limits,
                                           claim ? &*claim : nullptr);
}

}  // namespace firn::catalog
