// CatalogService: moving a table to another catalog by register-then-release
// (docs/moves.md). Part of catalog_service.h.
#include <boost/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "catalog/audit.h"
#include "catalog/authorization.h"
#include "catalog/catalog_service.h"
#include "catalog/foreign_writers.h"
#include "catalog/identifiers.h"
#include "catalog/input_rules.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "catalog/store_claims.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::catalog {

using auth::Operation;
using store::ObjectKind;

namespace {

bool LooksLikeDeploymentId(std::string_view id) {
  if (id.size() != 36) return false;
  for (size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? c != '-' : !std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool Printable(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  }
  return true;
}

}  // namespace

Result<StoreClaim> CatalogService::ReadOwnClaim(const RequestContext& ctx, const Identifier& id,
                                                const metadata::TableMetadata& meta) {
  auto text = ObjectsOf(ctx).ReadAtMost(StoreClaimUri(meta.location), kMaxClaimBytes);
  if (!text) {
    if (text.error().kind == ErrorKind::kNotFound) {
      return Fail(ErrorKind::kCommitFailed,
                  "Table " + FormatIdentifier(id) + " has no ownership claim on the store (" +
                      StoreClaimUri(meta.location) + "); it cannot be moved");
    }
    return Fail(text.error());
  }
  FIRN_ASSIGN_OR_RETURN(StoreClaim held, DecodeStoreClaim(*text));
  if (held.deployment != deployment_ || held.table_uuid != meta.table_uuid) {
    return Fail(ErrorKind::kCommitFailed,
                "Table " + FormatIdentifier(id) + " is claimed on the store by " +
                    DescribeClaimOwner(held) + ", not by this catalog");
  }
  return held;
}

Result<StoreClaim> CatalogService::MoveOut(const RequestContext& ctx, const Identifier& id,
                                           const std::string& to_deployment,
                                           const std::string& to_description) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kMoveTableOut, id));
  if (!to_deployment.empty() && !LooksLikeDeploymentId(to_deployment)) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid move: 'toDeployment' must be a deployment id (a UUID)");
  }
  if (to_description.size() > 512 || !Printable(to_description)) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid move: 'to' must be printable text of at most 512 bytes");
  }
  if (deployment_.empty()) {
    return Fail(ErrorKind::kBadRequest, "Moves need ownership claims, which are off here");
  }
  if (to_deployment == deployment_) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid move: the target is this deployment; rename the table instead");
  }
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  if (DecodeFence(ptr.fence).state == Fence::State::kFenced) {
    return Fail(ErrorKind::kCommitFailed,
                "Cannot move table " + FormatIdentifier(id) +
                    ": it is fenced because another catalog wrote to it; resolve the fence "
                    "first (`firn admin fence`)");
  }
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ctx, ptr.metadata_location));
  FIRN_ASSIGN_OR_RETURN(StoreClaim claim, ReadOwnClaim(ctx, id, table->metadata));
  // The mark first: from here no commit lands (the store refuses the swap), so the file the
  // target registers is the table's last.
  boost::json::object moving;
  moving["to-deployment"] = to_deployment;
  moving["to"] = to_description;
  moving["since-ms"] = NowMillis();
  store::AuditEntry audit = MakeAudit(ctx, Operation::kMoveTableOut,
                                      AuditObject(id, ObjectKind::kTable), ptr.metadata_location);
  audit.detail = "to " + (to_deployment.empty() ? std::string("any deployment") : to_deployment) +
                 (to_description.empty() ? "" : " (" + to_description + ")");
  FIRN_RETURN_IF_ERROR(store_->SetMoving(ctx.scope, id, ObjectKind::kTable,
                                         boost::json::serialize(moving), &audit));
  // Then the claim says so, for the target to see.
  claim.state = "moving";
  claim.moving_to = to_deployment.empty() ? "*" : to_deployment;
  claim.claimed_ms = NowMillis();  // a new claim: its takeover marker is this move's own
  io::ObjectStore& objects = ObjectsOf(ctx);
  const std::string uri = StoreClaimUri(table->metadata.location);
  Status rewritten = objects.Delete(uri);
  if (rewritten) rewritten = objects.WriteNew(uri, EncodeStoreClaim(claim));
  if (!rewritten) {
    // The mark stays: between the delete and the write another catalog may have claimed the
    // table, and accepting commits here again could fork it. Cancel once the claim is clear.
    return Fail(ErrorKind::kCommitFailed,
                "Table " + FormatIdentifier(id) +
                    " is marked as moving, but its claim on the store could not be rewritten (" +
                    rewritten.error().message + "); check " + uri + ", then cancel or retry");
  }
  spdlog::info(R"("msg":"table moving out","catalog":"{}","table":"{}","to":"{}")",
               log::Escape(ctx.scope.catalog), log::Escape(FormatIdentifier(id)),
               log::Escape(claim.moving_to));
  return claim;
}

Result<StoreClaim> CatalogService::CancelMove(const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kCancelTableMove, id));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kTable));
  if (ptr.moving.empty()) {
    return Fail(ErrorKind::kCommitFailed, "Table " + FormatIdentifier(id) + " is not moving");
  }
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ctx, ptr.metadata_location));
  // Taken over already: the table is the target's now, and this entry only awaits release.
  FIRN_ASSIGN_OR_RETURN(StoreClaim claim, ReadOwnClaim(ctx, id, table->metadata));
  claim.state = "active";
  claim.moving_to.clear();
  io::ObjectStore& objects = ObjectsOf(ctx);
  const std::string uri = StoreClaimUri(table->metadata.location);
  FIRN_RETURN_IF_ERROR(objects.Delete(uri));
  Status written = objects.WriteNew(uri, EncodeStoreClaim(claim));
  if (!written) {
    // The target took the table in the instant between: it is theirs.
    return Fail(ErrorKind::kCommitFailed,
                "Table " + FormatIdentifier(id) +
                    " was taken over by its target while the move was being cancelled");
  }
  const store::AuditEntry audit = MakeAudit(
      ctx, Operation::kCancelTableMove, AuditObject(id, ObjectKind::kTable), ptr.metadata_location);
  FIRN_RETURN_IF_ERROR(store_->SetMoving(ctx.scope, id, ObjectKind::kTable, "", &audit));
  return claim;
}

Result<MovedObject> CatalogService::MoveObject(const RequestContext& ctx, ObjectKind kind,
                                               const Identifier& from,
                                               const std::string& to_catalog,
                                               const Identifier& to) {
  const Operation op = kind == ObjectKind::kTable ? Operation::kMoveTable : Operation::kMoveView;
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, op, {}));
  RequestContext to_ctx = ctx;
  to_ctx.scope.catalog = to_catalog;
  to_ctx.catalog = nullptr;
  // The target is authorised by its name before anything says whether it exists.
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(to_ctx, op, {}));
  const std::string_view what = kind == ObjectKind::kTable ? "table" : "view";
  if (to_catalog == ctx.scope.catalog) {
    return Fail(ErrorKind::kBadRequest, "Invalid move: the target is the same catalog; rename "
                                        "the " + std::string(what) + " instead");
  }
  FIRN_RETURN_IF_ERROR(ValidateIdentifier(std::string(what) + " name", to));
  if (resolve_catalog_) {
    to_ctx.catalog = resolve_catalog_(to_ctx.scope);
  } else if (const CatalogInfo* info = catalogs_.Find(to_catalog)) {
    to_ctx.catalog = std::make_shared<const CatalogInfo>(*info);
  }
  if (!to_ctx.catalog) {
    return Fail(ErrorKind::kNoSuchWarehouse, "Catalog does not exist: " + to_catalog);
  }
  // The files stay where they are, so the target must reach them as the source does.
  const CatalogInfo& source = CatalogOf(ctx, catalogs_);
  if (source.storage_type != to_ctx.catalog->storage_type ||
      &ObjectsOf(ctx) != &ObjectsOf(to_ctx)) {
    return Fail(ErrorKind::kCommitFailed,
                "Cannot move " + std::string(what) + " " + FormatIdentifier(from) +
                    " to catalog " + to_catalog + ": the two catalogs reach storage "
                    "differently (storage type, endpoint, region or keys), and its files stay "
                    "where they are");
  }
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr, store_->LoadPointer(ctx.scope, from, kind));
  if (DecodeFence(ptr.fence).state == Fence::State::kFenced) {
    return Fail(ErrorKind::kCommitFailed,
                "Cannot move table " + FormatIdentifier(from) +
                    ": it is fenced because another catalog wrote to it; resolve the fence "
                    "first (`firn admin fence`)");
  }
  if (!ptr.moving.empty()) return Fail(MovingCommitError(from, ptr.moving));
  std::shared_ptr<const CachedTable> table;
  if (kind == ObjectKind::kTable) {
    FIRN_ASSIGN_OR_RETURN(table, ReadMetadata(ctx, ptr.metadata_location));
  }
  const std::string moved = AuditObject(from, kind) + " -> catalog " + to_catalog + " " +
                            AuditObject(to, kind);
  // Each catalog's trail tells its half, both written with the move.
  const std::array<store::AuditEntry, 2> audits{
      MakeAudit(ctx, op, moved, ptr.metadata_location, ptr.metadata_location),
      MakeAudit(to_ctx, op, moved, ptr.metadata_location, ptr.metadata_location)};
  FIRN_RETURN_IF_ERROR(WithGrants(
      [&](const ObjectGrants& g) { return g.Drop(ctx.scope, kind, from, /*keep=*/false); },
      [&](const store::GrantsPlan* plan) {
        return store_->MoveObject(ctx.scope, from, to_ctx.scope, to, kind,
                                  ptr.metadata_location, audits, plan);
      }));
  // The claim on the store names the table's catalog and name (informative: the deployment is
  // what a claim decides by). A failure leaves the old words; the table is ours either way.
  if (table && !deployment_.empty()) {
    io::ObjectStore& objects = ObjectsOf(to_ctx);
    const std::string uri = StoreClaimUri(table->metadata.location);
    auto held = ReadOwnClaim(ctx, from, table->metadata);
    if (held) {
      StoreClaim claim = *held;
      claim.catalog = to_catalog;
      claim.ns = to.ns;
      claim.name = to.name;
      Status rewritten = objects.Delete(uri);
      if (rewritten) rewritten = objects.WriteNew(uri, EncodeStoreClaim(claim));
      if (!rewritten) {
        spdlog::warn(R"("msg":"moved table's claim not rewritten","claim":"{}","error":"{}")",
                     log::Escape(uri), log::Escape(rewritten.error().message));
      }
    }
  }
  spdlog::info(R"("msg":"moved","from_catalog":"{}","to_catalog":"{}","object":"{}")",
               log::Escape(ctx.scope.catalog), log::Escape(to_catalog), log::Escape(moved));
  return MovedObject{kind, ctx.scope, from, to_ctx.scope, to, ptr.metadata_location};
}

bool CatalogService::InsideHostedLocation(const store::LocationOwner& owner,
                                          std::string_view location) {
  auto normalised = NormalizeLocation(location);
  if (!normalised) return false;
  auto holders = store_->LocationHolders(*normalised);
  if (!holders) return false;
  return std::ranges::any_of(*holders, [&](const store::HeldLocation& held) {
    return held.owner == owner && !held.host_catalog.empty();
  });
}

Status CatalogService::CheckFileAllowed(const RequestContext& ctx,
                                        const store::LocationOwner& owner,
                                        std::string_view location) {
  Status allowed = CheckLocationAllowed(ctx, catalogs_, location);
  if (allowed || allowed.error().kind != ErrorKind::kForbidden) return allowed;
  // Read only when the catalog's own locations refuse: free for every table but a moved one.
  if (!InsideHostedLocation(owner, location)) return allowed;
  return CheckInsideStorageRoots(catalogs_.storage_roots(), location);
}

Error MovingCommitError(const Identifier& id, std::string_view moving) {
  std::string to;
  boost::system::error_code ec;
  auto doc = boost::json::parse(moving, ec);
  if (!ec && doc.is_object()) {
    const auto& o = doc.as_object();
    if (auto* d = o.if_contains("to"); d && d->is_string() && !d->as_string().empty()) {
      to = std::string(d->as_string());
    }
    if (auto* d = o.if_contains("to-deployment"); d && d->is_string() && !d->as_string().empty()) {
      to += (to.empty() ? "deployment " : ", deployment ") + std::string(d->as_string());
    }
  }
  return Error(ErrorKind::kCommitFailed,
               "Table " + FormatIdentifier(id) + " is moving to another catalog" +
                   (to.empty() ? "" : " (" + to + ")") +
                   ": commits here are refused; commit to the target catalog once it has "
                   "registered the table");
}

}  // namespace firn::catalog
