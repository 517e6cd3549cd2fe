// CatalogService's view operations (checklist §1.7): the same commit protocol as tables, on
// view metadata files. Tables and views share names; the store words the conflicts.
#include <spdlog/spdlog.h>

#include "catalog/audit.h"
#include "catalog/authorization.h"
#include "catalog/catalog_service.h"
#include "catalog/filtered_page.h"
#include "catalog/identifiers.h"
#include "catalog/location_policy.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"
#include "metadata/gzip.h"
#include "metadata/view_builder.h"
#include "metadata/view_metadata_paths.h"
#include "metadata/view_serde.h"

namespace firn::catalog {

using store::ObjectKind;

namespace {
std::string StripTrailingSlash(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool GcEnabled(const metadata::ViewMetadata& m) {
  auto it = m.properties.find(std::string(metadata::kViewGcEnabledProperty));
  if (it == m.properties.end()) return true;
  std::string value = it->second;
  for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return value != "false";
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
};

Result<std::shared_ptr<const metadata::ViewMetadata>> CatalogService::ReadViewMetadata(
    const std::string& location) {
  FIRN_ASSIGN_OR_RETURN(std::string bytes, objects_->Read(location));
  FIRN_ASSIGN_OR_RETURN(std::string text, metadata::GunzipIfNeeded(location, std::move(bytes)));
  auto parsed = metadata::ParseViewMetadata(text);
  if (!parsed) {
    return Fail(ErrorKind::kInternal,
                "Cannot read view metadata file " + location + ": " + parsed.error().message);
  }
  return std::make_shared<const metadata::ViewMetadata>(std::move(*parsed));
}

Result<store::Page<std::string>> CatalogService::ListViews(const RequestContext& ctx,
                                                           const Namespace& ns,
                                                           const store::PageRequest& page) {
  FIRN_ASSIGN_OR_RETURN(bool filter, AuthorizeList(ctx, "listViews", ns));
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
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "createView", "", id, ObjectKind::kView));
  FIRN_ASSIGN_OR_RETURN(Properties ns_props, store_->LoadNamespace(ctx.scope, ns));
  FIRN_RETURN_IF_ERROR(CheckNameFree(*store_, ctx, id));
  metadata::CreateViewInput input;
  input.location = StripTrailingSlash(request.location.value_or(""));
  if (input.location.empty()) input.location = DefaultTableLocation(ctx, id, ns_props);
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, input.location));
  input.schema = request.schema;
  input.view_version = request.view_version;
  input.properties = request.properties;
  FIRN_ASSIGN_OR_RETURN(metadata::ViewMetadata meta,
                        metadata::NewViewMetadata(input, NowMillis()));
  const std::string file = metadata::NewViewMetadataLocation(meta, std::nullopt);
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, file));  // write.metadata.path
  FIRN_RETURN_IF_ERROR(objects_->WriteNew(file, metadata::EncodeViewMetadataFile(meta, file)));
  const store::AuditEntry audit =
      MakeAudit(ctx, "createView", AuditObject(id, ObjectKind::kView), "", file);
  if (auto st = store_->CreateObject(ctx.scope, id, ObjectKind::kView, file, &audit); !st) {
    if (st.error().kind != ErrorKind::kCommitStateUnknown) DeleteQuietly(file);
    return Fail(st.error());
  }
  return LoadedView{file, std::make_shared<const metadata::ViewMetadata>(std::move(meta))};
}

Result<LoadedView> CatalogService::LoadView(const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "loadView", "", id, ObjectKind::kView));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kView));
  FIRN_ASSIGN_OR_RETURN(auto view, ReadViewMetadata(ptr.metadata_location));
  return LoadedView{ptr.metadata_location, std::move(view)};
}

Status CatalogService::ViewExists(const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "viewExists", "", id, ObjectKind::kView));
  FIRN_RETURN_IF_ERROR(store_->LoadPointer(ctx.scope, id, ObjectKind::kView));
  return Ok();
}

Result<CatalogService::PreparedViewCommit> CatalogService::PrepareViewCommit(
    const RequestContext& ctx, const ViewChange& change) {
  PreparedViewCommit p;
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, change.id, ObjectKind::kView));
  p.base_location = ptr.metadata_location;
  FIRN_ASSIGN_OR_RETURN(p.base, ReadViewMetadata(ptr.metadata_location));
  FIRN_RETURN_IF_ERROR(metadata::CheckViewRequirements(change.requirements, *p.base));
  FIRN_ASSIGN_OR_RETURN(metadata::ViewApplyResult applied,
                        metadata::ApplyViewUpdates(*p.base, change.updates, NowMillis()));
  if (!applied.changed) {
    p.result = p.base;
    return p;
  }
  // A set-location must stay in the catalog's locations, checked before the write.
  if (applied.metadata.location != p.base->location) {
    FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, applied.metadata.location));
  }
  p.changed = true;
  p.new_location = metadata::NewViewMetadataLocation(applied.metadata, p.base_location);
  if (metadata::ViewMetadataDirectory(applied.metadata) !=
      metadata::ViewMetadataDirectory(*p.base)) {
    FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, p.new_location));
  }
  FIRN_RETURN_IF_ERROR(objects_->WriteNew(
      p.new_location, metadata::EncodeViewMetadataFile(applied.metadata, p.new_location)));
  p.result = std::make_shared<const metadata::ViewMetadata>(std::move(applied.metadata));
  return p;
}

Result<LoadedView> CatalogService::ReplaceView(const RequestContext& ctx,
                                               const ViewChange& change) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "replaceView", "", change.id, ObjectKind::kView));
  auto commit = [&]() -> Result<LoadedView> {
    for (int attempt = 0; attempt < commit_options_.max_attempts; ++attempt) {
      FIRN_ASSIGN_OR_RETURN(PreparedViewCommit p, PrepareViewCommit(ctx, change));
      if (!p.changed) return LoadedView{p.base_location, p.result};
      const store::AuditEntry audit = MakeAudit(
          ctx, "replaceView", AuditObject(change.id, ObjectKind::kView), p.base_location,
          p.new_location);
      auto moved = store_->SwapPointer(ctx.scope, change.id, ObjectKind::kView, p.base_location,
                                       p.new_location, &audit);
      if (moved) return LoadedView{p.new_location, p.result};
      const Error& err = moved.error();
      // The swap may have happened: never delete, never claim failure.
      if (err.kind == ErrorKind::kCommitStateUnknown) return Fail(err);
      DeleteQuietly(p.new_location);
      if (err.kind != ErrorKind::kCommitFailed) return Fail(err);
      Backoff(attempt);  // lost the race: re-check requirements against the newer base
    }
    return Fail(ErrorKind::kCommitFailed, "Commit failed: too many concurrent commits to view " +
                                              FormatIdentifier(change.id) + ", retry");
  };
  Result<LoadedView> result = commit();
  // A refused commit leaves no pointer move to carry its audit row: record it on its own.
  if (!result && result.error().kind == ErrorKind::kCommitFailed) {
    RecordRefusal(*store_, MakeAudit(ctx, "replaceView", AuditObject(change.id, ObjectKind::kView)),
                  result.error());
  }
  return result;
}
Status CatalogService::DropView(const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "dropView", "", id, ObjectKind::kView));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, ObjectKind::kView));
  std::shared_ptr<const metadata::ViewMetadata> view;
  if (auto read = ReadViewMetadata(ptr.metadata_location); read) {
    view = *read;
  } else {
    spdlog::warn(R"("msg":"drop view: metadata unreadable, dropping pointer only","file":"{}")",
                 log::Escape(ptr.metadata_location));
  }
  const store::AuditEntry audit =
      MakeAudit(ctx, "dropView", AuditObject(id, ObjectKind::kView), ptr.metadata_location);
  FIRN_RETURN_IF_ERROR(store_->DropObject(ctx.scope, id, ObjectKind::kView, &audit));
  // Views keep no metadata log, so the current file is the only one the catalog knows; it is
  // deleted only from inside the view's own location (a registered file may lie anywhere).
  if (view && GcEnabled(*view)) {
    if (IsUnder(ptr.metadata_location, view->location)) {
      DeleteQuietly(ptr.metadata_location);
    } else {
      spdlog::warn(R"("msg":"drop view: metadata file outside the view location not deleted",)"
                   R"("file":"{}","location":"{}")",
                   log::Escape(ptr.metadata_location), log::Escape(view->location));
    }
  }
  return Ok();
}

Status CatalogService::RenameView(const RequestContext& ctx, const Identifier& from,
                                  const Identifier& to) {
  FIRN_RETURN_IF_ERROR(
      AuthorizeObjectOp(ctx, "renameView", "", from, ObjectKind::kView, std::nullopt, &to));
  if (from == to) return ViewExists(ctx, from);
  const store::AuditEntry audit =
      MakeAudit(ctx, "renameView",
                AuditObject(from, ObjectKind::kView) + " -> " + AuditObject(to, ObjectKind::kView));
  Status st = store_->RenameObject(ctx.scope, from, to, ObjectKind::kView, &audit);
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
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, "registerView", "", id, ObjectKind::kView));
  FIRN_RETURN_IF_ERROR(store_->LoadNamespace(ctx.scope, id.ns));
  FIRN_RETURN_IF_ERROR(CheckNameFree(*store_, ctx, id));
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, metadata_location));
  FIRN_ASSIGN_OR_RETURN(auto view, ReadViewMetadata(metadata_location));
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(ctx, catalogs_, view->location));
  const store::AuditEntry audit =
      MakeAudit(ctx, "registerView", AuditObject(id, ObjectKind::kView), "", metadata_location);
  FIRN_RETURN_IF_ERROR(
      store_->CreateObject(ctx.scope, id, ObjectKind::kView, metadata_location, &audit));
  return LoadedView{metadata_location, std::move(view)};
}

}  // namespace firn::catalog
