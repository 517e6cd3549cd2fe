// CatalogService's view operations (checklist §1.7): the same commit protocol as tables, on
// view metadata files. Tables and views share names; the store words the conflicts.
#include <spdlog/spdlog.h>

#include "catalog/audit.h"
#include "catalog/authorization.h"
#include "catalog/catalog_service.h"
#include "catalog/filtered_page.h"
#include "catalog/identifiers.h"
#include "catalog/commit_loop.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "catalog/metadata_files.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"
#include "common/strings.h"
#include "metadata/view_builder.h"
#include "metadata/view_metadata_paths.h"
#include "metadata/view_serde.h"

namespace firn::catalog {

using auth::Operation;
using store::ObjectKind;

namespace {
bool GcEnabled(const metadata::ViewMetadata& m) {
  auto it = m.properties.find(std::string(metadata::kViewGcEnabledProperty));
  if (it == m.properties.end()) return true;
  return !EqualsIgnoreCase(it->second, "false");
}

// Whether `id` already names a table or a view, worded as Java's view catalog words it.
Status CheckNameFree(store::CatalogStore& store, const RequestContext& ctx, const Identifier& id) {
  if (store.LoadPointer(ctx.scope, id, ObjectKind::kTable)) {
    return Fail(ErrorKind::kAlreadyExists,
                "Table with same name already exists: " + FormatIdentifier(id));
  }
  if (store.LoadPointer(ctx.scope, id, ObjectKind::kView)) {
    return Fail(ErrorKind::kAlreadyExists, "View already exists: " + FormatIdentifier(id));
  }
  return Ok();
}
}  // namespace

struct CatalogService::PreparedViewCommit {
  std::string base_location;
  std::shared_ptr<const metadata::ViewMetadata> base;
  bool changed = false;
  std::string new_location;
  std::shared_ptr<const metadata::ViewMetadata> result;
  std::optional<store::LocationClaim> claim;  // set when the replace moves what the view owns
  int64_t pending_ms = 0;                     // when its intent was recorded (pending_files.cc)
};

// The locations `meta` claims for view `id`, refused (before any write) when the catalog does
// not allow one of them or another object owns an overlapping one.
Result<store::LocationClaim> CatalogService::CheckedViewClaim(const RequestContext& ctx,
                                                              const Identifier& id,
                                                              const metadata::ViewMetadata& meta) {
  const CatalogInfo& catalog = CatalogOf(ctx, catalogs_);
  FIRN_ASSIGN_OR_RETURN(store::LocationClaim claim, ViewLocationClaim(catalog, meta));
  FIRN_RETURN_IF_ERROR(
      CheckLocationClaim(ctx, *store_, catalog, OwnerOf(ctx, id, ObjectKind::kView), claim));
  return claim;
}

Result<std::shared_ptr<const metadata::ViewMetadata>> CatalogService::ReadViewMetadata(
    const RequestContext& ctx, const std::string& location, bool caller_named) {
  FIRN_ASSIGN_OR_RETURN(
      metadata::ViewMetadata parsed,
      ReadViewMetadataFile(ObjectsOf(ctx), location,
                           caller_named ? std::optional(limits_.max_metadata_file_bytes)
                                        : std::nullopt));
  return std::make_shared<const metadata::ViewMetadata>(std::move(parsed));
}

Result<store::Page<std::string>> CatalogService::ListViews(const RequestContext& ctx,
                                                           const Namespace& ns,
                                                           const store::PageRequest& page) {
  FIRN_ASSIGN_OR_RETURN(bool filter, AuthorizeList(ctx, Operation::kListViews, ns));
  auto fetch = [&](const store::PageRequest& p) {
    return store_->ListObjects(ctx.scope, ns, ObjectKind::kView, p);
  };
  if (!filter) return fetch(page);
  return FilteredPage<std::string>(page, fetch, [&](const std::string& name) {
    return Visible(ctx, ObjectResource(ctx, {ns, name}, ObjectKind::kView));
  });
}

Result<LoadedView> CatalogService::CreateView(const RequestContext& ctx, const Namespace& ns,
                                              const CreateViewRequest& request) {
  const Identifier id{ns, request.name};
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kCreateView, id));
  FIRN_RETURN_IF_ERROR(ValidateIdentifier("view name", id));
  FIRN_RETURN_IF_ERROR(CheckProperties(limits_.properties, "view properties", request.properties));
  FIRN_ASSIGN_OR_RETURN(Properties ns_props, store_->LoadNamespace(ctx.scope, ns));
  FIRN_RETURN_IF_ERROR(CheckNameFree(*store_, ctx, id));
  metadata::CreateViewInput input;
  input.location = StripTrailingSlash(request.location.value_or(""));
  if (input.location.empty()) {
    FIRN_ASSIGN_OR_RETURN(input.location, DefaultLocation(ctx, id, ObjectKind::kView, ns_props));
  }
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, input.location));
  input.schema = request.schema;
  input.view_version = request.view_version;
  input.properties = request.properties;
  FIRN_ASSIGN_OR_RETURN(metadata::ViewMetadata meta,
                        metadata::NewViewMetadata(input, NowMillis()));
  FIRN_ASSIGN_OR_RETURN(store::LocationClaim claim, CheckedViewClaim(ctx, id, meta));
  const std::string file = metadata::NewViewMetadataLocation(meta, std::nullopt);
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, file));  // write.metadata.path
  FIRN_RETURN_IF_ERROR(WriteMetadataFile(ctx, id, ObjectKind::kView, file,
                                         metadata::EncodeViewMetadataFile(meta, file)));
  const store::AuditEntry audit =
      MakeAudit(ctx, Operation::kCreateView, AuditObject(id, ObjectKind::kView), "", file);
  if (auto st = store_->CreateObject(ctx.scope, id, ObjectKind::kView, file, &audit, &claim);
      !st) {
    if (st.error().kind != ErrorKind::kCommitStateUnknown) DiscardWritten(ctx, file);
    return Fail(st.error());
  }
  ForgetPending(file);
  return LoadedView{file, std::make_shared<const metadata::ViewMetadata>(std::move(meta))};
}

Result<LoadedView> CatalogService::LoadView(const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kLoadView, id));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kView));
  FIRN_ASSIGN_OR_RETURN(auto view, ReadViewMetadata(ctx, ptr.metadata_location));
  return LoadedView{ptr.metadata_location, std::move(view)};
}

Status CatalogService::ViewExists(const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kViewExists, id));
  FIRN_RETURN_IF_ERROR(store_->LoadPointer(ctx.scope, id, ObjectKind::kView));
  return Ok();
}

Result<CatalogService::PreparedViewCommit> CatalogService::PrepareViewCommit(
    const RequestContext& ctx, const ViewChange& change) {
  PreparedViewCommit p;
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, change.id, ObjectKind::kView));
  p.base_location = ptr.metadata_location;
  FIRN_ASSIGN_OR_RETURN(p.base, ReadViewMetadata(ctx, ptr.metadata_location));
  FIRN_RETURN_IF_ERROR(metadata::CheckViewRequirements(change.requirements, *p.base));
  FIRN_ASSIGN_OR_RETURN(metadata::ViewApplyResult applied,
                        metadata::ApplyViewUpdates(*p.base, change.updates, NowMillis()));
  if (!applied.changed) {
    p.result = p.base;
    return p;
  }
  if (SetsProperties(change.updates)) {
    FIRN_RETURN_IF_ERROR(
        CheckProperties(limits_.properties, "view properties", applied.metadata.properties));
  }
  // A set-location or a new metadata path moves what the view owns: allowed and free first.
  if (ClaimChanges(*p.base, applied.metadata)) {
    FIRN_ASSIGN_OR_RETURN(p.claim, CheckedViewClaim(ctx, change.id, applied.metadata));
  }
  p.changed = true;
  p.new_location = metadata::NewViewMetadataLocation(applied.metadata, p.base_location);
  FIRN_RETURN_IF_ERROR(CheckFileAllowed(ctx, OwnerOf(ctx, change.id, ObjectKind::kView),
                                        p.new_location));
  FIRN_ASSIGN_OR_RETURN(
      p.pending_ms,
      WriteMetadataFile(ctx, change.id, ObjectKind::kView, p.new_location,
                        metadata::EncodeViewMetadataFile(applied.metadata, p.new_location)));
  p.result = std::make_shared<const metadata::ViewMetadata>(std::move(applied.metadata));
  return p;
}

Result<LoadedView> CatalogService::ReplaceView(const RequestContext& ctx,
                                               const ViewChange& change) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kReplaceView, change.id));
  Result<PreparedViewCommit> result = RunCommitLoop<PreparedViewCommit>(
      commit_options_, "view " + FormatIdentifier(change.id),
      [&] { return PrepareViewCommit(ctx, change); },
      [](const PreparedViewCommit& p) { return p.changed; },
      [&](PreparedViewCommit& p) -> Status {
        const store::AuditEntry audit =
            MakeAudit(ctx, Operation::kReplaceView, AuditObject(change.id, ObjectKind::kView),
                      p.base_location, p.new_location);
        FIRN_RETURN_IF_ERROR(CheckAttemptAge(p.pending_ms));
        FIRN_RETURN_IF_ERROR(store_->SwapPointer(ctx.scope, change.id, ObjectKind::kView,
                                                 p.base_location, p.new_location, &audit,
                                                 p.claim ? &*p.claim : nullptr));
        return Ok();
      },
      [&](const PreparedViewCommit& p) { DiscardWritten(ctx, p.new_location); });
  if (!result) {
    RecordCommitRefusal(*store_,
                        MakeAudit(ctx, Operation::kReplaceView,
                                  AuditObject(change.id, ObjectKind::kView)),
                        result.error());
    return Fail(result.error());
  }
  if (!result->changed) return LoadedView{result->base_location, result->result};
  ForgetPending(result->new_location);
  return LoadedView{result->new_location, result->result};
}

Status CatalogService::DropView(const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kDropView, id));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kView));
  std::shared_ptr<const metadata::ViewMetadata> view;
  if (auto read = ReadViewMetadata(ctx, ptr.metadata_location); read) {
    view = *read;
  } else {
    spdlog::warn(R"("msg":"drop view: metadata unreadable, dropping pointer only","file":"{}")",
                 log::Escape(ptr.metadata_location));
  }
  const store::AuditEntry audit =
      MakeAudit(ctx, Operation::kDropView, AuditObject(id, ObjectKind::kView),
                ptr.metadata_location);
  // Soft delete: kept for the catalog's retention; the file goes when it ends.
  if (const auto retention = RetentionOf(ctx); retention.count() > 0) {
    return SoftDrop(ctx, id, ObjectKind::kView, ptr, view ? view->view_uuid : "",
                    /*purge=*/false, retention, audit);
  }
  FIRN_RETURN_IF_ERROR(WithGrants(
      [&](const ObjectGrants& g) { return g.Drop(ctx.scope, ObjectKind::kView, id, false); },
      [&](const store::GrantsPlan* plan) {
        return store_->DropObject(ctx.scope, id, ObjectKind::kView, &audit, plan);
      }));
  if (view) DeleteViewFile(ctx, OwnerOf(ctx, id, ObjectKind::kView), ptr.metadata_location, view);
  return Ok();
}

void CatalogService::DeleteViewFile(const RequestContext& ctx, const store::LocationOwner& owner,
                                    const std::string& location,
                                    std::shared_ptr<const metadata::ViewMetadata> view) {
  if (!view) {
    auto read = ReadViewMetadata(ctx, location);
    if (!read) return;
    view = *read;
  }
  // Views keep no metadata log, so the current file is the only one the catalog knows; it is
  // deleted only from inside the view's own location (a registered file may lie anywhere), and
  // only when no other object owns it.
  if (!GcEnabled(*view)) return;
  if (IsUnder(location, view->location) && DeletableFor(*store_, owner, location)) {
    DeleteQuietly(ctx, location);
  } else {
    spdlog::warn(R"("msg":"drop view: metadata file outside the view location not deleted",)"
                 R"("file":"{}","location":"{}")",
                 log::Escape(location), log::Escape(view->location));
  }
}

Status CatalogService::RenameView(const RequestContext& ctx, const Identifier& from,
                                  const Identifier& to) {
  FIRN_RETURN_IF_ERROR(
      AuthorizeObjectOp(ctx, Operation::kRenameView, from, std::nullopt, &to));
  FIRN_RETURN_IF_ERROR(ValidateIdentifier("destination name", to));
  if (from == to) return ViewExists(ctx, from);
  const store::AuditEntry audit =
      MakeAudit(ctx, Operation::kRenameView,
                AuditObject(from, ObjectKind::kView) + " -> " + AuditObject(to, ObjectKind::kView));
  Status st = WithGrants(
      [&](const ObjectGrants& g) { return g.Rename(ctx.scope, ObjectKind::kView, from, to); },
      [&](const store::GrantsPlan* plan) {
        return store_->RenameObject(ctx.scope, from, to, ObjectKind::kView, &audit, plan);
      });
  // Java words a view-onto-view rename "Cannot rename a to b. View already exists"; the store
  // says "View already exists: b" (right for create), so reword that one case here.
  if (!st && st.error().kind == ErrorKind::kAlreadyExists &&
      store_->LoadPointer(ctx.scope, to, ObjectKind::kView)) {
    return Fail(ErrorKind::kAlreadyExists, "Cannot rename " + FormatIdentifier(from) + " to " +
                                               FormatIdentifier(to) + ". View already exists");
  }
  return st;
}

Result<LoadedView> CatalogService::RegisterView(const RequestContext& ctx, const Identifier& id,
                                                const std::string& metadata_location) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kRegisterView, id));
  FIRN_RETURN_IF_ERROR(ValidateIdentifier("view name", id));
  FIRN_RETURN_IF_ERROR(store_->LoadNamespace(ctx.scope, id.ns));
  FIRN_RETURN_IF_ERROR(CheckNameFree(*store_, ctx, id));
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, metadata_location));
  FIRN_ASSIGN_OR_RETURN(auto view, ReadViewMetadata(ctx, metadata_location, /*caller_named=*/true));
  // The same view dropped softly in this catalog: the register brings it back (as for tables).
  SupersedeDropped(ctx, ObjectKind::kView, view->view_uuid, view->location);
  FIRN_ASSIGN_OR_RETURN(store::LocationClaim claim, CheckedViewClaim(ctx, id, *view));
  if (!std::ranges::any_of(claim.locations, [&](const std::string& owned) {
        return IsUnder(metadata_location, owned);
      })) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid metadata location " + metadata_location +
                    ": it is not inside the view location it describes (" + view->location + ")");
  }
  const store::AuditEntry audit =
      MakeAudit(ctx, Operation::kRegisterView, AuditObject(id, ObjectKind::kView), "",
                metadata_location);
  FIRN_RETURN_IF_ERROR(store_->CreateObject(ctx.scope, id, ObjectKind::kView, metadata_location,
                                            &audit, &claim));
  return LoadedView{metadata_location, std::move(view)};
}

}  // namespace firn::catalog
