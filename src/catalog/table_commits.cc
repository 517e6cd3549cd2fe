// CatalogService: the table commit protocol (updateTable, a create through a commit) and
// multi-table transactions. Part of catalog_service.h; docs/commit-protocol.md.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <thread>

#include "catalog/audit.h"
#include "catalog/authorization.h"
#include "catalog/catalog_service.h"
#include "catalog/commit_loop.h"
#include "catalog/identifiers.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "catalog/metadata_files.h"
#include "catalog/schema_policy.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"
#include "metadata/builder.h"
#include "metadata/gzip.h"
#include "metadata/metadata_paths.h"
#include "metadata/serde.h"

namespace firn::catalog {

using auth::Operation;
using store::ObjectKind;

namespace {
bool IsCreate(const std::vector<metadata::TableRequirement>& requirements) {
  for (const auto& r : requirements) {
    if (std::holds_alternative<metadata::AssertCreate>(r)) return true;
  }
  return false;
}
}  // namespace

// ---------------------------------------------------------------------------------------------
// The commit protocol (docs/commit-protocol.md): base → requirements → updates → policies →
// new file → compare-and-swap; a lost swap retries against the newer base; a refused commit
// deletes its file. A policy refusal (property limits, schema evolution) comes before any write
// and is final: it is an error of the attempt, not of the swap.

struct CatalogService::PreparedCommit {
  Identifier id;
  std::optional<std::string> base_location;  // nullopt: the commit creates the table
  std::shared_ptr<const CachedTable> base;
  bool changed = false;
  std::string new_location;
  std::shared_ptr<const CachedTable> result;
  std::vector<std::string> dropped_metadata_files;
  std::optional<store::LocationClaim> claim;  // set when the commit moves what the table owns
  std::optional<StoreClaim> store_claim;      // a create's claim on the store (store_claims.h)
  int64_t pending_ms = 0;                     // when its intent was recorded (pending_files.cc)
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
    FIRN_ASSIGN_OR_RETURN(p.base, ReadMetadata(ctx, ptr->metadata_location));
    FIRN_RETURN_IF_ERROR(CheckForeignWriters(ctx, change.id, *ptr, *p.base));
  } else if (create && ptr.error().kind == ErrorKind::kNoSuchTable) {
    FIRN_RETURN_IF_ERROR(ValidateIdentifier("table name", change.id));
    FIRN_ASSIGN_OR_RETURN(ns_props, store_->LoadNamespace(ctx.scope, change.id.ns));
  } else {
    return Fail(ptr.error());
  }
  const metadata::TableMetadata* base_meta = p.base ? &p.base->metadata : nullptr;
  for (const auto& requirement : change.requirements) {
    FIRN_RETURN_IF_ERROR(metadata::CheckRequirement(requirement, base_meta));
  }
  if (change.also_require && base_meta) FIRN_RETURN_IF_ERROR(change.also_require(*base_meta));
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
    FIRN_ASSIGN_OR_RETURN(std::string location,
                          DefaultLocation(ctx, change.id, ObjectKind::kTable, ns_props));
    with_location.push_back(metadata::SetLocation{std::move(location)});
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
  if (SetsProperties(change.updates)) {
    FIRN_RETURN_IF_ERROR(
        CheckProperties(limits_.properties, "table properties", applied.metadata.properties));
  }
  if (p.base) {
    FIRN_RETURN_IF_ERROR(CheckSchemaChange(
        p.base->metadata, applied.metadata,
        [&] { return store_->LoadNamespace(ctx.scope, change.id.ns); },
        CatalogOf(ctx, catalogs_).properties));
  }
  // A create, a set-location or a new data or metadata path: what the table owns moves, so it
  // must be allowed and free before any write (and is claimed with the swap).
  p.changed = true;
  if (!p.base || ClaimChanges(p.base->metadata, applied.metadata)) {
    FIRN_ASSIGN_OR_RETURN(p.claim, CheckedTableClaim(ctx, OwnerOf(ctx, change.id,
                                                                  ObjectKind::kTable),
                                                     applied.metadata));
  }
  p.new_location = metadata::NewMetadataLocation(
      applied.metadata,
      p.base_location ? std::optional<std::string_view>(*p.base_location) : std::nullopt,
      writer_tag_);
  // Every file written is checked where it is written, not only when a path changes, so a
  // table registered with an escape cannot carry it into its next commit.
  FIRN_RETURN_IF_ERROR(CheckFileAllowed(ctx, OwnerOf(ctx, change.id, ObjectKind::kTable),
                                        p.new_location));
  if (!p.base) {
    FIRN_ASSIGN_OR_RETURN(p.store_claim,
                          ClaimOnStore(ctx, change.id, applied.metadata, /*write=*/true));
  }
  std::string json = metadata::SerializeTableMetadata(applied.metadata);
  auto written = WriteMetadataFile(
      ctx, change.id, ObjectKind::kTable, p.new_location,
      metadata::IsGzipMetadataLocation(p.new_location) ? Gzip(json) : json);
  if (!written) {
    WithdrawClaim(ctx, p.store_claim);
    return Fail(written.error());
  }
  p.pending_ms = *written;
  if (test_commit_pause_.count() > 0 && applied.metadata.properties.contains("firn.test.pause")) {
    std::this_thread::sleep_for(test_commit_pause_);  // test mode: a window for kill -9
  }
  p.dropped_metadata_files = std::move(applied.dropped_metadata_files);
  p.result = MakeCachedTable(p.new_location, std::move(applied.metadata), std::move(json));
  return p;
}

Result<LoadedTable> CatalogService::UpdateTable(const RequestContext& ctx,
                                                const TableChange& change) {
  // A change with assert-create finishes a staged create: TABLE_CREATE on the namespace.
  if (IsCreate(change.requirements)) {
    FIRN_RETURN_IF_ERROR(
        AuthorizeObjectOp(ctx, Operation::kUpdateTableStagedCreate, change.id));
  } else {
    FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kUpdateTable, change.id,
                                           UpdatePrivileges(change.updates)));
  }
  Result<LoadedTable> result = CommitTable(ctx, change);
  if (!result) {
    RecordCommitRefusal(*store_,
                        MakeAudit(ctx, Operation::kUpdateTable,
                                  AuditObject(change.id, ObjectKind::kTable)),
                        result.error());
  }
  return result;
}

Result<LoadedTable> CatalogService::CommitTable(const RequestContext& ctx,
                                                const TableChange& change) {
  FIRN_ASSIGN_OR_RETURN(
      PreparedCommit p,
      RunCommitLoop<PreparedCommit>(
          commit_options_, FormatIdentifier(change.id),
          [&] { return PrepareCommit(ctx, change); },
          [](const PreparedCommit& p) { return p.changed; },
          [&](PreparedCommit& p) -> Status {
            const store::AuditEntry audit =
                MakeAudit(ctx, Operation::kUpdateTable, AuditObject(change.id, ObjectKind::kTable),
                          p.base_location.value_or(""), p.new_location);
            const store::LocationClaim* claim = p.claim ? &*p.claim : nullptr;
            FIRN_RETURN_IF_ERROR(CheckAttemptAge(p.pending_ms));
            if (!p.base_location) {
              return store_->CreateObject(ctx.scope, change.id, ObjectKind::kTable,
                                          p.new_location, &audit, claim);
            }
            FIRN_RETURN_IF_ERROR(store_->SwapPointer(ctx.scope, change.id, ObjectKind::kTable,
                                                     *p.base_location, p.new_location, &audit,
                                                     claim));
            return Ok();
          },
          [&](const PreparedCommit& p) {
            DiscardWritten(ctx, p.new_location);
            WithdrawClaim(ctx, p.store_claim);
          }));
  if (!p.changed) return LoadedTable{*p.base_location, p.result};
  Committed(ctx, p);
  return LoadedTable{p.new_location, p.result};
}

// After a swap: the new version is cached and the metadata files it let go are deleted.
void CatalogService::Committed(const RequestContext& ctx, const PreparedCommit& p) {
  ForgetPending(p.new_location);
  cache_.Put(p.result);
  DeleteOwned(ctx, OwnerOf(ctx, p.id, ObjectKind::kTable), p.result->metadata.location,
              p.dropped_metadata_files);
}

Status CatalogService::CommitTransaction(const RequestContext& ctx,
                                         const std::vector<TableChange>& changes) {
  // Every table, before anything is read: the rule's privileges plus the fine-grained ones
  // its updates need (covered by TABLE_WRITE_PROPERTIES today; kept for a stricter mode).
  for (const TableChange& change : changes) {
    FIRN_RETURN_IF_ERROR(
        AuthorizeObjectOp(ctx, Operation::kCommitTransaction, change.id));
    FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kCommitTransaction, change.id,
                                           UpdatePrivileges(change.updates)));
  }
  Status result = CommitTables(ctx, changes);
  if (!result) {
    for (const TableChange& change : changes) {
      RecordCommitRefusal(
          *store_, MakeAudit(ctx, Operation::kCommitTransaction,
                             AuditObject(change.id, ObjectKind::kTable)),
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
  using Attempt = std::vector<PreparedCommit>;
  auto discard = [&](const Attempt& prepared) {
    for (const auto& p : prepared) {
      if (!p.changed) continue;
      DiscardWritten(ctx, p.new_location);
      WithdrawClaim(ctx, p.store_claim);
    }
  };
  FIRN_ASSIGN_OR_RETURN(
      Attempt prepared,
      RunCommitLoop<Attempt>(
          commit_options_, "the tables of this transaction",
          [&]() -> Result<Attempt> {
            Attempt attempt;
            for (const TableChange& change : changes) {
              auto p = PrepareCommit(ctx, change);
              if (!p) {
                discard(attempt);
                return Fail(p.error());
              }
              attempt.push_back(std::move(*p));
            }
            return attempt;
          },
          [](const Attempt& attempt) {
            return std::ranges::any_of(attempt, [](const PreparedCommit& p) { return p.changed; });
          },
          [&](Attempt& attempt) -> Status {
            std::vector<store::PointerSwap> swaps;
            std::vector<store::AuditEntry> audits;
            for (const auto& p : attempt) {
              if (!p.changed) continue;
              FIRN_RETURN_IF_ERROR(CheckAttemptAge(p.pending_ms));
              swaps.push_back({p.id, ObjectKind::kTable, p.base_location, p.new_location,
                               p.claim});
              audits.push_back(MakeAudit(ctx, Operation::kCommitTransaction,
                                         AuditObject(p.id, ObjectKind::kTable),
                                         p.base_location.value_or(""), p.new_location));
            }
            return store_->CommitTransaction(ctx.scope, swaps, audits);
          },
          discard));
  for (const auto& p : prepared) {
    if (p.changed) Committed(ctx, p);
  }
  return Ok();
}

}  // namespace firn::catalog
