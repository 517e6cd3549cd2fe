// CatalogService: soft delete — drop keeps, undrop restores, expiry forgets (and purges when
// the drop asked for it). catalog/soft_delete.h, docs/soft-delete.md. Part of
// catalog_service.h.
#include "catalog/soft_delete.h"

#include <boost/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>

#include "catalog/audit.h"
#include "catalog/authorization.h"
#include "catalog/catalog_service.h"
#include "catalog/foreign_writers.h"
#include "catalog/identifier_json.h"
#include "catalog/identifiers.h"
#include "catalog/input_rules.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "catalog/purge.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"
#include "common/uuid.h"

namespace firn::catalog {

using auth::Operation;
using store::ObjectKind;

Result<std::chrono::seconds> ParseDuration(std::string_view text, std::string_view what) {
  const auto bad = [&] {
    return Fail(ErrorKind::kBadRequest,
                "Invalid " + std::string(what) + " '" + std::string(text) +
                    "': expected a whole number of seconds, or of minutes, hours or days with "
                    "the suffix m, h or d (e.g. 7d)" +
                    (what == kDropRetentionProperty ? "; 0 turns soft delete off" : ""));
  };
  if (text.empty()) return bad();
  int64_t unit = 1;
  std::string_view digits = text;
  switch (text.back()) {
    case 's': unit = 1; digits.remove_suffix(1); break;
    case 'm': unit = 60; digits.remove_suffix(1); break;
    case 'h': unit = 3600; digits.remove_suffix(1); break;
    case 'd': unit = 86400; digits.remove_suffix(1); break;
    default: break;
  }
  int64_t n = -1;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() || n < 0) {
    return bad();
  }
  constexpr int64_t kMaxSeconds = int64_t{100} * 365 * 86400;
  if (n > kMaxSeconds / unit) return bad();
  return std::chrono::seconds(n * unit);
}

std::string EncodeExpireTask(const std::string& drop_id) {
  boost::json::object o;
  o["drop-id"] = drop_id;
  return boost::json::serialize(o);
}

Result<std::string> DecodeExpireTask(std::string_view payload) {
  boost::system::error_code ec;
  boost::json::value doc = boost::json::parse(payload, ec);
  if (!ec && doc.is_object()) {
    if (const auto* id = doc.as_object().if_contains("drop-id"); id && id->is_string()) {
      return std::string(id->as_string());
    }
  }
  return Fail(ErrorKind::kBadRequest, "Cannot parse expire-dropped task payload");
}

boost::json::object DroppedObjectJson(const store::DroppedObject& d) {
  boost::json::object o;
  o["id"] = d.drop_id;
  o["kind"] = d.kind == ObjectKind::kView ? "view" : "table";
  PutIdentifier(o, d.id);
  o["uuid"] = d.uuid;
  o["metadataLocation"] = d.metadata_location;
  o["droppedAt"] = d.dropped_ms;
  o["expiresAt"] = d.expires_ms;
  o["purgeRequested"] = d.purge_requested;
  o["fenced"] = DecodeFence(d.fence).state == Fence::State::kFenced;
  return o;
}

std::chrono::seconds CatalogService::RetentionOf(const RequestContext& ctx) const {
  const CatalogInfo& info = ctx.catalog ? *ctx.catalog : catalogs_.Default();
  auto it = info.properties.find(std::string(kDropRetentionProperty));
  if (it == info.properties.end()) return drop_retention_;
  auto parsed = ParseDuration(it->second);
  if (parsed) return *parsed;
  // Refused when the catalog is created or updated; a value from before that keeps objects.
  spdlog::warn(R"("msg":"invalid drop retention; using the server's","catalog":"{}")",
               log::Escape(info.name));
  return drop_retention_;
}

RequestContext CatalogService::TaskContextOf(const store::Task& task) const {
  RequestContext ctx;
  ctx.scope = store::CatalogScope{task.realm, task.catalog};
  ctx.request_id = "task-" + task.id;
  if (resolve_catalog_) ctx.catalog = resolve_catalog_(ctx.scope);
  return ctx;
}

Status CatalogService::SoftDrop(const RequestContext& ctx, const Identifier& id,
                                ObjectKind kind, const store::ObjectPointer& ptr,
                                std::string uuid, bool purge, std::chrono::seconds retention,
                                const store::AuditEntry& audit) {
  store::DroppedObject d;
  d.drop_id = NewUuidV7();
  d.scope = ctx.scope;
  d.id = id;
  d.kind = kind;
  d.metadata_location = ptr.metadata_location;
  d.uuid = std::move(uuid);
  d.dropped_ms = NowMillis();
  d.expires_ms = d.dropped_ms + std::chrono::duration_cast<std::chrono::milliseconds>(retention).count();
  d.purge_requested = purge;
  boost::json::object detail;
  detail["principal"] = audit.principal;
  detail["request-id"] = ctx.request_id;
  d.detail = boost::json::serialize(detail);
  // The expiry task is stored first: a crash after the drop then still ends the retention (a
  // task that finds no dropped object has nothing to do).
  if (tasks_) {
    store::Task task;
    task.kind = std::string(kExpireDroppedTask);
    task.realm = ctx.scope.realm;
    task.catalog = ctx.scope.catalog;
    task.object = AuditObject(id, kind);
    task.payload = EncodeExpireTask(d.drop_id);
    task.not_before_ms = d.expires_ms;
    FIRN_RETURN_IF_ERROR(tasks_->Enqueue(std::move(task)));
  }
  return WithGrants(
      [&](const ObjectGrants& g) { return g.Drop(ctx.scope, kind, id, /*keep=*/true); },
      [&](const store::GrantsPlan* plan) { return store_->SoftDropObject(d, &audit, plan); });
}

Result<store::Page<store::DroppedObject>> CatalogService::ListDropped(
    const RequestContext& ctx, const store::PageRequest& page) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, Operation::kListDroppedObjects, {}));
  return store_->ListDroppedObjects(ctx.scope, page);
}

Result<store::DroppedObject> CatalogService::Undrop(const RequestContext& ctx,
                                                    const std::string& drop_id,
                                                    const std::optional<Identifier>& target) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, Operation::kUndropObject, {}));
  FIRN_ASSIGN_OR_RETURN(store::DroppedObject d, store_->LoadDroppedObject(ctx.scope, drop_id));
  // Once its retention has ended, a purge it asked for may be deleting its files: too late.
  if (d.purge_requested && NowMillis() >= d.expires_ms) {
    return Fail(ErrorKind::kCommitFailed,
                "Cannot undrop " + AuditObject(d.id, d.kind) +
                    ": its retention has ended and the purge its drop asked for has begun");
  }
  const Identifier to = target.value_or(d.id);
  if (to.ns.empty()) {
    return Fail(ErrorKind::kBadRequest, "Invalid undrop target: the namespace must not be empty");
  }
  FIRN_RETURN_IF_ERROR(ValidateIdentifier(
      d.kind == ObjectKind::kTable ? "table name" : "view name", to));
  // The table is claimed on the store again (a drop without purge released it), or its claim
  // rewritten for a new name. Another catalog that registered it meanwhile owns it now: the
  // undrop is refused, naming it, rather than forking the table.
  std::optional<StoreClaim> claimed;
  if (d.kind == ObjectKind::kTable) {
    if (auto table = ReadMetadata(ctx, d.metadata_location); table) {
      FIRN_ASSIGN_OR_RETURN(claimed, ClaimOnStore(ctx, to, (*table)->metadata, /*write=*/true));
    }
  }
  const store::AuditEntry audit =
      MakeAudit(ctx, Operation::kUndropObject,
                AuditObject(d.id, d.kind) + (to == d.id ? "" : " -> " + AuditObject(to, d.kind)),
                "", d.metadata_location);
  Status restored = WithGrants(
      [&](const ObjectGrants& g) { return g.Restore(ctx.scope, d.kind, to); },
      [&](const store::GrantsPlan* plan) {
        return store_->UndropObject(ctx.scope, drop_id, to, &audit, plan);
      });
  if (!restored) {
    if (restored.error().kind != ErrorKind::kCommitStateUnknown) WithdrawClaim(ctx, claimed);
    return Fail(restored.error());
  }
  d.id = to;
  return d;
}

Status CatalogService::Expunge(const RequestContext& ctx, const std::string& drop_id) {
  FIRN_RETURN_IF_ERROR(AuthorizeNamespaceOp(ctx, Operation::kExpungeDroppedObject, {}));
  FIRN_ASSIGN_OR_RETURN(store::DroppedObject d, store_->LoadDroppedObject(ctx.scope, drop_id));
  // From here its retention counts as ended: an undrop racing the purge below is refused.
  d.expires_ms = std::min(d.expires_ms, NowMillis());
  FIRN_ASSIGN_OR_RETURN(bool finished, ExpireDropped(ctx, d, [] { return true; }));
  (void)finished;
  return Ok();
}

Result<TaskOutcome> CatalogService::RunExpireDroppedTask(const store::Task& task,
                                                         TaskControl& control) {
  FIRN_ASSIGN_OR_RETURN(std::string drop_id, DecodeExpireTask(task.payload));
  RequestContext ctx = TaskContextOf(task);
  auto d = store_->LoadDroppedObject(ctx.scope, drop_id);
  if (!d) {
    if (d.error().kind != ErrorKind::kNotFound) return Fail(d.error());
    control.SetProgress(R"({"note":"undropped, expunged or never dropped; nothing to do"})");
    return TaskOutcome::kDone;
  }
  FIRN_ASSIGN_OR_RETURN(bool finished,
                        ExpireDropped(ctx, *d, [&] { return control.KeepGoing(); }));
  return finished ? TaskOutcome::kDone : TaskOutcome::kStopped;
}

Result<bool> CatalogService::ExpireDropped(const RequestContext& ctx,
                                           const store::DroppedObject& d,
                                           FunctionRef<bool()> keep_going) {
  const store::LocationOwner owner = store::DroppedOwner(ctx.scope, d.kind, d.drop_id);
  const bool fenced = DecodeFence(d.fence).state == Fence::State::kFenced;
  if (d.kind == ObjectKind::kTable) {
    auto table = ReadMetadata(ctx, d.metadata_location);
    if (table) {
      // A fenced table's files may be another catalog's too, and so are those of a table
      // another deployment claims now: the entry goes, the files stay.
      bool ours = !fenced;
      if (ours && d.purge_requested) {
        auto claim = ClaimOnStore(ctx, d.id, (*table)->metadata, /*write=*/false);
        if (!claim) {
          ours = false;
          spdlog::warn(R"("msg":"dropped table not purged: its claim is not ours","drop_id":"{}",)"
                       R"("error":"{}")",
                       log::Escape(d.drop_id), log::Escape(claim.error().message));
        }
      }
      if (d.purge_requested && ours) {
        auto purged = PurgeOwnFiles(ctx, d.id, owner, (*table)->metadata, d.metadata_location,
                                    keep_going);
        if (!purged) {
          if (purged.error().kind == ErrorKind::kServiceUnavailable) return false;
          return Fail(purged.error());
        }
        const PurgeResult& result = *purged;
        if (!result.finished) return false;
      }
      ReleaseStoreClaim(ctx, (*table)->metadata);
    } else if (table.error().kind != ErrorKind::kNotFound) {
      return Fail(table.error());  // unreadable for now: tried again later
    }
  } else {
    // As a drop without retention would have done (views keep no log: one file).
    DeleteViewFile(ctx, owner, d.metadata_location);
  }
  const store::AuditEntry audit = MakeAudit(ctx, Operation::kExpungeDroppedObject,
                                            AuditObject(d.id, d.kind), d.metadata_location);
  Status forgotten = store_->ForgetDroppedObject(ctx.scope, d.drop_id, &audit);
  if (!forgotten && forgotten.error().kind != ErrorKind::kNotFound) {
    return Fail(forgotten.error());
  }
  return true;
}

void CatalogService::SupersedeDropped(const RequestContext& ctx, ObjectKind kind,
                                      const std::string& uuid, const std::string& location) {
  auto dropped = store_->FindDroppedByUuid(ctx.scope.realm, uuid);
  if (!dropped) return;
  for (const store::DroppedObject& d : *dropped) {
    // Only this catalog's: another catalog's dropped entry is that catalog's to forget (its
    // held locations then refuse the register, naming it). Only the same object: same kind,
    // and its own metadata file at the location the registered file describes (a crafted file
    // that merely carries its uuid names another location). Never one whose purge is due.
    if (d.scope.catalog != ctx.scope.catalog || d.kind != kind) continue;
    if (!IsUnder(d.metadata_location, location)) continue;
    if (d.purge_requested && NowMillis() >= d.expires_ms) continue;
    const store::AuditEntry audit =
        MakeAudit(ctx, Operation::kExpungeDroppedObject, AuditObject(d.id, d.kind),
                  d.metadata_location);
    Status st = store_->ForgetDroppedObject(ctx.scope, d.drop_id, &audit);
    spdlog::info(R"("msg":"register supersedes a dropped table","drop_id":"{}","ok":{})",
                 log::Escape(d.drop_id), st.has_value());
  }
}

}  // namespace firn::catalog
