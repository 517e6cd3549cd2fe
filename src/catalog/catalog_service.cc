#include "catalog/catalog_service.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

#include "catalog/audit.h"
#include "catalog/authorization.h"
#include "catalog/filtered_page.h"
#include "catalog/identifiers.h"
#include "catalog/location_policy.h"
#include "catalog/purge.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"
#include "metadata/builder.h"
#include "metadata/create_table.h"
#include "metadata/gzip.h"
#include "metadata/metadata_paths.h"
#include "metadata/serde.h"

namespace firn::catalog {

using store::ObjectKind;

namespace {
// Bounds memory, not correctness: entries are immutable, a miss is one object-store read.
constexpr size_t kMetadataCacheBytes = 64u << 20;

std::string StripTrailingSlash(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

Namespace Parent(const Namespace& ns) {
  return ns.empty() ? ns : Namespace(ns.begin(), ns.end() - 1);
}

bool IsCreate(const std::vector<metadata::TableRequirement>& requirements) {
  for (const auto& r : requirements) {
    if (std::holds_alternative<metadata::AssertCreate>(r)) return true;
  }
  return false;
}
}  // namespace

CatalogService::CatalogService(std::shared_ptr<store::CatalogStore> store,
                               std::shared_ptr<io::ObjectStore> objects,
                               CatalogRegistry catalogs, CommitOptions commit_options)
    : store_(std::move(store)),
      objects_(std::move(objects)),
      catalogs_(std::move(catalogs)),
      commit_options_(commit_options),
      cache_(kMetadataCacheBytes) {}

// ---------------------------------------------------------------------------------------------
// Every public method authorises first (catalog/authorization.h), from the request's names
// alone, before any store read or object-store write: a refused caller learns nothing and
// changes nothing.

// Namespaces: the store enforces existence and emptiness; the service only adds defaults.

Result<Properties> CatalogService::CreateNamespace(const RequestContext& ctx, const Namespace& ns,
                                                   const Properties& props) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, "createNamespace", Parent(ns)));
  const store::AuditEntry audit = MakeAudit(ctx, "createNamespace", AuditObject(ns));
  FIRN_RETURN_IF_ERROR(store_->CreateNamespace(ctx.scope, ns, props, &audit));
  return WithDefaultLocation(ctx, ns, props);
}

Result<Properties> CatalogService::LoadNamespaceMetadata(const RequestContext& ctx,
                                                         const Namespace& ns) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, "loadNamespaceMetadata", ns));
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
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, "namespaceExists", ns));
  FIRN_RETURN_IF_ERROR(store_->LoadNamespace(ctx.scope, ns));
  return Ok();
}

Result<store::Page<Namespace>> CatalogService::ListNamespaces(const RequestContext& ctx,
                                                              const Namespace& parent,
                                                              const store::PageRequest& page) {
  FIRN_ASSIGN_OR_RETURN(bool filter, AuthorizeList(ctx, "listNamespaces", parent));
  auto fetch = [&](const store::PageRequest& p) {
    return store_->ListNamespaces(ctx.scope, parent, p);
  };
  if (!filter) return fetch(page);
  return FilteredPage<Namespace>(page, fetch, [&](const Namespace& child) {
    return Visible(ctx, NamespaceResource(ctx, child));
  });
}

Status CatalogService::DropNamespace(const RequestContext& ctx, const Namespace& ns) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, "dropNamespace", ns));
  const store::AuditEntry audit = MakeAudit(ctx, "dropNamespace", AuditObject(ns));
  return store_->DropNamespace(ctx.scope, ns, &audit);
}

Result<store::PropertiesUpdateResult> CatalogService::UpdateProperties(
    const RequestContext& ctx, const Namespace& ns, const std::vector<std::string>& removals,
    const Properties& updates) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, "updateProperties", ns));
  for (const std::string& key : removals) {
    if (updates.contains(key)) {
      return Fail(ErrorKind::kUnprocessableEntity,
                  "Invalid namespace properties update: key '" + key +
                      "' is both updated and removed");
    }
  }
  const store::AuditEntry audit = MakeAudit(ctx, "updateProperties", AuditObject(ns));
  return store_->UpdateNamespaceProperties(ctx.scope, ns, removals, updates, &audit);
}

// ---------------------------------------------------------------------------------------------
// Tables.

Result<store::Page<std::string>> CatalogService::ListTables(const RequestContext& ctx,
                                                            const Namespace& ns,
                                                            const store::PageRequest& page) {
  FIRN_ASSIGN_OR_RETURN(bool filter, AuthorizeList(ctx, "listTables", ns));
  auto fetch = [&](const store::PageRequest& p) {
    return store_->ListObjects(ctx.scope, ns, ObjectKind::kTable, p);
  };
  if (!filter) return fetch(page);
  return FilteredPage<std::string>(page, fetch, [&](const std::string& name) {
    return Visible(ctx, ObjectResource(ctx, {ns, name}, ObjectKind::kTable));
  });
}

Result<std::shared_ptr<const CachedTable>> CatalogService::ReadMetadata(
    const std::string& location) {
  if (auto hit = cache_.Get(location)) return hit;
  FIRN_ASSIGN_OR_RETURN(std::string bytes, objects_->Read(location));
  FIRN_ASSIGN_OR_RETURN(std::string text, metadata::GunzipIfNeeded(location, std::move(bytes)));
  auto parsed = metadata::ParseTableMetadata(text);
  if (!parsed) {
    return Fail(ErrorKind::kInternal,
                "Cannot read table metadata file " + location + ": " + parsed.error().message);
  }
  auto entry = MakeCachedTable(location, std::move(*parsed));
  cache_.Put(entry);
  return entry;
}

std::string CatalogService::DefaultTableLocation(const RequestContext& ctx, const Identifier& id,
                                                 const Properties& ns_props) const {
  if (auto it = ns_props.find("location"); it != ns_props.end() && !it->second.empty()) {
    return StripTrailingSlash(it->second) + "/" + id.name;
  }
  return WithDefaultLocation(ctx, id.ns, {}).at("location") + "/" + id.name;
}

void CatalogService::DeleteQuietly(const std::string& location) {
  if (auto st = objects_->Delete(location); !st) {
    spdlog::warn(R"("msg":"could not delete unreferenced metadata file","file":"{}","error":"{}")",
                 log::Escape(location), log::Escape(st.error().message));
  }
}

void CatalogService::Backoff(int attempt) const {
  thread_local std::minstd_rand rng{std::random_device{}()};
  const int cap = commit_options_.base_backoff_ms << std::min(attempt, 6);
  std::this_thread::sleep_for(std::chrono::microseconds(
      std::uniform_int_distribution<int>(cap * 500, cap * 1000)(rng)));
}

Result<LoadedTable> CatalogService::CreateTable(const RequestContext& ctx, const Namespace& ns,
                                                const CreateTableRequest& request) {
  const Identifier id{ns, request.name};
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "createTable", request.stage_create ? "staged" : "",
                                         id, ObjectKind::kTable));
  FIRN_ASSIGN_OR_RETURN(Properties ns_props, store_->LoadNamespace(ctx.scope, ns));
  if (auto existing = store_->LoadPointer(ctx.scope, id, ObjectKind::kTable); existing) {
    return Fail(ErrorKind::kAlreadyExists, "Table already exists: " + FormatIdentifier(id));
  }
  metadata::CreateTableInput input;
  input.location = StripTrailingSlash(request.location.value_or(""));
  if (input.location.empty()) input.location = DefaultTableLocation(ctx, id, ns_props);
  // A default under the base location always passes; one under a namespace `location`
  // property (caller-settable) is checked like an explicit one.
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, input.location));
  input.schema = request.schema;
  input.partition_spec = request.partition_spec;
  input.write_order = request.write_order;
  input.properties = request.properties;
  FIRN_ASSIGN_OR_RETURN(metadata::TableMetadata meta,
                        metadata::NewTableMetadata(input, NowMillis()));
  if (request.stage_create) {
    return LoadedTable{"", MakeCachedTable("", std::move(meta))};
  }
  const std::string file = metadata::NewMetadataLocation(meta, std::nullopt);
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, file));  // write.metadata.path
  FIRN_RETURN_IF_ERROR(objects_->WriteNew(file, metadata::EncodeMetadataFile(meta, file)));
  const store::AuditEntry audit =
      MakeAudit(ctx, "createTable", AuditObject(id, ObjectKind::kTable), "", file);
  if (auto st = store_->CreateObject(ctx.scope, id, ObjectKind::kTable, file, &audit); !st) {
    if (st.error().kind != ErrorKind::kCommitStateUnknown) DeleteQuietly(file);
    return Fail(st.error());
  }
  auto entry = MakeCachedTable(file, std::move(meta));
  cache_.Put(entry);
  return LoadedTable{file, entry};
}

Result<LoadedTable> CatalogService::LoadTable(const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "loadTable", "", id, ObjectKind::kTable));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ptr.metadata_location));
  return LoadedTable{ptr.metadata_location, std::move(table)};
}

Status CatalogService::CheckMetadataFileExists(const LoadedTable& table) {
  FIRN_ASSIGN_OR_RETURN(bool exists, objects_->Exists(table.metadata_location));
  if (!exists) {
    return Fail(ErrorKind::kNotFound,
                "Failed to open input stream for file: " + table.metadata_location);
  }
  return Ok();
}

Status CatalogService::TableExists(const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "tableExists", "", id, ObjectKind::kTable));
  FIRN_RETURN_IF_ERROR(store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  return Ok();
}

// ---------------------------------------------------------------------------------------------
// The commit protocol (docs/commit-protocol.md): base → requirements → updates → new file →
// compare-and-swap; a lost swap retries against the newer base; a refused commit deletes its file.

struct CatalogService::PreparedCommit {
  Identifier id;
  std::optional<std::string> base_location;  // nullopt: the commit creates the table
  std::shared_ptr<const CachedTable> base;
  bool changed = false;
  std::string new_location;
  std::shared_ptr<const CachedTable> result;
  std::vector<std::string> dropped_metadata_files;
};

Result<CatalogService::PreparedCommit> CatalogService::PrepareCommit(const RequestContext& ctx,
                                                                     const TableChange& change) {
  PreparedCommit p;
  p.id = change.id;
  const bool create = IsCreate(change.requirements);
  if (create && change.requirements.size() != 1) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid create requirements: assert-create must be the only requirement");
  }
  Properties ns_props;
  auto ptr = store_->LoadPointer(ctx.scope, change.id, ObjectKind::kTable);
  if (ptr) {
    p.base_location = ptr->metadata_location;
    FIRN_ASSIGN_OR_RETURN(p.base, ReadMetadata(ptr->metadata_location));
  } else if (create && ptr.error().kind == ErrorKind::kNoSuchTable) {
    FIRN_ASSIGN_OR_RETURN(ns_props, store_->LoadNamespace(ctx.scope, change.id.ns));
  } else {
    return Fail(ptr.error());
  }
  const metadata::TableMetadata* base_meta = p.base ? &p.base->metadata : nullptr;
  for (const auto& requirement : change.requirements) {
    FIRN_RETURN_IF_ERROR(metadata::CheckRequirement(requirement, base_meta));
  }
  // A set-location that moves the table must name one of the catalog's locations. Checked
  // before applying, so the refusal names the location rather than another missing piece.
  for (const auto& update : change.updates) {
    const auto* moved = std::get_if<metadata::SetLocation>(&update);
    if (moved && (!base_meta || moved->location != base_meta->location)) {
      FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, moved->location));
    }
  }
  // A create that names no location gets the default one, as createTable would give it.
  const std::vector<metadata::TableUpdate>* updates = &change.updates;
  std::vector<metadata::TableUpdate> with_location;
  if (!p.base && std::ranges::none_of(change.updates, [](const metadata::TableUpdate& u) {
        return std::holds_alternative<metadata::SetLocation>(u);
      })) {
    with_location.push_back(metadata::SetLocation{DefaultTableLocation(ctx, change.id, ns_props)});
    with_location.insert(with_location.end(), change.updates.begin(), change.updates.end());
    updates = &with_location;
  }
  FIRN_ASSIGN_OR_RETURN(metadata::ApplyResult applied,
                        metadata::ApplyUpdates(base_meta, *updates,
                                               metadata::CommitContext{NowMillis(), p.base_location}));
  if (!applied.changed && p.base) {
    p.result = p.base;
    return p;
  }
  // A create, a set-location or a new `write.metadata.path`: where the table lives and where
  // its next file goes must be the catalog's, before any write. An unchanged table keeps
  // committing where it already is.
  p.changed = true;
  p.new_location = metadata::NewMetadataLocation(
      applied.metadata, p.base_location ? std::optional<std::string_view>(*p.base_location)
                                        : std::nullopt);
  if (!p.base || applied.metadata.location != p.base->metadata.location) {
    FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, applied.metadata.location));
  }
  if (!p.base ||
      metadata::MetadataDirectory(applied.metadata) != metadata::MetadataDirectory(p.base->metadata)) {
    FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, p.new_location));
  }
  std::string json = metadata::SerializeTableMetadata(applied.metadata);
  FIRN_RETURN_IF_ERROR(objects_->WriteNew(
      p.new_location,
      metadata::IsGzipMetadataLocation(p.new_location) ? metadata::Gzip(json) : json));
  // The metadata log may name any path (a registered file): delete only the table's own.
  for (std::string& old : applied.dropped_metadata_files) {
    if (IsUnder(old, applied.metadata.location)) p.dropped_metadata_files.push_back(std::move(old));
  }
  p.result = MakeCachedTable(p.new_location, std::move(applied.metadata), std::move(json));
  return p;
}

Result<LoadedTable> CatalogService::UpdateTable(const RequestContext& ctx,
                                                const TableChange& change) {
  // A change with assert-create finishes a staged create: TABLE_CREATE on the namespace.
  if (IsCreate(change.requirements)) {
    FIRN_RETURN_IF_ERROR(
        AuthorizeObjectOp(ctx, "updateTable", "staged-create", change.id, ObjectKind::kTable));
  } else {
    FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "updateTable", "", change.id, ObjectKind::kTable,
                                           UpdatePrivileges(change.updates)));
  }
  Result<LoadedTable> result = CommitTable(ctx, change);
  // A refused commit leaves no pointer move to carry its audit row: record it on its own.
  if (!result && (result.error().kind == ErrorKind::kCommitFailed ||
                  result.error().kind == ErrorKind::kAlreadyExists)) {
    RecordRefusal(*store_, MakeAudit(ctx, "updateTable", AuditObject(change.id, ObjectKind::kTable)),
                  result.error());
  }
  return result;
}

Result<LoadedTable> CatalogService::CommitTable(const RequestContext& ctx,
                                                const TableChange& change) {
  for (int attempt = 0; attempt < commit_options_.max_attempts; ++attempt) {
    FIRN_ASSIGN_OR_RETURN(PreparedCommit p, PrepareCommit(ctx, change));
    if (!p.changed) return LoadedTable{*p.base_location, p.result};
    Status swapped = Ok();
    const store::AuditEntry audit =
        MakeAudit(ctx, "updateTable", AuditObject(change.id, ObjectKind::kTable),
                  p.base_location.value_or(""), p.new_location);
    if (p.base_location) {
      auto moved = store_->SwapPointer(ctx.scope, change.id, ObjectKind::kTable,
                                       *p.base_location, p.new_location, &audit);
      if (!moved) swapped = Fail(moved.error());
    } else {
      swapped = store_->CreateObject(ctx.scope, change.id, ObjectKind::kTable, p.new_location,
                                     &audit);
    }
    if (swapped) {
      cache_.Put(p.result);
      for (const std::string& old : p.dropped_metadata_files) DeleteQuietly(old);
      return LoadedTable{p.new_location, p.result};
    }
    const Error& err = swapped.error();
    // The swap may have happened: never delete, never claim failure.
    if (err.kind == ErrorKind::kCommitStateUnknown) return Fail(err);
    DeleteQuietly(p.new_location);
    if (err.kind == ErrorKind::kCommitFailed && p.base_location) {
      Backoff(attempt);
      continue;  // lost the race: re-check requirements against the newer base
    }
    return Fail(err);
  }
  return Fail(ErrorKind::kCommitFailed,
              "Commit failed: too many concurrent commits to " + FormatIdentifier(change.id) +
                  ", retry");
}

Status CatalogService::DropTable(const RequestContext& ctx, const Identifier& id, bool purge) {
  FIRN_RETURN_IF_ERROR(
      AuthorizeObjectOp(ctx, "dropTable", purge ? "purge" : "", id, ObjectKind::kTable));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  std::shared_ptr<const CachedTable> table;
  if (purge) {
    auto read = ReadMetadata(ptr.metadata_location);
    if (read) {
      table = *read;
    } else {
      spdlog::warn(R"("msg":"purge: metadata unreadable, dropping pointer only","file":"{}")",
                   log::Escape(ptr.metadata_location));
    }
  }
  const store::AuditEntry audit = MakeAudit(ctx, purge ? "dropTable(purge)" : "dropTable",
                                            AuditObject(id, ObjectKind::kTable),
                                            ptr.metadata_location);
  FIRN_RETURN_IF_ERROR(store_->DropObject(ctx.scope, id, ObjectKind::kTable, &audit));
  if (table) PurgeTableFiles(*objects_, table->metadata, ptr.metadata_location);
  return Ok();
}

Status CatalogService::RenameTable(const RequestContext& ctx, const Identifier& from,
                                   const Identifier& to) {
  FIRN_RETURN_IF_ERROR(
      AuthorizeObjectOp(ctx, "renameTable", "", from, ObjectKind::kTable, std::nullopt, &to));
  if (from == to) return TableExists(ctx, from);
  const store::AuditEntry audit =
      MakeAudit(ctx, "renameTable",
                AuditObject(from, ObjectKind::kTable) + " -> " + AuditObject(to, ObjectKind::kTable));
  return store_->RenameObject(ctx.scope, from, to, ObjectKind::kTable, &audit);
}

Result<LoadedTable> CatalogService::RegisterTable(const RequestContext& ctx, const Identifier& id,
                                                  const std::string& metadata_location,
                                                  bool overwrite) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "registerTable", "", id, ObjectKind::kTable));
  // Overwriting may replace an existing table's metadata wholesale: it also needs what a
  // commit to that table would need at the least (Firn; Polaris has no overwrite rule).
  if (overwrite) {
    FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "updateTable", "", id, ObjectKind::kTable));
  }
  FIRN_RETURN_IF_ERROR(store_->LoadNamespace(ctx.scope, id.ns));
  auto existing = store_->LoadPointer(ctx.scope, id, ObjectKind::kTable);
  if (existing && !overwrite) {
    return Fail(ErrorKind::kAlreadyExists, "Table already exists: " + FormatIdentifier(id));
  }
  // Checked before the read: the catalog reads only files in its own locations.
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, metadata_location));
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(metadata_location));
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, table->metadata.location));
  const store::AuditEntry audit =
      MakeAudit(ctx, "registerTable", AuditObject(id, ObjectKind::kTable),
                existing ? existing->metadata_location : "", metadata_location);
  if (existing) {
    FIRN_RETURN_IF_ERROR(
        store_->ReplacePointer(ctx.scope, id, ObjectKind::kTable, metadata_location, &audit));
  } else {
    FIRN_RETURN_IF_ERROR(
        store_->CreateObject(ctx.scope, id, ObjectKind::kTable, metadata_location, &audit));
  }
  return LoadedTable{metadata_location, std::move(table)};
}

Status CatalogService::ReportMetrics(const RequestContext& ctx, const Identifier& id,
                                     const std::string& report_type, std::string report_json) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(
      ctx, "reportMetrics", report_type == "commit-report" ? "commit-report" : "", id,
      ObjectKind::kTable));
  FIRN_RETURN_IF_ERROR(store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  store::MetricsReport report{id, report_type, std::move(report_json), NowMillis()};
  return store_->StoreMetricsReport(ctx.scope, report);
}

Status CatalogService::CommitTransaction(const RequestContext& ctx,
                                         const std::vector<TableChange>& changes) {
  // Every table, before anything is read: the rule's privileges plus the fine-grained ones
  // its updates need (covered by TABLE_WRITE_PROPERTIES today; kept for a stricter mode).
  for (const TableChange& change : changes) {
    FIRN_RETURN_IF_ERROR(
        AuthorizeObjectOp(ctx, "commitTransaction", "", change.id, ObjectKind::kTable));
    FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "commitTransaction", "", change.id,
                                           ObjectKind::kTable, UpdatePrivileges(change.updates)));
  }
  Status result = CommitTables(ctx, changes);
  if (!result && (result.error().kind == ErrorKind::kCommitFailed ||
                  result.error().kind == ErrorKind::kAlreadyExists)) {
    for (const TableChange& change : changes) {
      RecordRefusal(*store_,
                    MakeAudit(ctx, "commitTransaction", AuditObject(change.id, ObjectKind::kTable)),
                    result.error());
    }
  }
  return result;
}

Status CatalogService::CommitTables(const RequestContext& ctx,
                                    const std::vector<TableChange>& changes) {
  for (size_t i = 0; i < changes.size(); ++i) {
    for (size_t j = i + 1; j < changes.size(); ++j) {
      if (changes[i].id == changes[j].id) {
        return Fail(ErrorKind::kBadRequest, "Invalid transaction: table " +
                                                FormatIdentifier(changes[i].id) +
                                                " appears more than once");
      }
    }
  }
  for (int attempt = 0; attempt < commit_options_.max_attempts; ++attempt) {
    std::vector<PreparedCommit> prepared;
    auto discard = [&] {
      for (const auto& p : prepared) {
        if (p.changed) DeleteQuietly(p.new_location);
      }
    };
    for (const TableChange& change : changes) {
      auto p = PrepareCommit(ctx, change);
      if (!p) {
        discard();
        return Fail(p.error());
      }
      prepared.push_back(std::move(*p));
    }
    std::vector<store::PointerSwap> swaps;
    std::vector<store::AuditEntry> audits;
    for (const auto& p : prepared) {
      if (!p.changed) continue;
      swaps.push_back({p.id, ObjectKind::kTable, p.base_location, p.new_location});
      audits.push_back(MakeAudit(ctx, "commitTransaction", AuditObject(p.id, ObjectKind::kTable),
                                 p.base_location.value_or(""), p.new_location));
    }
    if (swaps.empty()) return Ok();
    Status st = store_->CommitTransaction(ctx.scope, swaps, audits);
    if (st) {
      for (const auto& p : prepared) {
        if (!p.changed) continue;
        cache_.Put(p.result);
        for (const std::string& old : p.dropped_metadata_files) DeleteQuietly(old);
      }
      return Ok();
    }
    if (st.error().kind == ErrorKind::kCommitStateUnknown) return st;
    discard();
    if (st.error().kind != ErrorKind::kCommitFailed) return st;
    Backoff(attempt);
  }
  return Fail(ErrorKind::kCommitFailed,
              "Commit failed: too many concurrent commits to the tables of this transaction, retry");
}

}  // namespace firn::catalog
