// CatalogService: ownership across catalogs — claims on the object store and fences against
// foreign writers (catalog/store_claims.h, catalog/foreign_writers.h,
// docs/ownership-claims.md). Part of catalog_service.h.
#include <spdlog/spdlog.h>

#include "catalog/audit.h"
#include "catalog/catalog_metrics.h"
#include "catalog/catalog_service.h"
#include "catalog/foreign_writers.h"
#include "catalog/identifiers.h"
#include "catalog/store_claims.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::catalog {

using auth::Operation;
using store::ObjectKind;


void CatalogService::SetDeployment(std::string deployment_id) {
  deployment_ = std::move(deployment_id);
  writer_tag_ = WriterTag(deployment_);
  // One thread: a check is one listing, and a burst of them waits rather than piles up.
  if (!deployment_.empty() && !background_) background_ = std::make_unique<WorkerPool>(1, 256);
}

Result<std::optional<StoreClaim>> CatalogService::ClaimOnStore(
    const RequestContext& ctx, const Identifier& id, const metadata::TableMetadata& meta,
    bool write) {
  if (deployment_.empty()) return std::nullopt;
  const std::string uri = StoreClaimUri(meta.location);
  io::ObjectStore& objects = ObjectsOf(ctx);
  StoreClaim mine{deployment_, ctx.scope.realm, ctx.scope.catalog, id.ns, id.name,
                  meta.table_uuid, NowMillis()};
  mine.location = meta.location;
  std::string marker;  // the takeover marker this call won, if any
  // Two rounds: a stale claim of ours is deleted and written afresh; losing that second write
  // to a concurrent claimer is a conflict like any other.
  for (int round = 0; round < 2; ++round) {
    if (write) {
      Status written = objects.WriteNew(uri, EncodeStoreClaim(mine));
      if (written) {
        if (!marker.empty()) DeleteQuietly(ctx, marker);
        return mine;
      }
      if (written.error().kind != ErrorKind::kAlreadyExists) return Fail(written.error());
    }
    auto text = objects.ReadAtMost(uri, kMaxClaimBytes);
    if (!text) {
      if (text.error().kind == ErrorKind::kNotFound) {
        if (!write) return std::nullopt;
        continue;  // released meanwhile: claim it
      }
      if (text.error().kind == ErrorKind::kPayloadTooLarge) {
        return Fail(ErrorKind::kLocationConflict,
                    "Table location " + meta.location + " holds an object at " + uri +
                        " that is not an ownership claim Firn can read; remove it if no catalog "
                        "owns the table");
      }
      return Fail(text.error());
    }
    auto held = DecodeStoreClaim(*text);
    if (!held) {
      return Fail(ErrorKind::kLocationConflict,
                  "Table location " + meta.location + " holds an ownership claim Firn cannot "
                  "read (" + uri + "); remove it if no catalog owns the table");
    }
    // Another deployment's table on its way here (register-then-release, docs/moves.md):
    // the register of that very table takes the claim over.
    if (held->deployment != deployment_ && held->state == "moving" &&
        held->table_uuid == meta.table_uuid &&
        (held->moving_to == "*" || held->moving_to == deployment_)) {
      if (!write) return std::nullopt;
      // Deleting the moving claim and writing ours are two steps, and a claim open to any
      // deployment ("*") may have several takers at once: only the one that creates this
      // move's takeover marker (create-only) goes on, so a later taker cannot delete the
      // claim the first one wrote.
      marker = StoreClaimTakeoverUri(meta.location, *held);
      if (Status won = objects.WriteNew(marker, EncodeStoreClaim(mine)); !won) {
        if (won.error().kind != ErrorKind::kAlreadyExists) return Fail(won.error());
        return Fail(ErrorKind::kLocationConflict,
                    "Table location " + meta.location +
                        " is being taken over by another catalog at this moment (its move's "
                        "takeover marker " + marker + " exists); load the table there");
      }
      FIRN_RETURN_IF_ERROR(objects.Delete(uri));
      continue;
    }
    if (held->deployment != deployment_) {
      return Fail(ErrorKind::kLocationConflict,
                  "Table location " + meta.location + " is owned by another catalog: " +
                      DescribeClaimOwner(*held) +
                      ". Release it there (drop the table with purgeRequested=false, or move "
                      "it), or delete " + uri + " if that deployment no longer exists");
    }
    // Ours, for this very table under this very name (a register with overwrite): it stands,
    // and nothing is written that a failure would have to withdraw.
    const bool same_table = held->table_uuid == meta.table_uuid;
    if (same_table && held->realm == ctx.scope.realm && held->catalog == ctx.scope.catalog &&
        held->ns == id.ns && held->name == id.name) {
      return std::nullopt;
    }
    // Ours, for another table or name: it still stands while that table is live. The location
    // index refuses most of these first; this covers catalogs that allow shared locations.
    auto live = store_->LoadPointer({held->realm, held->catalog}, {held->ns, held->name},
                                    ObjectKind::kTable);
    bool still_owned = false;
    if (live) {
      auto table = ReadMetadata(ctx, live->metadata_location);
      still_owned = !table || (*table)->metadata.table_uuid == held->table_uuid;
    } else if (live.error().kind == ErrorKind::kNoSuchTable ||
               live.error().kind == ErrorKind::kNoSuchNamespace) {
      still_owned = false;  // a dropped table's (or a failed create's): taken over
    } else {
      return Fail(live.error());
    }
    if (still_owned) {
      return Fail(ErrorKind::kLocationConflict,
                  "Table location " + meta.location + " is owned by table " +
                      FormatIdentifier({held->ns, held->name}) + " of catalog " +
                      held->catalog);
    }
    if (!write) return std::nullopt;
    // A claim of a dropped table: taken over (deleted, then written create-only again, so a
    // concurrent taker loses that write and is refused).
    FIRN_RETURN_IF_ERROR(objects.Delete(uri));
  }
  return Fail(ErrorKind::kLocationConflict,
              "Table location " + meta.location + " was claimed by another catalog meanwhile");
}

void CatalogService::WithdrawClaim(const RequestContext& ctx,
                                   const std::optional<StoreClaim>& written) {
  if (!written) return;
  // Only if it is still the claim this create wrote: a takeover may have replaced it.
  io::ObjectStore& objects = ObjectsOf(ctx);
  const std::string uri = StoreClaimUri(written->location);
  auto text = objects.ReadAtMost(uri, kMaxClaimBytes);
  if (!text) return;
  auto held = DecodeStoreClaim(*text);
  if (held && SameClaim(*held, *written)) DeleteQuietly(ctx, uri);
}

void CatalogService::ReleaseStoreClaim(const RequestContext& ctx,
                                       const metadata::TableMetadata& meta) {
  DeleteOwnStoreClaim(ObjectsOf(ctx), deployment_, meta);
}

Status CatalogService::CheckForeignWriters(const RequestContext& ctx, const Identifier& id,
                                           const store::ObjectPointer& ptr,
                                           const CachedTable& base) {
  if (!ptr.moving.empty()) return Fail(MovingCommitError(id, ptr.moving));
  if (deployment_.empty()) return Ok();
  Fence fence = DecodeFence(ptr.fence);
  if (fence.state == Fence::State::kFenced) return Fail(FencedCommitError(id, fence));
  FIRN_ASSIGN_OR_RETURN(std::vector<std::string> foreign,
                        FindForeignMetadata(ObjectsOf(ctx), base.metadata,
                                            ptr.metadata_location, writer_tag_, fence, false));
  if (foreign.empty()) return Ok();
  auto fenced = FenceForeign(ctx, id, ptr.metadata_location, fence, foreign,
                             Operation::kUpdateTable);
  if (!fenced) {
    // No swap was tried, so the client must never hear "commit state unknown" (it would treat
    // its commit as possibly applied), even when the fence's own write went unconfirmed.
    return Fail(ErrorKind::kServiceUnavailable,
                "Table " + FormatIdentifier(id) + " was written by another catalog and could "
                "not be fenced (" + fenced.error().message + "); the commit was not applied; "
                "retry");
  }
  return Fail(FencedCommitError(id, *fenced));
}

Result<Fence> CatalogService::FenceForeign(const RequestContext& ctx, const Identifier& id,
                                           const std::string& metadata_location,
                                           const Fence& fence,
                                           const std::vector<std::string>& foreign,
                                           Operation op) {
  Metrics().foreign_writers.Inc();
  spdlog::warn(R"("msg":"foreign writer detected; table fenced","catalog":"{}","table":"{}",)"
               R"("file":"{}","request_id":"{}")",
               log::Escape(ctx.scope.catalog), log::Escape(FormatIdentifier(id)),
               log::Escape(foreign.front()), log::Escape(ctx.request_id));
  Fence fenced{Fence::State::kFenced, NowMillis(), fence.files};
  fenced.files.insert(fenced.files.end(), foreign.begin(), foreign.end());
  store::AuditEntry audit =
      MakeAudit(ctx, op, AuditObject(id, ObjectKind::kTable), metadata_location);
  audit.outcome = "fenced";
  audit.detail = "another catalog wrote " + foreign.front() +
                 (foreign.size() > 1 ? " (and " + std::to_string(foreign.size() - 1) + " more)" : "") +
                 "; resolve with `firn admin fence`";
  FIRN_RETURN_IF_ERROR(
      store_->SetFence(ctx.scope, id, ObjectKind::kTable, EncodeFence(fenced), &audit));
  return fenced;
}

void CatalogService::CheckForeignWritersAfterLoad(const RequestContext& ctx,
                                                  const Identifier& id,
                                                  const store::ObjectPointer& ptr,
                                                  std::shared_ptr<const CachedTable> table) {
  if (!background_ || load_check_every_.count() <= 0 || !ptr.moving.empty()) return;
  // Almost every table has no fence; a fenced one is the operator's to resolve already.
  if (!ptr.fence.empty() && DecodeFence(ptr.fence).state == Fence::State::kFenced) return;
  if (!table->ClaimLoadCheck(NowMillis(), load_check_every_.count())) return;
  background_->TrySubmit([this, ctx, id, location = ptr.metadata_location, kept = ptr.fence,
                          table = std::move(table)] {
    const Fence fence = DecodeFence(kept);
    auto foreign = FindForeignMetadata(ObjectsOf(ctx), table->metadata, location, writer_tag_,
                                       fence, false);
    if (!foreign || foreign->empty()) return;
    // Only a table still at that version with that fence: a newer commit checked itself, and
    // an operator's decision made meanwhile stands.
    auto now = store_->LoadPointer(ctx.scope, id, ObjectKind::kTable);
    if (!now || now->metadata_location != location || now->fence != kept) return;
    (void)FenceForeign(ctx, id, location, fence, *foreign, Operation::kLoadTable);
  });
}

}  // namespace firn::catalog
