// CatalogService: purge as a durable task (catalog/task_runner.h, docs/tasks.md). Part of
// catalog_service.h.
#include <boost/json.hpp>
#include <spdlog/spdlog.h>

#include "catalog/catalog_service.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "catalog/maintenance.h"
#include "catalog/purge.h"
#include "catalog/soft_delete.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::catalog {

using store::ObjectKind;

void CatalogService::AttachTasks(std::shared_ptr<TaskRunner> runner, CatalogResolver resolve,
                                 std::chrono::milliseconds inline_budget) {
  tasks_ = std::move(runner);
  resolve_catalog_ = std::move(resolve);
  inline_task_budget_ = inline_budget;
  tasks_->Register(std::string(kPurgeTableTask),
                   [this](const store::Task& task, TaskControl& control) {
                     return RunPurgeTask(task, control);
                   });
  for (std::string_view kind : {kExpireSnapshotsTask, kRemoveOrphansTask}) {
    tasks_->Register(std::string(kind), [this](const store::Task& task, TaskControl& control) {
      return RunMaintenanceTask(task, control);
    });
  }
  tasks_->Register(std::string(kMaintenanceSweepTask),
                   [this](const store::Task& task, TaskControl& control) {
                     return RunMaintenanceSweep(task, control);
                   });
  tasks_->Register(std::string(kExpireDroppedTask),
                   [this](const store::Task& task, TaskControl& control) {
                     return RunExpireDroppedTask(task, control);
                   });
  // Every instance expires metrics reports past their retention (an idempotent DELETE).
  tasks_->AddPeriodic(std::chrono::minutes(10), [this] {
    if (auto st = ExpireMetricsReports(); !st) {
      spdlog::warn(R"("msg":"expiry of metrics reports failed","error":"{}")",
                   log::Escape(st.error().message));
    }
  });
  // Every instance sweeps the commit intents of instances that are gone (pending_files.cc).
  if (!instance_.empty()) {
    tasks_->AddPeriodic(pending_limits_.sweep_every, [this] {
      auto swept = SweepPendingFiles();
      if (!swept) {
        spdlog::warn(R"("msg":"sweep of commit intents failed","error":"{}")",
                     log::Escape(swept.error().message));
      }
    });
  }
}

Result<TaskOutcome> CatalogService::RunPurgeTask(const store::Task& task, TaskControl& control) {
  FIRN_ASSIGN_OR_RETURN(PurgeTask purge, DecodePurgeTask(task.payload));
  RequestContext ctx = TaskContextOf(task);
  // Files deleted by earlier runs of this task (it may be continued after a stop or a crash).
  int64_t before = 0;
  if (!task.progress.empty()) {
    boost::system::error_code ec;
    auto doc = boost::json::parse(task.progress, ec);
    if (!ec && doc.is_object()) {
      if (auto* d = doc.as_object().if_contains("deleted"); d && d->is_int64()) {
        before = d->as_int64();
      }
    }
  }
  auto progress = [&](int64_t deleted, int64_t skipped, std::string_view note) {
    boost::json::object o;
    o["deleted"] = before + deleted;
    o["skipped"] = skipped;
    if (!note.empty()) o["note"] = note;
    control.SetProgress(boost::json::serialize(o));
  };
  // Never the files of a live table: the name may hold the same table again (registered back
  // from its files before the purge ran), or the drop may not have happened at all.
  auto live = store_->LoadPointer(ctx.scope, purge.id, ObjectKind::kTable);
  if (live) {
    if (live->metadata_location == purge.metadata_location) {
      progress(0, 0, "the table was not dropped; nothing purged");
      return TaskOutcome::kDone;
    }
    FIRN_ASSIGN_OR_RETURN(auto current, ReadMetadata(ctx, live->metadata_location));
    if (current->metadata.table_uuid == purge.table_uuid) {
      progress(0, 0, "the table is live again under its name; nothing purged");
      return TaskOutcome::kDone;
    }
  } else if (live.error().kind != ErrorKind::kNoSuchTable &&
             live.error().kind != ErrorKind::kNoSuchNamespace) {
    return Fail(live.error());
  }
  auto table = ReadMetadata(ctx, purge.metadata_location);
  if (!table) {
    // The current metadata file goes last: without it, an earlier run finished.
    if (table.error().kind == ErrorKind::kNotFound) {
      progress(0, 0, "");
      return TaskOutcome::kDone;
    }
    return Fail(table.error());
  }
  const store::LocationOwner owner = OwnerOf(ctx, purge.id, ObjectKind::kTable);
  auto purged = PurgeOwnFiles(ctx, purge.id, owner, (*table)->metadata, purge.metadata_location,
                              [&] { return control.KeepGoing(); });
  if (!purged) {
    if (purged.error().kind == ErrorKind::kServiceUnavailable) return TaskOutcome::kStopped;
    return Fail(purged.error());
  }
  const PurgeResult& result = *purged;
  progress(static_cast<int64_t>(result.deleted), static_cast<int64_t>(result.skipped), "");
  return result.finished ? TaskOutcome::kDone : TaskOutcome::kStopped;
}

Result<PurgeResult> CatalogService::PurgeOwnFiles(const RequestContext& ctx,
                                                 const Identifier& id,
                                                 const store::LocationOwner& owner,
                                                 const metadata::TableMetadata& meta,
                                                 const std::string& metadata_location,
                                                 FunctionRef<bool()> keep_going) {
  // Never a file another table, live or dropped, references (PyIceberg's add_files, a copied
  // snapshot): those stay, counted as skipped. A manifest of another table that cannot be read
  // is skipped here: the purge was asked for, and its files lie in its own location.
  // The table being purged is no live object any more: its old name may hold a new table
  // now, which is "another table" like any other (its own dropped entry is skipped by its
  // location).
  (void)id;
  FIRN_ASSIGN_OR_RETURN(std::set<std::string> elsewhere,
                        ReferencedByOthers(ctx, Identifier{}, meta.location, keep_going,
                                           /*strict=*/false));
  return PurgeTableFiles(
      ObjectsOf(ctx), meta, metadata_location,
      [&](std::string_view file) {
        auto canonical = NormalizeLocation(file);
        const std::string key = canonical ? *canonical : std::string(file);
        return !elsewhere.contains(key) && DeletableFor(*store_, owner, file);
      },
      keep_going);
}

}  // namespace firn::catalog
