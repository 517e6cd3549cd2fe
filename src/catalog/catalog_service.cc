#include "catalog/catalog_service.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "catalog/audit.h"
#include "catalog/authorization.h"
#include "catalog/catalog_metrics.h"
#include "catalog/filtered_page.h"
#include "catalog/foreign_writers.h"
#include "catalog/identifiers.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "catalog/metadata_files.h"
#include "catalog/purge.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"
#include "common/metrics.h"
#include "common/strings.h"
#include "common/uuid.h"
#include "metadata/create_table.h"
#include "metadata/gzip.h"
#include "metadata/metadata_paths.h"

namespace firn::catalog {

using auth::Operation;
using store::ObjectKind;

namespace {
// Bounds memory, not correctness: entries are immutable, a miss is one object-store read.
constexpr size_t kMetadataCacheBytes = 64u << 20;

}  // namespace

CatalogService::CatalogService(std::shared_ptr<store::CatalogStore> store,
                               std::shared_ptr<io::ObjectStore> objects,
                               CatalogRegistry catalogs, CommitOptions commit_options,
                               InputLimits limits)
    : store_(std::move(store)),
      objects_(std::move(objects)),
      catalogs_(std::move(catalogs)),
      commit_options_(commit_options),
      limits_(limits),
      cache_(kMetadataCacheBytes) {}

// ---------------------------------------------------------------------------------------------
// Every public method authorises first (catalog/authorization.h), from the request's names
// alone, before any store read or object-store write: a refused caller learns nothing and
// changes nothing. Namespaces are in namespace_operations.cc, the commit protocol and
// transactions in table_commits.cc, views in view_operations.cc.

// ---------------------------------------------------------------------------------------------
// Tables.

Result<store::Page<std::string>> CatalogService::ListTables(const RequestContext& ctx,
                                                            const Namespace& ns,
                                                            const store::PageRequest& page) {
  FIRN_ASSIGN_OR_RETURN(bool filter, AuthorizeList(ctx, Operation::kListTables, ns));
  auto fetch = [&](const store::PageRequest& p) {
    return store_->ListObjects(ctx.scope, ns, ObjectKind::kTable, p);
  };
  if (!filter) return fetch(page);
  return FilteredPage<std::string>(page, fetch, [&](const std::string& name) {
    return Visible(ctx, ObjectResource(ctx, {ns, name}, ObjectKind::kTable));
  });
}

Result<std::shared_ptr<const CachedTable>> CatalogService::ReadMetadata(
    const RequestContext& ctx, const std::string& location, bool caller_named) {
  if (auto hit = cache_.Get(location)) return hit;
  FIRN_ASSIGN_OR_RETURN(
      metadata::TableMetadata parsed,
      ReadTableMetadataFile(ObjectsOf(ctx), location,
                            caller_named ? std::optional(limits_.max_metadata_file_bytes)
                                         : std::nullopt));
  auto entry = MakeCachedTable(location, std::move(parsed));
  cache_.Put(entry);
  return entry;
}

Result<std::string> CatalogService::DefaultLocation(const RequestContext& ctx,
                                                    const Identifier& id, ObjectKind kind,
                                                    const Properties& ns_props) {
  std::string parent;
  if (auto it = ns_props.find("location"); it != ns_props.end() && !it->second.empty()) {
    parent = StripTrailingSlash(it->second);
  } else {
    parent = WithDefaultLocation(ctx, id.ns, {}).at("location");
  }
  std::string location = parent + "/" + id.name;
  // The name's location can still be held by an object renamed away from it (rename keeps
  // locations): the new object then gets a location of its own beside it. A table and a view
  // of the same name keep the plain default, so the refusal names the name that is taken.
  const store::LocationOwner owner = OwnerOf(ctx, id, kind);
  auto normalised = NormalizeLocation(location);
  if (!normalised) return location;
  FIRN_ASSIGN_OR_RETURN(auto conflict,
                        store_->FindLocationConflict(owner, store::LocationClaim{{*normalised}}));
  const bool renamed_away = conflict && store::IsExclusiveOwner(conflict->held.owner.kind) &&
                            (conflict->held.owner.ns != id.ns ||
                             conflict->held.owner.name != id.name);
  if (renamed_away) location += "-" + NewUuidV4();
  return location;
}

bool CatalogService::DeleteQuietly(const RequestContext& ctx, const std::string& location) {
  if (auto st = ObjectsOf(ctx).Delete(location); !st) {
    spdlog::warn(R"("msg":"could not delete unreferenced metadata file","file":"{}","error":"{}")",
                 log::Escape(location), log::Escape(st.error().message));
    return false;
  }
  return true;
}

void CatalogService::DiscardWritten(const RequestContext& ctx, const std::string& location) {
  if (DeleteQuietly(ctx, location)) ForgetPending(location);
}

// Deletes files an earlier version of `owner` wrote and no longer references (old metadata
// files): only inside `location`, and only what no other object owns.
void CatalogService::DeleteOwned(const RequestContext& ctx, const store::LocationOwner& owner,
                                 const std::string& location,
                                 const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    if (IsUnder(file, location) && DeletableFor(*store_, owner, file)) {
      DeleteQuietly(ctx, file);
    } else {
      spdlog::warn(R"("msg":"not deleting a file the table does not own","file":"{}")",
                   log::Escape(file));
    }
  }
}

// The locations `meta` claims for `owner`, refused (before any write) when the catalog does not
// allow one of them or another object owns an overlapping one.
Result<store::LocationClaim> CatalogService::CheckedTableClaim(
    const RequestContext& ctx, const store::LocationOwner& owner,
    const metadata::TableMetadata& meta) {
  const CatalogInfo& catalog = CatalogOf(ctx, catalogs_);
  auto checked = TableLocationClaim(catalog, meta);
  if (!checked && checked.error().kind == ErrorKind::kForbidden) {
    // A table moved here keeps its files in its host catalog's locations: the locations it
    // holds there stay allowed, and keep their host.
    FIRN_ASSIGN_OR_RETURN(store::LocationClaim claim,
                          TableLocationClaim(catalog, meta, /*check_allowed=*/false));
    for (const std::string& location : claim.locations) {
      if (CheckLocationAllowed(catalog, location)) continue;
      auto holders = store_->LocationHolders(location);
      if (!holders) return Fail(holders.error());
      auto own = std::ranges::find_if(*holders, [&](const store::HeldLocation& held) {
        return held.owner == owner && !held.host_catalog.empty();
      });
      if (own == holders->end()) return Fail(checked.error());
      claim.host_catalog = own->host_catalog;
    }
    checked = std::move(claim);
  }
  if (!checked) return Fail(checked.error());
  FIRN_RETURN_IF_ERROR(CheckLocationClaim(ctx, *store_, catalog, owner, *checked));
  return std::move(*checked);
}

Result<LoadedTable> CatalogService::CreateTable(const RequestContext& ctx, const Namespace& ns,
                                                const CreateTableRequest& request) {
  const Identifier id{ns, request.name};
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(
      ctx, request.stage_create ? Operation::kCreateTableStaged : Operation::kCreateTable, id));
  FIRN_RETURN_IF_ERROR(ValidateIdentifier("table name", id));
  FIRN_RETURN_IF_ERROR(CheckProperties(limits_.properties, "table properties", request.properties));
  FIRN_ASSIGN_OR_RETURN(Properties ns_props, store_->LoadNamespace(ctx.scope, ns));
  if (auto existing = store_->LoadPointer(ctx.scope, id, ObjectKind::kTable); existing) {
    return Fail(ErrorKind::kAlreadyExists, "Table already exists: " + FormatIdentifier(id));
  }
  metadata::CreateTableInput input;
  input.location = StripTrailingSlash(request.location.value_or(""));
  if (input.location.empty()) {
    FIRN_ASSIGN_OR_RETURN(input.location,
                          DefaultLocation(ctx, id, ObjectKind::kTable, ns_props));
  }
  // A default under the base location always passes; one under a namespace `location`
  // property (caller-settable) is checked like an explicit one.
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, input.location));
  input.schema = request.schema;
  input.partition_spec = request.partition_spec;
  input.write_order = request.write_order;
  input.properties = request.properties;
  FIRN_ASSIGN_OR_RETURN(metadata::TableMetadata meta,
                        metadata::NewTableMetadata(input, NowMillis()));
  // Where the table would live (and its data and metadata paths) must be free, staged or not:
  // a staged create that could never commit is refused now.
  FIRN_ASSIGN_OR_RETURN(store::LocationClaim claim,
                        CheckedTableClaim(ctx, OwnerOf(ctx, id, ObjectKind::kTable), meta));
  if (request.stage_create) {
    // Another catalog's claim on the store refuses the stage too; the claim is written when
    // the staged create commits.
    FIRN_RETURN_IF_ERROR(ClaimOnStore(ctx, id, meta, /*write=*/false));
    return LoadedTable{"", MakeCachedTable("", std::move(meta))};
  }
  const std::string file = metadata::NewMetadataLocation(meta, std::nullopt, writer_tag_);
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, file));  // write.metadata.path
  // The claim on the store first: of two catalogs creating here, one wins before either
  // writes metadata.
  FIRN_ASSIGN_OR_RETURN(std::optional<StoreClaim> store_claim,
                        ClaimOnStore(ctx, id, meta, /*write=*/true));
  if (auto st = WriteMetadataFile(ctx, id, ObjectKind::kTable, file,
                                  metadata::EncodeMetadataFile(meta, file));
      !st) {
    WithdrawClaim(ctx, store_claim);
    return Fail(st.error());
  }
  const store::AuditEntry audit =
      MakeAudit(ctx, Operation::kCreateTable, AuditObject(id, ObjectKind::kTable), "", file);
  if (auto st = store_->CreateObject(ctx.scope, id, ObjectKind::kTable, file, &audit, &claim);
      !st) {
    if (st.error().kind != ErrorKind::kCommitStateUnknown) {
      DiscardWritten(ctx, file);
      WithdrawClaim(ctx, store_claim);
    }
    return Fail(st.error());
  }
  ForgetPending(file);
  auto entry = MakeCachedTable(file, std::move(meta));
  cache_.Put(entry);
  return LoadedTable{file, entry};
}

Result<LoadedTable> CatalogService::LoadTable(const RequestContext& ctx, const Identifier& id) {
  const auto started = std::chrono::steady_clock::now();
  struct Timed {
    std::chrono::steady_clock::time_point started;
    ~Timed() {
      Metrics().load_seconds.Observe(std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::steady_clock::now() - started));
    }
  } timed{started};
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kLoadTable, id));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ctx, ptr.metadata_location));
  CheckForeignWritersAfterLoad(ctx, id, ptr, table);
  return LoadedTable{ptr.metadata_location, std::move(table)};
}

Status CatalogService::CheckMetadataFileExists(const RequestContext& ctx,
                                               const LoadedTable& table) {
  FIRN_ASSIGN_OR_RETURN(bool exists, ObjectsOf(ctx).Exists(table.metadata_location));
  if (!exists) {
    return Fail(ErrorKind::kNotFound,
                "Failed to open input stream for file: " + table.metadata_location);
  }
  return Ok();
}

Status CatalogService::TableExists(const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kTableExists, id));
  FIRN_RETURN_IF_ERROR(store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  return Ok();
}

Status CatalogService::DropTable(const RequestContext& ctx, const Identifier& id, bool purge) {
  FIRN_RETURN_IF_ERROR(
      AuthorizeObjectOp(ctx, purge ? Operation::kDropTablePurge : Operation::kDropTable, id));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  std::shared_ptr<const CachedTable> table;
  if (auto read = ReadMetadata(ctx, ptr.metadata_location); read) {
    table = *read;
  } else {
    spdlog::warn(R"("msg":"drop: metadata unreadable, dropping pointer only","file":"{}")",
                 log::Escape(ptr.metadata_location));
  }
  // A table on its way to another catalog is released by a drop without purge; its files are
  // the target's to keep.
  if (purge && !ptr.moving.empty()) {
    return Fail(ErrorKind::kCommitFailed,
                "Cannot purge table " + FormatIdentifier(id) +
                    ": it is moving to another catalog; release it with a drop without purge "
                    "(or cancel the move first)");
  }
  // A fenced table's files may be another catalog's too: no purge until the fence is resolved.
  if (purge && DecodeFence(ptr.fence).state == Fence::State::kFenced) {
    return Fail(ErrorKind::kCommitFailed,
                "Cannot purge table " + FormatIdentifier(id) +
                    ": it is fenced because another catalog wrote to it; resolve the fence "
                    "first (`firn admin fence`), or drop it without purge");
  }
  const store::AuditEntry audit =
      MakeAudit(ctx, purge ? Operation::kDropTablePurge : Operation::kDropTable,
                AuditObject(id, ObjectKind::kTable), ptr.metadata_location);
  // Soft delete (soft_delete.cc): kept, with its locations, for the catalog's retention; a
  // requested purge runs when it ends. Without a purge the table is released on the store at
  // once (another catalog may register it: register-then-release), and an undrop claims it
  // again if nobody else has; with one, the claim stays until the purge.
  if (const auto retention = RetentionOf(ctx); retention.count() > 0) {
    FIRN_RETURN_IF_ERROR(SoftDrop(ctx, id, ObjectKind::kTable, ptr,
                                  table ? table->metadata.table_uuid : "", purge, retention,
                                  audit));
    if (table && !purge) ReleaseStoreClaim(ctx, table->metadata);
    return Ok();
  }
  FIRN_RETURN_IF_ERROR(WithGrants(
      [&](const ObjectGrants& g) { return g.Drop(ctx.scope, ObjectKind::kTable, id, false); },
      [&](const store::GrantsPlan* plan) {
        return store_->DropObject(ctx.scope, id, ObjectKind::kTable, &audit, plan);
      }));
  if (table) ReleaseStoreClaim(ctx, table->metadata);
  if (!table || !purge) return Ok();
  // The purge is a durable task, stored once the drop has happened (never before: a drop that
  // then failed must purge nothing), run here for a budget and finished by the runner if need
  // be, after a crash too. A crash between the drop and this leaves files, never loses any.
  if (tasks_) {
    store::Task task;
    task.kind = std::string(kPurgeTableTask);
    task.realm = ctx.scope.realm;
    task.catalog = ctx.scope.catalog;
    task.object = AuditObject(id, ObjectKind::kTable);
    task.payload = EncodePurgeTask({id, ptr.metadata_location, table->metadata.table_uuid});
    auto queued = tasks_->Enqueue(std::move(task));
    if (queued) {
      auto state = tasks_->RunNow(*queued, inline_task_budget_);
      if (!state || *state == store::TaskState::kPending) tasks_->Kick();
      return Ok();
    }
    spdlog::warn(R"("msg":"purge task could not be stored; purging in the request","table":"{}",)"
                 R"("error":"{}")",
                 log::Escape(FormatIdentifier(id)), log::Escape(queued.error().message));
  }
  (void)PurgeOwnFiles(ctx, id, OwnerOf(ctx, id, ObjectKind::kTable), table->metadata,
                      ptr.metadata_location, [] { return true; });
  return Ok();
}

Status CatalogService::RenameTable(const RequestContext& ctx, const Identifier& from,
                                   const Identifier& to) {
  FIRN_RETURN_IF_ERROR(
      AuthorizeObjectOp(ctx, Operation::kRenameTable, from, std::nullopt, &to));
  FIRN_RETURN_IF_ERROR(ValidateIdentifier("destination name", to));
  if (from == to) return TableExists(ctx, from);
  const store::AuditEntry audit =
      MakeAudit(ctx, Operation::kRenameTable,
                AuditObject(from, ObjectKind::kTable) + " -> " + AuditObject(to, ObjectKind::kTable));
  return WithGrants(
      [&](const ObjectGrants& g) { return g.Rename(ctx.scope, ObjectKind::kTable, from, to); },
      [&](const store::GrantsPlan* plan) {
        return store_->RenameObject(ctx.scope, from, to, ObjectKind::kTable, &audit, plan);
      });
}

Status CatalogService::WithGrants(FunctionRef<store::GrantsPlan(const ObjectGrants&)> make,
                                  FunctionRef<Status(const store::GrantsPlan*)> write) {
  if (!grants_) return write(nullptr);
  const store::GrantsPlan plan = make(*grants_);
  Status st = write(&plan);
  if (st) grants_->Changed();
  return st;
}

Result<LoadedTable> CatalogService::RegisterTable(const RequestContext& ctx, const Identifier& id,
                                                  const std::string& metadata_location,
                                                  bool overwrite) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kRegisterTable, id));
  FIRN_RETURN_IF_ERROR(ValidateIdentifier("table name", id));
  // Overwriting may replace an existing table's metadata wholesale: it also needs what a
  // commit to that table would need at the least (Firn; Polaris has no overwrite rule).
  if (overwrite) {
    FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kUpdateTable, id));
  }
  FIRN_RETURN_IF_ERROR(store_->LoadNamespace(ctx.scope, id.ns));
  auto existing = store_->LoadPointer(ctx.scope, id, ObjectKind::kTable);
  if (existing && !overwrite) {
    return Fail(ErrorKind::kAlreadyExists, "Table already exists: " + FormatIdentifier(id));
  }
  // Overwriting a table on its way to another catalog would be a commit after the move began.
  if (existing && !existing->moving.empty()) return Fail(MovingCommitError(id, existing->moving));
  // Checked before the read: the catalog reads only files in its own locations.
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, metadata_location));
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ctx, metadata_location, /*caller_named=*/true));
  // The same table dropped softly in this catalog: the register brings it back, and its
  // dropped entry (with any purge it asked for) goes, freeing its locations.
  SupersedeDropped(ctx, ObjectKind::kTable, table->metadata.table_uuid, table->metadata.location);
  // The file itself must lie where the table it describes owns (no file borrowed from
  // elsewhere), and the table's location, data and metadata paths must be allowed and owned by
  // nobody else: the same table registered twice, in this catalog or another, is refused.
  FIRN_ASSIGN_OR_RETURN(store::LocationClaim claim,
                        CheckedTableClaim(ctx, OwnerOf(ctx, id, ObjectKind::kTable),
                                          table->metadata));
  if (!std::ranges::any_of(claim.locations, [&](const std::string& owned) {
        return IsUnder(metadata_location, owned);
      })) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid metadata location " + metadata_location +
                    ": it is not inside the table location it describes (" +
                    table->metadata.location + ")");
  }
  // The table may be another catalog's: its claim on the store refuses the register.
  FIRN_ASSIGN_OR_RETURN(std::optional<StoreClaim> store_claim,
                        ClaimOnStore(ctx, id, table->metadata, /*write=*/true));
  const store::AuditEntry audit =
      MakeAudit(ctx, Operation::kRegisterTable, AuditObject(id, ObjectKind::kTable),
                existing ? existing->metadata_location : "", metadata_location);
  Status written =
      existing ? store_->ReplacePointer(ctx.scope, id, ObjectKind::kTable, metadata_location,
                                        &audit, &claim)
               : store_->CreateObject(ctx.scope, id, ObjectKind::kTable, metadata_location,
                                      &audit, &claim);
  if (!written) {
    if (written.error().kind != ErrorKind::kCommitStateUnknown) WithdrawClaim(ctx, store_claim);
    return Fail(written.error());
  }
  // Metadata files another writer left in the directory before the register (its failed
  // commits, say) are acknowledged now, so that they never fence the table.
  if (!deployment_.empty()) {
    auto found = FindForeignMetadata(ObjectsOf(ctx), table->metadata, metadata_location,
                                     writer_tag_, Fence{}, /*full=*/true);
    if (found && !found->empty()) {
      (void)store_->SetFence(ctx.scope, id, ObjectKind::kTable,
                             EncodeFence(Fence{Fence::State::kKept, NowMillis(), *found}));
    }
  }
  return LoadedTable{metadata_location, std::move(table)};
}

Status CatalogService::ReportMetrics(const RequestContext& ctx, const Identifier& id,
                                     const std::string& report_type, std::string report_json) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(
      ctx,
      report_type == "commit-report" ? Operation::kReportCommitMetrics : Operation::kReportMetrics,
      id));
  FIRN_RETURN_IF_ERROR(store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  static metrics::Counter& stored =
      metrics::Default()
          .Counters("firn_metrics_reports_total", "Metrics reports received, by what became of them",
                    {"result"})
          .With({"stored"});
  static metrics::Counter& lost =
      metrics::Default().Counters("firn_metrics_reports_total", "").With({"not_stored"});
  if (metrics_report_retention_.count() <= 0) {
    lost.Inc();
    return Ok();
  }
  store::MetricsReport report{id, report_type, std::move(report_json), NowMillis()};
  if (auto st = store_->StoreMetricsReport(ctx.scope, report); !st) {
    lost.Inc();
    spdlog::warn(R"("msg":"metrics report not stored","table":"{}","error":"{}")",
                 log::Escape(FormatIdentifier(id)), log::Escape(st.error().message));
    return Ok();
  }
  stored.Inc();
  return Ok();
}

Result<std::vector<store::MetricsReport>> CatalogService::ListMetricsReports(
    const RequestContext& ctx, const store::MetricsReportQuery& query) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kListMetricsReports, query.table));
  FIRN_RETURN_IF_ERROR(store_->LoadPointer(ctx.scope, query.table, ObjectKind::kTable));
  return store_->ListMetricsReports(ctx.scope, query);
}

Status CatalogService::ExpireMetricsReports() {
  if (metrics_report_retention_.count() <= 0) return Ok();
  const int64_t cutoff =
      NowMillis() - std::chrono::duration_cast<std::chrono::milliseconds>(
                        metrics_report_retention_).count();
  FIRN_ASSIGN_OR_RETURN(int64_t deleted, store_->DeleteMetricsReportsBefore(cutoff));
  if (deleted > 0) {
    spdlog::info(R"("msg":"metrics reports expired","count":{})", deleted);
  }
  return Ok();
}

}  // namespace firn::catalog
