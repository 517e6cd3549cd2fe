// CatalogService: commit intents, so that no metadata file a commit wrote outlives the commit
// unless its pointer moved to it (docs/recovery.md, "No stray metadata files"). Part of
// catalog_service.h.
//
// Before a create or commit writes its metadata file it records the file (store PendingFile).
// Once the outcome is known the record goes: the pointer moved, or the file was deleted. A
// crash in between (kill -9, a lost instance) leaves the record, and the sweep of every
// instance resolves it once its writer is gone: a file that became the pointer, or that the
// object's chain lists, stays; any other is deleted. So after a database loss only commits in
// flight at that moment can leave a stray for `firn recover` to meet.
#include <spdlog/spdlog.h>

#include <set>

#include "catalog/catalog_service.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::catalog {

using store::ObjectKind;

namespace {
std::string_view FileNameOf(std::string_view uri) {
  const size_t slash = uri.find_last_of('/');
  return slash == std::string_view::npos ? uri : uri.substr(slash + 1);
}
}  // namespace

Result<int64_t> CatalogService::WriteMetadataFile(const RequestContext& ctx, const Identifier& id,
                                                  ObjectKind kind, const std::string& location,
                                                  std::string_view bytes) {
  int64_t pending_ms = 0;
  if (!instance_.empty()) {
    store::PendingFile pending{location, ctx.scope, id, kind, instance_, NowMillis()};
    FIRN_RETURN_IF_ERROR(store_->AddPendingFile(pending));
    pending_ms = pending.created_ms;
  }
  if (Status written = ObjectsOf(ctx).WriteNew(location, bytes); !written) {
    // Nothing was written (a create-only write that failed leaves no object): the intent goes.
    if (pending_ms != 0) ForgetPending(location);
    return Fail(written.error());
  }
  return pending_ms;
}

void CatalogService::ForgetPending(const std::string& location) {
  if (instance_.empty()) return;
  // Off the request: a record the sweep finds settled is only removed by it.
  auto forget = [this, location] { (void)store_->RemovePendingFiles({location}); };
  if (!background_ || !background_->TrySubmit(forget)) forget();
}

Status CatalogService::CheckAttemptAge(int64_t pending_ms) const {
  if (pending_ms == 0 || NowMillis() - pending_ms <= pending_limits_.attempt_limit.count()) {
    return Ok();
  }
  return Fail(ErrorKind::kCommitFailed,
              "Commit failed: the attempt took longer than " +
                  std::to_string(pending_limits_.attempt_limit.count() / 1000) +
                  " s to reach its swap; retry");
}

Result<size_t> CatalogService::SweepPendingFiles() {
  const int64_t now = NowMillis();
  FIRN_ASSIGN_OR_RETURN(
      std::vector<store::InstanceAck> live,
      store_->LiveInstances(now - pending_limits_.writer_gone_after.count()));
  std::set<std::string> alive;
  for (const store::InstanceAck& a : live) alive.insert(a.instance_id);
  if (!instance_.empty()) alive.insert(instance_);
  FIRN_ASSIGN_OR_RETURN(std::vector<store::PendingFile> pending,
                        store_->ListPendingFiles(now - pending_limits_.min_age.count(), 1000));
  size_t deleted = 0;
  std::vector<std::string> settled;
  for (const store::PendingFile& p : pending) {
    if (alive.contains(p.instance)) continue;  // its writer may still swap to it
    RequestContext ctx;
    ctx.scope = p.scope;
    ctx.request_id = "pending-sweep";
    if (resolve_catalog_) ctx.catalog = resolve_catalog_(p.scope);
    auto kept = StillNeeded(ctx, p);
    if (!kept) {
      spdlog::warn(R"("msg":"commit intent not resolved; tried again later","file":"{}",)"
                   R"("error":"{}")",
                   log::Escape(p.location), log::Escape(kept.error().message));
      continue;
    }
    if (!*kept) {
      if (Status gone = ObjectsOf(ctx).Delete(p.location); !gone) {
        spdlog::warn(R"("msg":"stray metadata file not deleted","file":"{}","error":"{}")",
                     log::Escape(p.location), log::Escape(gone.error().message));
        continue;
      }
      ++deleted;
      spdlog::info(R"("msg":"stray metadata file of an interrupted commit deleted","file":"{}",)"
                   R"("instance":"{}")",
                   log::Escape(p.location), log::Escape(p.instance));
    }
    settled.push_back(p.location);
  }
  FIRN_RETURN_IF_ERROR(store_->RemovePendingFiles(settled));
  return deleted;
}

Result<bool> CatalogService::StillNeeded(const RequestContext& ctx, const store::PendingFile& p) {
  // Who owns the file's location now (a rename, a move or a drop re-keys the owner; the
  // location index follows): its pointer, or its chain, decides.
  FIRN_ASSIGN_OR_RETURN(std::string normal, NormalizeLocation(p.location));
  FIRN_ASSIGN_OR_RETURN(auto holders, store_->LocationHolders(normal));
  std::optional<store::LocationOwner> owner;
  for (const store::HeldLocation& h : holders) {
    if (store::IsExclusiveOwner(h.owner.kind)) owner = h.owner;
  }
  if (!owner) return false;  // nobody owns it: the create never happened, or the object is gone
  const ObjectKind kind =
      owner->kind == store::LocationOwnerKind::kView ? ObjectKind::kView : ObjectKind::kTable;
  const store::CatalogScope scope{owner->realm, owner->catalog};
  std::string current;
  if (store::IsDroppedOwner(*owner)) {
    FIRN_ASSIGN_OR_RETURN(store::DroppedObject d, store_->LoadDroppedObject(scope, owner->name));
    current = d.metadata_location;
  } else {
    auto ptr = store_->LoadPointer(scope, {owner->ns, owner->name}, kind);
    if (!ptr) {
      if (ptr.error().kind == ErrorKind::kNoSuchTable ||
          ptr.error().kind == ErrorKind::kNoSuchView) {
        return false;
      }
      return Fail(ptr.error());
    }
    current = ptr->metadata_location;
  }
  if (current == p.location) return true;
  if (kind == ObjectKind::kView) return false;  // a view keeps no log: only its pointer counts
  RequestContext owner_ctx = ctx;
  owner_ctx.scope = scope;
  if (resolve_catalog_) owner_ctx.catalog = resolve_catalog_(scope);
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(owner_ctx, current));
  const std::string_view name = FileNameOf(p.location);
  for (const auto& entry : table->metadata.metadata_log) {
    if (FileNameOf(entry.metadata_file) == name) return true;
  }
  return false;
}

}  // namespace firn::catalog
