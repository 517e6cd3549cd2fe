// CatalogService: catalog-side maintenance — expire snapshots, remove orphan files — as
// durable tasks with a dry run (catalog/maintenance.h, docs/maintenance.md). Part of
// catalog_service.h.
#include <boost/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>

#include "catalog/audit.h"
#include "catalog/authorization.h"
#include "catalog/catalog_service.h"
#include "catalog/foreign_writers.h"
#include "catalog/identifiers.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "catalog/maintenance.h"
#include "catalog/purge.h"
#include "catalog/soft_delete.h"
#include "catalog/store_claims.h"
#include "catalog/store_walk.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::catalog {

using auth::Operation;
using store::ObjectKind;

namespace {

bool SharedLocations(const CatalogInfo& catalog) {
  auto it = catalog.properties.find(std::string(kSharedLocationsProperty));
  return it != catalog.properties.end() && it->second == "true";
}

// The commit of an expiry: remove exactly `expired` from exactly this version (a concurrent
// commit makes a requirement fail; the next run plans afresh). Out of line: g++ 12 sees
// uninitialised variant members in the requirements when it is inlined (a false positive).
[[gnu::noinline]] TableChange ExpiryChange(const store::Identifier& id,
                                           const metadata::TableMetadata& meta,
                                           const std::vector<int64_t>& expired) {
  TableChange change;
  change.id = id;
  change.requirements.reserve(meta.refs.size() + 1);
  change.requirements.emplace_back(metadata::AssertTableUuid{meta.table_uuid});
  for (const auto& [name, ref] : meta.refs) {
    change.requirements.emplace_back(metadata::AssertRefSnapshotId{name, ref.snapshot_id});
  }
  change.updates.emplace_back(metadata::RemoveSnapshots{expired});
  // A tag or branch made on an expired snapshot after the plan (a retry's newer base): the
  // removal would take the new ref with it.
  change.also_require = [expired](const metadata::TableMetadata& base) {
    return CheckNoRefOnExpired(base, expired);
  };
  return change;
}

// Paths compared as the location index compares them (s3a:// = s3://, file:/x = file:///x): a
// file the metadata names one way and a listing returns another is still the same file.
std::string Canon(std::string_view uri) {
  auto n = NormalizeLocation(uri);
  return n ? std::move(*n) : std::string(uri);
}

void AddListed(MaintenanceReport& report, const std::string& file, int64_t bytes) {
  ++report.file_count;
  report.bytes += bytes;
  if (report.files.size() < kMaxListedFiles) report.files.push_back(file);
}

}  // namespace

Result<std::set<std::string>> CatalogService::ReferencedByOthers(
    const RequestContext& ctx, const Identifier& self, const std::string& location,
    FunctionRef<bool()> keep_going, bool strict) {
  std::set<std::string> out;
  bool stopped = false;
  // Files of `meta` that lie under `location`. Manifests are read wherever they are: this set
  // only keeps files.
  auto add = [&](const RequestContext& other_ctx, const std::string& metadata_location) -> Status {
    auto table = ReadMetadata(other_ctx, metadata_location);
    if (!table) {
      // Gone: it references nothing that can still matter. Unreadable: unknown, so strict
      // callers refuse.
      if (!strict || table.error().kind == ErrorKind::kNotFound) return Ok();
      return Fail(ErrorKind::kCommitFailed,
                  "Cannot tell which files other tables reference: " + metadata_location +
                      " could not be read (" + table.error().message + ")");
    }
    // The same table (its own dropped entry, or a twin in a catalog sharing locations, whose
    // paths DeletableFor protects) is not another table.
    if ((*table)->metadata.location == location) return Ok();
    auto refs = CollectReferencedFiles(ObjectsOf(other_ctx), (*table)->metadata, "",
                                       /*with_content=*/true, keep_going);
    if (!refs) {
      stopped = true;
      return Fail(ErrorKind::kServiceUnavailable, "stopped");
    }
    if (!refs->complete && strict) {
      // A manifest that could not be read may name anything: refuse rather than guess.
      return Fail(ErrorKind::kCommitFailed,
                  "Cannot tell which files other tables reference: a manifest of " +
                      metadata_location + " could not be read");
    }
    for (const auto* set : {&refs->content, &refs->manifests, &refs->manifest_lists,
                            &refs->others}) {
      for (const std::string& f : *set) {
        if (IsUnder(f, location)) out.insert(Canon(f));
      }
    }
    if (IsUnder(metadata_location, location)) out.insert(Canon(metadata_location));
    return Ok();
  };
  FIRN_ASSIGN_OR_RETURN(std::vector<store::CatalogScope> scopes, store_->ListCatalogScopes());
  for (const store::CatalogScope& scope : scopes) {
    if (scope.realm != ctx.scope.realm) continue;
    RequestContext other = ctx;
    other.scope = scope;
    if (scope.catalog != ctx.scope.catalog) {
      other.catalog = resolve_catalog_ ? resolve_catalog_(scope) : nullptr;
    }
    Status walked = ForEachObject(
        *store_, scope, {}, ObjectKind::kTable, [&](const Identifier& id) -> Status {
          if (scope.catalog == ctx.scope.catalog && id == self) return Ok();
          auto ptr = store_->LoadPointer(scope, id, ObjectKind::kTable);
          if (!ptr) return Ok();  // dropped meanwhile
          return add(other, ptr->metadata_location);
        });
    if (walked) {
      walked = EachPage<store::DroppedObject>(
          [&](const store::PageRequest& p) { return store_->ListDroppedObjects(scope, p); },
          [&](const store::DroppedObject& d) -> Status {
            if (d.kind != ObjectKind::kTable) return Ok();
            return add(other, d.metadata_location);
          });
    }
    if (!walked) {
      if (stopped) return Fail(ErrorKind::kServiceUnavailable, "stopped");
      return Fail(walked.error());
    }
  }
  return out;
}

Status CatalogService::CheckMaintainable(const RequestContext& ctx, const Identifier& id,
                                         const store::ObjectPointer& ptr,
                                         const metadata::TableMetadata& meta) {
  if (!ptr.moving.empty()) return Fail(MovingCommitError(id, ptr.moving));
  if (DecodeFence(ptr.fence).state == Fence::State::kFenced) {
    return Fail(ErrorKind::kCommitFailed,
                "Cannot maintain table " + FormatIdentifier(id) +
                    ": it is fenced because another catalog wrote to it; resolve the fence "
                    "first (`firn admin fence`)");
  }
  const CatalogInfo& info = ctx.catalog ? *ctx.catalog : catalogs_.Default();
  if (SharedLocations(info)) {
    return Fail(ErrorKind::kCommitFailed,
                "Cannot maintain table " + FormatIdentifier(id) + ": catalog " + info.name +
                    " lets tables share locations (" + std::string(kSharedLocationsProperty) +
                    "), so no file can be known to be this table's alone");
  }
  // Another owner at or above the table's location (an older database's twin, say).
  FIRN_ASSIGN_OR_RETURN(std::string normal, NormalizeLocation(meta.location));
  FIRN_ASSIGN_OR_RETURN(auto holders, store_->LocationHolders(normal));
  const store::LocationOwner self = OwnerOf(ctx, id, ObjectKind::kTable);
  for (const store::HeldLocation& h : holders) {
    if (h.owner == self || h.owner.kind == store::LocationOwnerKind::kCatalog ||
        h.owner.kind == store::LocationOwnerKind::kNamespace) {
      continue;
    }
    return Fail(ErrorKind::kCommitFailed,
                "Cannot maintain table " + FormatIdentifier(id) + ": its location " +
                    meta.location + " is shared with another table or view");
  }
  // Another deployment's claim: the table is not (or no longer) ours alone.
  FIRN_RETURN_IF_ERROR(ClaimOnStore(ctx, id, meta, /*write=*/false));
  return Ok();
}

Result<MaintenanceReport> CatalogService::Maintain(const RequestContext& ctx,
                                                   const Identifier& id,
                                                   const MaintenanceRequest& request) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kMaintainTable, id));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ctx, ptr.metadata_location));
  FIRN_RETURN_IF_ERROR(CheckMaintainable(ctx, id, ptr, table->metadata));
  if (request.action == MaintenanceAction::kRemoveOrphanFiles && request.older_than_ms &&
      *request.older_than_ms < kMinOrphanAgeMs) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid maintenance request: 'olderThan' must be at least 1h for "
                "remove-orphan-files (a writer may not have committed younger files yet)");
  }
  if (request.dry_run || !tasks_) {
    return RunMaintenanceStep(ctx, id, request, "", [] { return true; }, nullptr);
  }
  store::Task task;
  task.kind = std::string(MaintenanceActionName(request.action));
  task.realm = ctx.scope.realm;
  task.catalog = ctx.scope.catalog;
  task.object = AuditObject(id, ObjectKind::kTable);
  task.payload = EncodeMaintenanceTask({id, request});
  FIRN_ASSIGN_OR_RETURN(std::string task_id, tasks_->Enqueue(std::move(task)));
  auto state = tasks_->RunNow(task_id, inline_task_budget_);
  MaintenanceReport report;
  report.action = request.action;
  report.finished = state && *state == store::TaskState::kDone;
  report.note = "task " + task_id + (report.finished ? " done" : " continues in the background") +
                "; GET /api/management/v1/tasks shows its progress";
  if (!report.finished) tasks_->Kick();
  // The task's own account, when it finished here.
  store::TaskFilter filter;
  filter.realm = ctx.scope.realm;
  filter.kind = std::string(MaintenanceActionName(request.action));
  filter.limit = 20;
  if (auto listed = store_->ListTasks(filter); listed) {
    for (const store::Task& t : *listed) {
      if (t.id != task_id || t.progress.empty()) continue;
      boost::system::error_code ec;
      auto doc = boost::json::parse(t.progress, ec);
      if (ec || !doc.is_object()) break;
      const auto& o = doc.as_object();
      if (auto* v = o.if_contains("fileCount"); v && v->is_int64()) report.file_count = v->as_int64();
      if (auto* v = o.if_contains("deleted"); v && v->is_int64()) report.deleted = v->as_int64();
      if (auto* v = o.if_contains("bytes"); v && v->is_int64()) report.bytes = v->as_int64();
      if (auto* v = o.if_contains("keptReferencedElsewhere"); v && v->is_int64()) {
        report.kept_referenced_elsewhere = v->as_int64();
      }
      if (auto* v = o.if_contains("expiredSnapshots"); v && v->is_array()) {
        for (const auto& s : v->as_array()) {
          if (s.is_int64()) report.expired_snapshots.push_back(s.as_int64());
        }
      }
      if (auto* v = o.if_contains("files"); v && v->is_array()) {
        for (const auto& f : v->as_array()) {
          if (f.is_string()) report.files.emplace_back(f.as_string());
        }
      }
      break;
    }
  }
  return report;
}

Result<TaskOutcome> CatalogService::RunMaintenanceTask(const store::Task& task,
                                                       TaskControl& control) {
  FIRN_ASSIGN_OR_RETURN(MaintenanceTask m, DecodeMaintenanceTask(task.payload));
  RequestContext ctx = TaskContextOf(task);
  auto ptr = store_->LoadPointer(ctx.scope, m.id, ObjectKind::kTable);
  if (!ptr) {
    if (ptr.error().kind == ErrorKind::kNoSuchTable ||
        ptr.error().kind == ErrorKind::kNoSuchNamespace) {
      control.SetProgress(R"({"note":"the table is gone; nothing to do"})");
      return TaskOutcome::kDone;
    }
    return Fail(ptr.error());
  }
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ctx, ptr->metadata_location));
  FIRN_RETURN_IF_ERROR(CheckMaintainable(ctx, m.id, *ptr, table->metadata));
  auto ran = RunMaintenanceStep(ctx, m.id, m.request, task.progress,
                                [&] { return control.KeepGoing(); }, &control);
  if (!ran) {
    // Stopped part way (budget, shutdown): continued later, not counted as a failure.
    if (ran.error().kind == ErrorKind::kServiceUnavailable && ran.error().message == "stopped") {
      return TaskOutcome::kStopped;
    }
    return Fail(ran.error());
  }
  MaintenanceReport& report = *ran;
  boost::json::object progress = MaintenanceReportJson(report);
  control.SetProgress(boost::json::serialize(progress));
  return report.finished ? TaskOutcome::kDone : TaskOutcome::kStopped;
}

Result<MaintenanceReport> CatalogService::RunMaintenanceStep(const RequestContext& ctx,
                                                             const Identifier& id,
                                                             const MaintenanceRequest& request,
                                                             const std::string& progress,
                                                             FunctionRef<bool()> keep_going,
                                                             TaskControl* control) {
  return request.action == MaintenanceAction::kExpireSnapshots
             ? ExpireTableSnapshots(ctx, id, request, progress, keep_going, control)
             : RemoveTableOrphans(ctx, id, request, keep_going);
}

Result<MaintenanceReport> CatalogService::ExpireTableSnapshots(
    const RequestContext& ctx, const Identifier& id, const MaintenanceRequest& request,
    const std::string& progress, FunctionRef<bool()> keep_going, TaskControl* control) {
  MaintenanceReport report;
  report.action = MaintenanceAction::kExpireSnapshots;
  report.dry_run = request.dry_run;
  // A run that committed and then stopped (or crashed) resumes from the two files it recorded:
  // the files to delete are those the base reached and the commit no longer does.
  std::string base_location, committed_location;
  if (!progress.empty()) {
    boost::system::error_code ec;
    auto doc = boost::json::parse(progress, ec);
    if (!ec && doc.is_object()) {
      const auto& o = doc.as_object();
      if (auto* b = o.if_contains("base"); b && b->is_string()) base_location = b->as_string();
      if (auto* c = o.if_contains("committed"); c && c->is_string()) {
        committed_location = c->as_string();
      }
    }
  }
  std::shared_ptr<const CachedTable> base, after;
  if (!base_location.empty() && !committed_location.empty()) {
    FIRN_ASSIGN_OR_RETURN(base, ReadMetadata(ctx, base_location));
    FIRN_ASSIGN_OR_RETURN(after, ReadMetadata(ctx, committed_location));
  } else {
    FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                          store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
    FIRN_ASSIGN_OR_RETURN(base, ReadMetadata(ctx, ptr.metadata_location));
    base_location = ptr.metadata_location;
    const metadata::TableMetadata& meta = base->metadata;
    const int64_t age = request.older_than_ms.value_or(TableMaxSnapshotAgeMs(meta));
    const int keep = request.retain_last.value_or(TableMinSnapshotsToKeep(meta));
    report.expired_snapshots = SnapshotsToExpire(meta, NowMillis(), age, keep);
    if (report.expired_snapshots.empty()) {
      report.note = "no snapshot to expire";
      return report;
    }
    if (request.dry_run) {
      metadata::TableMetadata kept = meta;
      std::erase_if(kept.snapshots, [&](const metadata::Snapshot& s) {
        return std::ranges::binary_search(report.expired_snapshots, s.snapshot_id);
      });
      auto before_refs = CollectReferencedFiles(ObjectsOf(ctx), meta, "", true, keep_going);
      auto after_refs = CollectReferencedFiles(ObjectsOf(ctx), kept, "", true, keep_going);
      if (!before_refs || !after_refs) {
        report.finished = false;
        return report;
      }
      for (const auto* set : {&before_refs->content, &before_refs->manifests,
                              &before_refs->manifest_lists}) {
        for (const std::string& f : *set) {
          if (!after_refs->Contains(f) && IsUnder(f, meta.location)) AddListed(report, f, 0);
        }
      }
      return report;
    }
    FIRN_ASSIGN_OR_RETURN(LoadedTable committed,
                          CommitTable(ctx, ExpiryChange(id, meta, report.expired_snapshots)));
    committed_location = committed.metadata_location;
    after = committed.table;
    report.base_location = base_location;
    report.committed_location = committed_location;
    if (control) control->SetProgress(boost::json::serialize(MaintenanceReportJson(report)));
  }
  report.base_location = base_location;
  report.committed_location = committed_location;
  // Files only the expired snapshots reached, inside the table's own location, that no other
  // table (live or dropped) references.
  const metadata::TableMetadata& meta = base->metadata;
  if (report.expired_snapshots.empty()) {
    for (const auto& s : meta.snapshots) {
      const bool still = std::ranges::any_of(after->metadata.snapshots, [&](const auto& k) {
        return k.snapshot_id == s.snapshot_id;
      });
      if (!still) report.expired_snapshots.push_back(s.snapshot_id);
    }
  }
  auto before_refs = CollectReferencedFiles(ObjectsOf(ctx), meta, "", true, keep_going);
  auto after_refs = CollectReferencedFiles(ObjectsOf(ctx), after->metadata, "", true, keep_going);
  if (!before_refs || !after_refs) {
    report.finished = false;
    return report;
  }
  if (!after_refs->complete) {
    report.note = "a manifest of the table could not be read; no file deleted";
    return report;
  }
  FIRN_ASSIGN_OR_RETURN(std::set<std::string> elsewhere,
                        ReferencedByOthers(ctx, id, meta.location, keep_going));
  std::set<std::string> still;  // what the retained snapshots reach, canonical
  for (const auto* set : {&after_refs->content, &after_refs->manifests,
                          &after_refs->manifest_lists, &after_refs->others}) {
    for (const std::string& f : *set) still.insert(Canon(f));
  }
  const store::LocationOwner owner = OwnerOf(ctx, id, ObjectKind::kTable);
  // Leaves first, so that a run stopped part way leaves nothing a remaining file needs.
  for (const auto* set : {&before_refs->content, &before_refs->manifests,
                          &before_refs->manifest_lists}) {
    for (const std::string& f : *set) {
      if (still.contains(Canon(f)) || !IsUnder(f, meta.location)) continue;
      if (elsewhere.contains(Canon(f))) {
        ++report.kept_referenced_elsewhere;
        continue;
      }
      if (!DeletableFor(*store_, owner, f)) continue;
      if (!keep_going()) {
        report.finished = false;
        return report;
      }
      AddListed(report, f, 0);
      if (auto st = ObjectsOf(ctx).Delete(f); st) ++report.deleted;
    }
  }
  return report;
}

Result<MaintenanceReport> CatalogService::RemoveTableOrphans(const RequestContext& ctx,
                                                             const Identifier& id,
                                                             const MaintenanceRequest& request,
                                                             FunctionRef<bool()> keep_going) {
  MaintenanceReport report;
  report.action = MaintenanceAction::kRemoveOrphanFiles;
  report.dry_run = request.dry_run;
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ctx, ptr.metadata_location));
  const metadata::TableMetadata& meta = table->metadata;
  io::ObjectStore& objects = ObjectsOf(ctx);
  // Everything any metadata file of the chain references (time travel to an older metadata
  // file must keep working), and the chain's files themselves.
  std::set<std::string> keep{Canon(ptr.metadata_location), Canon(StoreClaimUri(meta.location))};
  std::vector<std::string> chain{ptr.metadata_location};
  for (const auto& entry : meta.metadata_log) chain.push_back(entry.metadata_file);
  for (const std::string& file : chain) {
    keep.insert(Canon(file));
    Result<std::shared_ptr<const CachedTable>> m =
        file == ptr.metadata_location ? Result<std::shared_ptr<const CachedTable>>(table)
                                      : ReadMetadata(ctx, file);
    if (!m) {
      // An older file already deleted names nothing that can still matter; one that cannot be
      // read may name anything.
      if (m.error().kind == ErrorKind::kNotFound) continue;
      return Fail(ErrorKind::kCommitFailed,
                  "Cannot remove orphan files of table " + FormatIdentifier(id) + ": " + file +
                      " could not be read (" + m.error().message + ")");
    }
    auto refs = CollectReferencedFiles(objects, (*m)->metadata, "", true, keep_going);
    if (!refs) {
      report.finished = false;
      return report;
    }
    if (!refs->complete) {
      return Fail(ErrorKind::kCommitFailed,
                  "Cannot remove orphan files of table " + FormatIdentifier(id) +
                      ": a manifest list or manifest of " + file +
                      " could not be read, so what it references is unknown");
    }
    for (const auto* set : {&refs->content, &refs->manifests, &refs->manifest_lists,
                            &refs->others}) {
      for (const std::string& f : *set) keep.insert(Canon(f));
    }
  }
  FIRN_ASSIGN_OR_RETURN(std::set<std::string> elsewhere,
                        ReferencedByOthers(ctx, id, meta.location, keep_going));
  const int64_t age = std::max(request.older_than_ms.value_or(kDefaultOrphanAgeMs),
                               kMinOrphanAgeMs);
  const int64_t cutoff = NowMillis() - age;
  std::string prefix = meta.location;
  if (!prefix.ends_with('/')) prefix += '/';
  FIRN_ASSIGN_OR_RETURN(std::vector<io::ObjectInfo> listed, objects.List(prefix));
  const store::LocationOwner owner = OwnerOf(ctx, id, ObjectKind::kTable);
  for (const io::ObjectInfo& file : listed) {
    const std::string canonical = Canon(file.uri);
    if (keep.contains(canonical)) continue;
    // Unknown or recent modification time: a writer may still be about to commit it.
    if (file.modified_ms == 0 || file.modified_ms >= cutoff) continue;
    // Metadata files another writer left are fence evidence, never orphans to delete here.
    if (file.uri.ends_with(".metadata.json") &&
        !WrittenBy(file.uri, writer_tag_)) {
      continue;
    }
    if (elsewhere.contains(canonical)) {
      ++report.kept_referenced_elsewhere;
      continue;
    }
    if (!DeletableFor(*store_, owner, file.uri)) continue;
    if (!keep_going()) {
      report.finished = false;
      return report;
    }
    AddListed(report, file.uri, file.size);
    if (request.dry_run) continue;
    if (auto st = objects.Delete(file.uri); st) ++report.deleted;
  }
  return report;
}

}  // namespace firn::catalog

namespace firn::catalog {

namespace {

// Deterministic ids make each period's sweep, and each table's job of a period, exist once
// however many instances enqueue them.
std::string SweepId(int64_t slot) { return std::string(kMaintenanceSweepTask) + ":" + std::to_string(slot); }

}  // namespace

std::optional<std::string> CatalogService::PolicyValue(const RequestContext& ctx,
                                                       const Identifier& id,
                                                       const metadata::TableMetadata& meta,
                                                       std::string_view key) {
  const std::string k(key);
  if (auto it = meta.properties.find(k); it != meta.properties.end()) return it->second;
  // The namespace, then its parents, innermost first.
  for (size_t depth = id.ns.size(); depth > 0; --depth) {
    const store::Namespace ns(id.ns.begin(), id.ns.begin() + static_cast<ptrdiff_t>(depth));
    auto props = store_->LoadNamespace(ctx.scope, ns);
    if (!props) continue;
    if (auto it = props->find(k); it != props->end()) return it->second;
  }
  const CatalogInfo& info = ctx.catalog ? *ctx.catalog : catalogs_.Default();
  if (auto it = info.properties.find(k); it != info.properties.end()) return it->second;
  return std::nullopt;
}

void CatalogService::ScheduleMaintenance(std::chrono::milliseconds every) {
  sweep_every_ = every;
  if (!tasks_) return;
  const int64_t period = std::max<int64_t>(sweep_every_.count(), 1);
  const int64_t slot = NowMillis() / period;
  store::Task sweep;
  sweep.id = SweepId(slot);
  sweep.kind = std::string(kMaintenanceSweepTask);
  sweep.realm = "";
  sweep.catalog = "";
  sweep.object = "every table with a maintenance policy";
  sweep.payload = "{}";
  auto queued = tasks_->Enqueue(std::move(sweep));
  if (!queued && queued.error().kind != ErrorKind::kAlreadyExists) {
    spdlog::warn(R"("msg":"maintenance sweep not scheduled","error":"{}")",
                 log::Escape(queued.error().message));
  }
}

Result<TaskOutcome> CatalogService::RunMaintenanceSweep(const store::Task& task,
                                                        TaskControl& control) {
  const int64_t period = std::max<int64_t>(sweep_every_.count(), 1);
  const int64_t now = NowMillis();
  int64_t tables = 0, queued = 0;
  FIRN_ASSIGN_OR_RETURN(std::vector<store::CatalogScope> scopes, store_->ListCatalogScopes());
  for (const store::CatalogScope& scope : scopes) {
    RequestContext ctx;
    ctx.scope = scope;
    ctx.request_id = "task-" + task.id;
    if (resolve_catalog_) ctx.catalog = resolve_catalog_(scope);
    Status walked = ForEachObject(
        *store_, scope, {}, ObjectKind::kTable, [&](const Identifier& id) -> Status {
          if (!control.KeepGoing()) return Fail(ErrorKind::kServiceUnavailable, "stopped");
          auto ptr = store_->LoadPointer(scope, id, ObjectKind::kTable);
          if (!ptr) return Ok();
          auto table = ReadMetadata(ctx, ptr->metadata_location);
          if (!table) return Ok();
          ++tables;
          for (MaintenanceAction action :
               {MaintenanceAction::kExpireSnapshots, MaintenanceAction::kRemoveOrphanFiles}) {
            const std::string_view key = action == MaintenanceAction::kExpireSnapshots
                                             ? kExpirePolicyProperty
                                             : kOrphanPolicyProperty;
            if (PolicyValue(ctx, id, (*table)->metadata, key).value_or("off") != "on") continue;
            auto every = ParseDuration(
                PolicyValue(ctx, id, (*table)->metadata, kIntervalProperty).value_or("1d"));
            const int64_t interval =
                every && every->count() > 0
                    ? std::chrono::duration_cast<std::chrono::milliseconds>(*every).count()
                    : int64_t{24} * 3600 * 1000;
            MaintenanceRequest request;
            request.action = action;
            if (action == MaintenanceAction::kRemoveOrphanFiles) {
              if (auto age = PolicyValue(ctx, id, (*table)->metadata, kOrphanAgeProperty)) {
                if (auto parsed = ParseDuration(*age)) {
                  request.older_than_ms =
                      std::chrono::duration_cast<std::chrono::milliseconds>(*parsed).count();
                }
              }
            }
            store::Task job;
            job.id = std::string(MaintenanceActionName(action)) + ":" + scope.realm + ":" +
                     scope.catalog + ":" + FormatIdentifier(id) + ":" +
                     std::to_string(now / interval);
            job.kind = std::string(MaintenanceActionName(action));
            job.realm = scope.realm;
            job.catalog = scope.catalog;
            job.object = AuditObject(id, ObjectKind::kTable);
            job.payload = EncodeMaintenanceTask({id, request});
            auto added = tasks_->Enqueue(std::move(job));
            if (added) ++queued;
          }
          return Ok();
        });
    if (!walked) {
      if (walked.error().message == "stopped") return TaskOutcome::kStopped;
      spdlog::warn(R"("msg":"maintenance sweep: a catalog could not be walked","catalog":"{}",)"
                   R"("error":"{}")",
                   log::Escape(scope.catalog), log::Escape(walked.error().message));
    }
  }
  // The next period's sweep (another instance may have stored it already).
  store::Task next;
  next.id = SweepId(now / period + 1);
  next.kind = std::string(kMaintenanceSweepTask);
  next.object = task.object;
  next.payload = "{}";
  next.not_before_ms = (now / period + 1) * period;
  (void)tasks_->Enqueue(std::move(next));
  boost::json::object progress;
  progress["tables"] = tables;
  progress["queued"] = queued;
  control.SetProgress(boost::json::serialize(progress));
  if (queued > 0) tasks_->Kick();
  return TaskOutcome::kDone;
}

}  // namespace firn::catalog
