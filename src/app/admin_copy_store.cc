#include "app/admin_copy_store.h"

#include <set>

#include "common/clock.h"
#include "common/macros.h"

namespace firn::app {
namespace {

using store::CatalogScope;
using store::CatalogStore;
using store::Identifier;
using store::Namespace;
using store::ObjectKind;

// Follows next_token until the last page (the stores return everything without a size, but a
// token loop keeps this correct if that ever changes).
template <typename T, typename F>
Result<std::vector<T>> All(F&& list_page) {
  std::vector<T> all;
  store::PageRequest page;
  while (true) {
    FIRN_ASSIGN_OR_RETURN(store::Page<T> got, list_page(page));
    for (auto& item : got.items) all.push_back(std::move(item));
    if (!got.next_token) return all;
    page.token = got.next_token;
  }
}

class Copier {
 public:
  Copier(CatalogStore& from, CatalogStore& to, const CopyStoreOptions& options)
      : from_(from), to_(to), options_(options) {}

  Status CopyScope(const CatalogScope& scope) {
    ++stats_.catalogs;
    return CopyChildren(scope, {});
  }
  const CopyStoreStats& stats() const { return stats_; }

 private:
  // Parents before children: a namespace needs its parent on the destination.
  Status CopyChildren(const CatalogScope& scope, const Namespace& parent) {
    FIRN_ASSIGN_OR_RETURN(auto children, All<Namespace>([&](const store::PageRequest& page) {
                            return from_.ListNamespaces(scope, parent, page);
                          }));
    for (const auto& ns : children) {
      FIRN_RETURN_IF_ERROR(CopyNamespace(scope, ns));
      FIRN_RETURN_IF_ERROR(CopyObjects(scope, ns, ObjectKind::kTable));
      FIRN_RETURN_IF_ERROR(CopyObjects(scope, ns, ObjectKind::kView));
      FIRN_RETURN_IF_ERROR(CopyChildren(scope, ns));
    }
    return Ok();
  }

  Status CopyNamespace(const CatalogScope& scope, const Namespace& ns) {
    FIRN_ASSIGN_OR_RETURN(store::Properties props, from_.LoadNamespace(scope, ns));
    auto created = to_.CreateNamespace(scope, ns, props);
    if (!created && created.error().kind == ErrorKind::kAlreadyExists && options_.force) {
      FIRN_ASSIGN_OR_RETURN(store::Properties existing, to_.LoadNamespace(scope, ns));
      std::vector<std::string> removals;
      for (const auto& [name, value] : existing) {
        if (!props.contains(name)) removals.push_back(name);
      }
      FIRN_RETURN_IF_ERROR(to_.UpdateNamespaceProperties(scope, ns, removals, props));
    } else if (!created) {
      return created;
    }
    ++stats_.namespaces;
    return Ok();
  }

  Status CopyObjects(const CatalogScope& scope, const Namespace& ns, ObjectKind kind) {
    FIRN_ASSIGN_OR_RETURN(auto names, All<std::string>([&](const store::PageRequest& page) {
                            return from_.ListObjects(scope, ns, kind, page);
                          }));
    for (const auto& name : names) {
      const Identifier id{ns, name};
      auto pointer = from_.LoadPointer(scope, id, kind);
      // Dropped since the listing: nothing to copy.
      if (!pointer && (pointer.error().kind == ErrorKind::kNoSuchTable ||
                       pointer.error().kind == ErrorKind::kNoSuchView)) {
        continue;
      }
      if (!pointer) return Fail(pointer.error());
      auto created = to_.CreateObject(scope, id, kind, pointer->metadata_location);
      if (!created && created.error().kind == ErrorKind::kAlreadyExists && options_.force) {
        // Fails (kNoSuchTable/kNoSuchView) when the name is held by the other kind.
        auto replaced = to_.ReplacePointer(scope, id, kind, pointer->metadata_location);
        if (!replaced) return created;
      } else if (!created) {
        return created;
      }
      ++(kind == ObjectKind::kTable ? stats_.tables : stats_.views);
    }
    return Ok();
  }

  CatalogStore& from_;
  CatalogStore& to_;
  const CopyStoreOptions& options_;
  CopyStoreStats stats_;
};

std::string ScopeName(const CatalogScope& scope) { return scope.realm + "/" + scope.catalog; }

// Every access record, in one destination transaction (one version bump).
Result<int64_t> CopyAccessRecords(CatalogStore& from, CatalogStore& to) {
  FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, from.LoadAccess());
  if (rows.records.empty()) return 0;
  std::vector<store::AccessWrite> writes;
  writes.reserve(rows.records.size());
  for (auto& record : rows.records) {
    writes.push_back({store::AccessWrite::Op::kUpsert, std::move(record), std::nullopt});
  }
  FIRN_RETURN_IF_ERROR(to.ApplyAccessWrites(writes, nullptr, NowMillis()));
  return static_cast<int64_t>(writes.size());
}

// The audit trail, oldest first, unless the destination already has one.
Result<int64_t> CopyAuditTrail(CatalogStore& from, CatalogStore& to) {
  store::AuditFilter probe;
  probe.limit = 1;
  FIRN_ASSIGN_OR_RETURN(auto existing, to.ListAudit(probe));
  if (!existing.empty()) return 0;
  store::AuditFilter page;
  page.after_id = 0;
  page.limit = 1000;
  int64_t copied = 0;
  while (true) {
    FIRN_ASSIGN_OR_RETURN(auto rows, from.ListAudit(page));
    for (const auto& row : rows) {
      FIRN_RETURN_IF_ERROR(to.AppendAudit(row));
      ++copied;
    }
    if (rows.size() < static_cast<size_t>(page.limit)) return copied;
    page.after_id = rows.back().id;
  }
}

}  // namespace

Result<CopyStoreStats> CopyStore(CatalogStore& from, CatalogStore& to,
                                 const CopyStoreOptions& options) {
  FIRN_ASSIGN_OR_RETURN(auto existing, to.ListCatalogScopes());
  if (!existing.empty() && !options.force) {
    return Fail(ErrorKind::kAlreadyExists,
                "The destination database is not empty (it holds catalog " +
                    ScopeName(existing.front()) + "); use --force to copy into it");
  }
  FIRN_ASSIGN_OR_RETURN(store::AccessRows existing_access, to.LoadAccess());
  if (!existing_access.records.empty() && !options.force) {
    return Fail(ErrorKind::kAlreadyExists,
                "The destination database is not empty (it holds access records of realm " +
                    existing_access.records.front().realm + "); use --force to copy into it");
  }
  FIRN_ASSIGN_OR_RETURN(auto scopes, from.ListCatalogScopes());
  Copier copier(from, to, options);
  for (const auto& scope : scopes) {
    FIRN_RETURN_IF_ERROR(copier.CopyScope(scope));
    if (options.progress) options.progress("copied catalog " + ScopeName(scope));
  }
  CopyStoreStats stats = copier.stats();
  FIRN_ASSIGN_OR_RETURN(stats.access_records, CopyAccessRecords(from, to));
  if (options.progress) {
    options.progress("copied " + std::to_string(stats.access_records) + " access records");
  }
  FIRN_ASSIGN_OR_RETURN(stats.audit_rows, CopyAuditTrail(from, to));
  if (options.progress) {
    options.progress("copied " + std::to_string(stats.audit_rows) + " audit rows");
  }
  return stats;
}

}  // namespace firn::app
