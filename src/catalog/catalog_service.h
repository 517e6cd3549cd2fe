// CatalogService: the Iceberg REST operations, one method per operationId.
//
// This is where the rules live: existence checks, the commit protocol (docs/commit-protocol.md),
// location defaults and purge. Handlers in rest/ decode requests and call exactly one method.
// Input limits (catalog/input_rules.h, docs/limits.md): every method that creates a name
// checks it; namespace creates and property updates, table and view creates, and commits
// that set properties are refused (kBadRequest, nothing written) when the object's whole
// property map would break the PropertyLimits; register reads at most
// max_metadata_file_bytes of the file it is given. A table commit that changes the current
// schema in a way the schema-evolution policy refuses (catalog/schema_policy.h) is
// kCommitFailed before anything is written.
// Thread-safety: all methods are safe to call concurrently; the service holds no per-request
// state. Errors follow common/error.h kinds with Iceberg-worded messages.
// Ownership: shares the store and object store with the caller (shared_ptr).
#pragma once

#include <boost/json/value.hpp>

#include <chrono>
#include <functional>
#include <cstdint>
#include <map>
#include <mutex>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog_registry.h"
#include "catalog/commit_loop.h"
#include "catalog/credential_vending.h"
#include "catalog/foreign_writers.h"
#include "catalog/input_rules.h"
#include "catalog/maintenance.h"
#include "catalog/metadata_cache.h"
#include "catalog/object_grants.h"
#include "catalog/purge.h"
#include "catalog/request_context.h"
#include "catalog/store_claims.h"
#include "catalog/task_runner.h"
#include "common/function_ref.h"
#include "common/result.h"
#include "common/worker_pool.h"
#include "io/object_store.h"
#include "io/s3/request_signer.h"
#include "metadata/table_requirement.h"
#include "metadata/table_update.h"
#include "metadata/view_metadata.h"
#include "metadata/view_requirement.h"
#include "metadata/view_update.h"
#include "store/store.h"

namespace firn::catalog {

using store::Identifier;
using store::Namespace;
using store::Properties;

struct CreateTableRequest {
  std::string name;
  std::optional<std::string> location;
  boost::json::value schema;
  std::optional<boost::json::value> partition_spec;
  std::optional<boost::json::value> write_order;
  bool stage_create = false;
  Properties properties;
};

struct TableChange {
  Identifier id;
  std::vector<metadata::TableRequirement> requirements;
  std::vector<metadata::TableUpdate> updates;
  // Internal callers only (maintenance): one more requirement, checked like the others against
  // the base of every attempt, a retry's newer base included. Unset for REST commits.
  std::function<Status(const metadata::TableMetadata& base)> also_require;
};

// A loaded table version. `metadata_location` is empty for a staged (not yet created) table.
struct LoadedTable {
  std::string metadata_location;
  std::shared_ptr<const CachedTable> table;
};

// What a client asked for in X-Iceberg-Access-Delegation.
struct Delegation {
  bool vend = false;  // vended-credentials
  bool sign = false;  // remote-signing
};

// What an engine is told about reaching a table's files (LoadTableResult `config` and
// `storage-credentials`).
struct TableAccess {
  std::map<std::string, std::string> config;
  std::shared_ptr<const VendedCredentials> credentials;  // null: none vended
  std::string warning;  // set when credentials were asked for and none could be vended
};

// How commit intents (store::PendingFile) are kept and swept (pending_files.cc).
struct PendingLimits {
  // An attempt whose intent is older than this does not swap (it is discarded and retried), so
  // a sweep that waited longer never deletes a file its pointer is about to name.
  std::chrono::milliseconds attempt_limit{30000};
  std::chrono::milliseconds min_age{60000};            // intents never swept younger than this
  std::chrono::milliseconds writer_gone_after{15000};  // no heartbeat for this: writer gone
  std::chrono::milliseconds sweep_every{60000};
};

// A table or view moved to another catalog of the deployment (CatalogService::MoveObject).
struct MovedObject {
  store::ObjectKind kind = store::ObjectKind::kTable;
  store::CatalogScope from_scope;
  Identifier from;
  store::CatalogScope to_scope;
  Identifier to;
  std::string metadata_location;
};

// The 409 a commit to a table that is moving out gets (`moving`: the store's moving mark).
Error MovingCommitError(const Identifier& id, std::string_view moving);

// The table a table-less sign request reaches (CatalogService::FindSignOwner).
struct SignOwner {
  std::string catalog;
  Identifier id;
};
// The answer of the table-less signer route to an error of SignRequest: refusals and
// not-found (kForbidden, kNoSuch*) become FindSignOwner's one kForbidden; others pass.
std::unexpected<Error> SignOwnerRefusal(const Error& error);

struct CreateViewRequest {
  std::string name;
  std::optional<std::string> location;
  boost::json::value schema;
  boost::json::value view_version;
  Properties properties;
};

struct ViewChange {
  Identifier id;
  std::vector<metadata::ViewRequirement> requirements;
  std::vector<metadata::ViewUpdate> updates;
};

// A loaded view version; metadata files are immutable, so the pointer may be shared freely.
struct LoadedView {
  std::string metadata_location;
  std::shared_ptr<const metadata::ViewMetadata> metadata;
};


class CatalogService {
 public:
  CatalogService(std::shared_ptr<store::CatalogStore> store,
                 std::shared_ptr<io::ObjectStore> objects, CatalogRegistry catalogs,
                 CommitOptions commit_options = {}, InputLimits limits = {});

  const CatalogRegistry& catalogs() const { return catalogs_; }

  // The deployment this service serves (an id made at first start and kept in the database):
  // table claims on the store name it, and the metadata files the service writes carry its
  // writer tag (table_ownership.cc, docs/ownership-claims.md). Unset (tests of the protocol
  // alone): no claims and no foreign-writer checks. Set before serving.
  void SetDeployment(std::string deployment_id);
  const std::string& deployment() const { return deployment_; }
  // How often a loaded table version is checked, off the request, for another catalog's
  // metadata files next to it (foreign_writers.h); 0 = only commits check. Default 5 s. Set
  // before serving.
  void SetLoadCheckInterval(std::chrono::milliseconds every) { load_check_every_ = every; }
  // This instance's id (instance_acks): commits record intents under it (pending_files.cc),
  // and AttachTasks sweeps the intents of instances that are gone. Unset: no intents (tests,
  // admin commands, which write no metadata files). Set before serving.
  void SetInstance(std::string instance_id, PendingLimits limits = {}) {
    instance_ = std::move(instance_id);
    pending_limits_ = limits;
  }
  // Test mode only: a pause after a commit that sets the table property `firn.test.pause`
  // wrote its metadata file and before it swaps, so a test can kill the instance in between
  // (FIRN_TEST_COMMIT_PAUSE_MS).
  void SetTestCommitPause(std::chrono::milliseconds pause) { test_commit_pause_ = pause; }
  // Resolves the intents of writers that are gone: keeps the files their objects' pointers
  // name or chains list, deletes the others. How many files it deleted.
  Result<size_t> SweepPendingFiles();
  // Durable tasks (catalog/task_runner.h, docs/tasks.md): registers the service's handlers
  // ("purge-table") with `runner`, which then carries out purges: a drop with purge enqueues
  // its task before the pointer goes and runs it inside the request for up to `inline_budget`;
  // the runner finishes whatever is left, after a crash too. `resolve` gives a task the catalog
  // it works in (null: the registry's). Without a runner a purge runs inline, to the end.
  using CatalogResolver =
      std::function<std::shared_ptr<const CatalogInfo>(const store::CatalogScope&)>;
  void AttachTasks(std::shared_ptr<TaskRunner> runner, CatalogResolver resolve,
                   std::chrono::milliseconds inline_budget = std::chrono::seconds(10));
  // The "purge-table" handler (exposed for tests).
  Result<TaskOutcome> RunPurgeTask(const store::Task& task, TaskControl& control);

  // Soft delete (soft_delete.cc, docs/soft-delete.md). A drop keeps the table or view,
  // invisible, for its catalog's retention (catalog property firn.drop.retention, else
  // `retention`, default 7 days; 0 = forget at once). Set before serving.
  void SetDropRetention(std::chrono::seconds retention) { drop_retention_ = retention; }
  // The catalog's dropped objects (CATALOG_MANAGE_CONTENT on the catalog).
  Result<store::Page<store::DroppedObject>> ListDropped(const RequestContext& ctx,
                                                        const store::PageRequest& page);
  // Restores a dropped object under its old name or `target` (CATALOG_MANAGE_CONTENT);
  // kNotFound, kAlreadyExists (name taken), kNoSuchNamespace. Returns it with its new name.
  Result<store::DroppedObject> Undrop(const RequestContext& ctx, const std::string& drop_id,
                                      const std::optional<Identifier>& target);
  // Ends a dropped object's retention now: purges it if its drop asked for that, then forgets
  // it (CATALOG_MANAGE_CONTENT). kNotFound when there is no such dropped object.
  Status Expunge(const RequestContext& ctx, const std::string& drop_id);
  // The "expire-dropped" handler (exposed for tests).
  Result<TaskOutcome> RunExpireDroppedTask(const store::Task& task, TaskControl& control);

  // Catalog-side maintenance (table_maintenance.cc, docs/maintenance.md): expire snapshots or
  // remove orphan files of table `id` (TABLE_WRITE_DATA and TABLE_FULL_METADATA). A dry run
  // answers with what would go and changes nothing; a run is a durable task, run here for the
  // inline budget and finished in the background. Refused (409) on a fenced table, in a catalog
  // that lets tables share locations, on a location another object shares, and on a table
  // another deployment claims.
  Result<MaintenanceReport> Maintain(const RequestContext& ctx, const Identifier& id,
                                     const MaintenanceRequest& request);
  // The expire-snapshots / remove-orphan-files handler (exposed for tests).
  Result<TaskOutcome> RunMaintenanceTask(const store::Task& task, TaskControl& control);
  // Scheduled maintenance: a sweep every `every` walks every table and enqueues the jobs its
  // policy (firn.maintenance.* on the table, its namespaces or its catalog) asks for, once per
  // policy interval. Each instance calls this at start; one sweep exists per period.
  void ScheduleMaintenance(std::chrono::milliseconds every);
  Result<TaskOutcome> RunMaintenanceSweep(const store::Task& task, TaskControl& control);

  // Moving a table to another catalog by register-then-release (table_moves.cc,
  // docs/moves.md). MoveOut marks table `id` as moving (commits refused with a 409 naming the
  // target, loads still served) and rewrites its claim on the store as "moving", which lets
  // `to_deployment` (any deployment when empty) register the table and take the claim over;
  // the source then releases it with a drop (purgeRequested=false). Needs TABLE_DROP and
  // TABLE_FULL_METADATA. CancelMove undoes a move the target has not taken over yet (409 once
  // it has). Both answer with the table's claim as it stands.
  Result<StoreClaim> MoveOut(const RequestContext& ctx, const Identifier& id,
                             const std::string& to_deployment, const std::string& to_description);
  Result<StoreClaim> CancelMove(const RequestContext& ctx, const Identifier& id);
  // Moves table or view `from` of ctx's catalog to `to` in catalog `to_catalog` of the same
  // deployment and realm, in one database transaction (docs/moves.md, "Within one
  // deployment"): same metadata file, same history, same files, which stay where they are
  // (the source catalog hosts them; store.h MoveObject); its grants stay behind and go (catalog
  // roles belong to one catalog). Needs CATALOG_MANAGE_CONTENT on both catalogs. Refused (409)
  // when the object is fenced or moving out, when the two catalogs reach storage differently,
  // or when the target name is taken; 404 for a missing object, catalog or namespace.
  Result<MovedObject> MoveObject(const RequestContext& ctx, store::ObjectKind kind,
                                 const Identifier& from, const std::string& to_catalog,
                                 const Identifier& to);

  // Grants follow their object (object_grants.h): renames, drops, undrops and moves run its
  // plans. Unset (tests of the protocol alone): grants stay where they are. Set before serving.
  void SetObjectGrants(std::shared_ptr<const ObjectGrants> grants) { grants_ = std::move(grants); }
  // Which catalog a scope names, for operations that reach beyond the request's own (tasks,
  // moves); AttachTasks sets it too. Unset: the registry's catalogs.
  void SetCatalogResolver(CatalogResolver resolve) { resolve_catalog_ = std::move(resolve); }

  // Namespaces.
  Result<Properties> CreateNamespace(const RequestContext& ctx, const Namespace& ns,
                                     const Properties& props);
  Result<Properties> LoadNamespaceMetadata(const RequestContext& ctx, const Namespace& ns);
  Status NamespaceExists(const RequestContext& ctx, const Namespace& ns);
  Result<store::Page<Namespace>> ListNamespaces(const RequestContext& ctx, const Namespace& parent,
                                                const store::PageRequest& page);
  Status DropNamespace(const RequestContext& ctx, const Namespace& ns);
  Result<store::PropertiesUpdateResult> UpdateProperties(const RequestContext& ctx,
                                                         const Namespace& ns,
                                                         const std::vector<std::string>& removals,
                                                         const Properties& updates);

  // Tables.
  Result<store::Page<std::string>> ListTables(const RequestContext& ctx, const Namespace& ns,
                                              const store::PageRequest& page);
  Result<LoadedTable> CreateTable(const RequestContext& ctx, const Namespace& ns,
                                  const CreateTableRequest& request);
  Result<LoadedTable> LoadTable(const RequestContext& ctx, const Identifier& id);
  Status TableExists(const RequestContext& ctx, const Identifier& id);
  // kNotFound ("Failed to open input stream for file: …") if the table's current metadata
  // file has disappeared from the object store.
  Status CheckMetadataFileExists(const RequestContext& ctx, const LoadedTable& table);
  Result<LoadedTable> UpdateTable(const RequestContext& ctx, const TableChange& change);
  Status DropTable(const RequestContext& ctx, const Identifier& id, bool purge);
  Status RenameTable(const RequestContext& ctx, const Identifier& from, const Identifier& to);
  Result<LoadedTable> RegisterTable(const RequestContext& ctx, const Identifier& id,
                                    const std::string& metadata_location, bool overwrite);
  // Authorised and checked against the table, then stored for the reports' retention; a
  // database that fails the write is logged and counted, never the client's error (an engine
  // must not fail a query because its report could not be kept). Retention 0: not stored.
  Status ReportMetrics(const RequestContext& ctx, const Identifier& id,
                       const std::string& report_type, std::string report_json);
  // The table's stored reports (TABLE_READ_DATA on it), oldest first after `after_id`.
  Result<std::vector<store::MetricsReport>> ListMetricsReports(
      const RequestContext& ctx, const store::MetricsReportQuery& query);
  // How long reports are kept (docs/operations.md); 0 = not stored.
  void SetMetricsReportRetention(std::chrono::seconds retention) {
    metrics_report_retention_ = retention;
  }
  std::chrono::seconds metrics_report_retention() const { return metrics_report_retention_; }
  // Deletes reports older than the retention (every instance runs it periodically).
  Status ExpireMetricsReports();
  // All tables or none; validated before any pointer moves.
  Status CommitTransaction(const RequestContext& ctx, const std::vector<TableChange>& changes);

  // Storage access for engines (table_access.cc, docs/vending.md). Vending needs a vendor;
  // without one (the default) nothing is vended and S3 catalogs still get their client config.
  void SetCredentialVendor(std::shared_ptr<CredentialVendor> vendor) {
    vendor_ = std::move(vendor);
  }
  // A request for vended credentials on table `id`, authorised before anything happens:
  // loadTable's read delegation (TABLE_READ_DATA), or a create's write delegation
  // (TABLE_CREATE + TABLE_WRITE_DATA on the namespace) when `creating`.
  Status AuthorizeVending(const RequestContext& ctx, const Identifier& id, bool creating);
  // The `config` and `storage-credentials` of a LoadTableResult for `meta` (table `id`,
  // addressed by the client at `table_path`, the route path without its leading '/'): the
  // catalog's client settings always; when `delegation.vend`, credentials confined to the
  // table's locations (read-write when the caller holds TABLE_WRITE_DATA), their keys mirrored
  // in `config`, and the refresh endpoint `<table_path>/credentials`. Nothing vendable: no
  // credentials and a `warning`, or kIllegalArgument in strict mode (Polaris's message) — unless
  // the client also accepts remote signing. When signing is asked for (or is the fallback):
  // s3.remote-signing-enabled and the signer endpoint `<table_path>/sign`. STS down and nothing
  // cached: kServiceUnavailable.
  Result<TableAccess> TableAccessFor(const RequestContext& ctx, const Identifier& id,
                                     const metadata::TableMetadata& meta, Delegation delegation,
                                     std::string_view table_path);
  // signRequest: the SigV4 headers for one S3 request of an engine on table `id`, signed with
  // the server's keys. GET/HEAD need TABLE_READ_DATA, PUT/POST/DELETE TABLE_WRITE_DATA; every
  // key the request touches must lie inside the table's locations (kForbidden otherwise).
  Result<std::vector<io::s3::HttpHeader>> SignRequest(const RequestContext& ctx,
                                                      const Identifier& id,
                                                      const io::s3::ClientS3Request& request);
  // The older signer route (POST /v1/aws/s3/sign) names no table: the one table of the caller's
  // realm whose locations hold every key `request` touches, from the location index (any
  // catalog; the route then signs through SignRequest in that catalog). kForbidden, with one
  // message whatever the reason (no owner, several, the whole bucket), so that the route is no
  // oracle for where tables live; SignOwnerRefusal maps SignRequest's refusals to the same.
  Result<SignOwner> FindSignOwner(const RequestContext& ctx,
                                  const io::s3::ClientS3Request& request);
  // loadCredentials: the table's credentials (TABLE_READ_DATA); kIllegalArgument when none can
  // be vended.
  Result<std::shared_ptr<const VendedCredentials>> LoadCredentials(const RequestContext& ctx,
                                                                   const Identifier& id);

  // Views (view_operations.cc). Tables and views share one name space per namespace; a view
  // name that holds a table is kNoSuchView. View metadata files default to gzip.
  Result<store::Page<std::string>> ListViews(const RequestContext& ctx, const Namespace& ns,
                                             const store::PageRequest& page);
  Result<LoadedView> CreateView(const RequestContext& ctx, const Namespace& ns,
                                const CreateViewRequest& request);
  Result<LoadedView> LoadView(const RequestContext& ctx, const Identifier& id);
  Status ViewExists(const RequestContext& ctx, const Identifier& id);
  // The commit protocol with server-side retry, as UpdateTable; no change writes no file.
  Result<LoadedView> ReplaceView(const RequestContext& ctx, const ViewChange& change);
  // Deletes the current metadata file too, unless the view has gc.enabled=false.
  Status DropView(const RequestContext& ctx, const Identifier& id);
  Status RenameView(const RequestContext& ctx, const Identifier& from, const Identifier& to);
  // Reads (never rewrites) the file at `metadata_location`; kAlreadyExists if the name is used.
  Result<LoadedView> RegisterView(const RequestContext& ctx, const Identifier& id,
                                  const std::string& metadata_location);

 private:
  struct PreparedCommit;

  // `caller_named`: a file named in a register request (catalog/metadata_files.h).
  Result<std::shared_ptr<const CachedTable>> ReadMetadata(const RequestContext& ctx,
                                                          const std::string& location,
                                                          bool caller_named = false);
  // The store that reaches the files of ctx's catalog (catalog_storage.cc): the server's own,
  // or one built for the catalog's storage profile when it names its own internal endpoint,
  // region, path style or keys (CredentialVendor::ServerConnection), kept for reuse. A profile
  // the server cannot serve gets a store whose every call fails with that error.
  io::ObjectStore& ObjectsOf(const RequestContext& ctx);
  // One attempt: check requirements on the current base, apply, write the new file.
  Result<PreparedCommit> PrepareCommit(const RequestContext& ctx, const TableChange& change);
  // The commit protocol with retries, after authorisation (UpdateTable / CommitTransaction).
  Result<LoadedTable> CommitTable(const RequestContext& ctx, const TableChange& change);
  Status CommitTables(const RequestContext& ctx, const std::vector<TableChange>& changes);
  Properties WithDefaultLocation(const RequestContext& ctx, const Namespace& ns,
                                 Properties props) const;
  // `<namespace location>/<name>`, or beside it with a unique suffix when another object (one
  // renamed away) still holds that location.
  Result<std::string> DefaultLocation(const RequestContext& ctx, const Identifier& id,
                                      store::ObjectKind kind, const Properties& ns_props);
  // Whether it deleted (a failure is logged).
  bool DeleteQuietly(const RequestContext& ctx, const std::string& location);
  // A written metadata file whose commit did not happen: deleted, then its intent forgotten (a
  // failed delete leaves the intent for the sweep).
  void DiscardWritten(const RequestContext& ctx, const std::string& location);
  void DeleteOwned(const RequestContext& ctx, const store::LocationOwner& owner,
                   const std::string& location, const std::vector<std::string>& files);
  Result<store::LocationClaim> CheckedTableClaim(const RequestContext& ctx,
                                                 const store::LocationOwner& owner,
                                                 const metadata::TableMetadata& meta);
  Result<std::optional<store::LocationClaim>> NamespaceClaim(const RequestContext& ctx,
                                                             const Namespace& ns,
                                                             const Properties& props);
  void Committed(const RequestContext& ctx, const PreparedCommit& p);
  Result<store::LocationClaim> CheckedViewClaim(const RequestContext& ctx, const Identifier& id,
                                                const metadata::ViewMetadata& meta);
  Result<std::shared_ptr<const metadata::ViewMetadata>> ReadViewMetadata(
      const RequestContext& ctx, const std::string& location, bool caller_named = false);
  // One view commit attempt: check requirements on the current base, apply, write the file.
  struct PreparedViewCommit;
  Result<PreparedViewCommit> PrepareViewCommit(const RequestContext& ctx,
                                               const ViewChange& change);

  // The table's claim on the store (store_claims.h) for `id` at meta.location: written
  // create-only when `write` (returns the claim written, to withdraw if the create then
  // fails), or only read. Another deployment's claim, or a live table of this one, is
  // kLocationConflict naming the owner; this deployment's claim of a dropped table is taken
  // over; its claim of this very table under this name stands as it is. nullopt: nothing was
  // written (claims are off, `write` is false, or the claim already stands).
  Result<std::optional<StoreClaim>> ClaimOnStore(const RequestContext& ctx, const Identifier& id,
                                                 const metadata::TableMetadata& meta,
                                                 bool write);
  // Deletes the claim `written` (by ClaimOnStore) if it is still the one on the store.
  void WithdrawClaim(const RequestContext& ctx, const std::optional<StoreClaim>& written);
  // After a drop: deletes the table's claim when it is this deployment's claim of this table.
  void ReleaseStoreClaim(const RequestContext& ctx, const metadata::TableMetadata& meta);
  // Before a commit writes anything (foreign_writers.h): refuses a fenced table, and fences
  // one whose metadata directory holds a file another catalog wrote next to the current one.
  Status CheckForeignWriters(const RequestContext& ctx, const Identifier& id,
                             const store::ObjectPointer& ptr, const CachedTable& base);
  // After a load: queues the same check on the background worker, at most once per interval
  // per table version; a hit fences the table for its next commit.
  void CheckForeignWritersAfterLoad(const RequestContext& ctx, const Identifier& id,
                                    const store::ObjectPointer& ptr,
                                    std::shared_ptr<const CachedTable> table);
  // Fences table `id` against the `foreign` files found (on top of `fence`): the fence in the
  // store, the metric, a warning and an audit row naming `op`. Returns the fence.
  Result<Fence> FenceForeign(const RequestContext& ctx, const Identifier& id,
                             const std::string& metadata_location, const Fence& fence,
                             const std::vector<std::string>& foreign, auth::Operation op);

  // Records the intent (when an instance is set), then writes the metadata file for object
  // `id`. The intent's time (0 without one), for PendingTooOld before the swap.
  Result<int64_t> WriteMetadataFile(const RequestContext& ctx, const Identifier& id,
                                    store::ObjectKind kind, const std::string& location,
                                    std::string_view bytes);
  // The outcome of the write at `location` is known (its pointer moved, or it was deleted).
  void ForgetPending(const std::string& location);
  // kCommitFailed when the attempt whose intent was recorded at `pending_ms` is too old to swap
  // (PendingLimits::attempt_limit): the loop discards it and tries again.
  Status CheckAttemptAge(int64_t pending_ms) const;
  // Whether an intent's file is still needed: the current file or in the chain of whoever
  // owns its location now.
  Result<bool> StillNeeded(const RequestContext& ctx, const store::PendingFile& pending);
  // Runs `write` with the plan `make` gives when grants follow objects (nullptr when they do
  // not), then lets this instance see the grants it changed.
  Status WithGrants(FunctionRef<store::GrantsPlan(const ObjectGrants&)> make,
                    FunctionRef<Status(const store::GrantsPlan*)> write);
  // Soft delete (soft_delete.cc).
  std::chrono::seconds RetentionOf(const RequestContext& ctx) const;
  Status SoftDrop(const RequestContext& ctx, const Identifier& id, store::ObjectKind kind,
                  const store::ObjectPointer& ptr, std::string uuid, bool purge,
                  std::chrono::seconds retention, const store::AuditEntry& audit);
  // Purges (if requested) and forgets `dropped`; false when keep_going stopped it part way.
  Result<bool> ExpireDropped(const RequestContext& ctx, const store::DroppedObject& dropped,
                             FunctionRef<bool()> keep_going);
  // A register of object `uuid` (of `kind`, at `location`) forgets this catalog's dropped
  // entries of the same object: same kind and uuid, at the same location, and not yet due for
  // a purge.
  void SupersedeDropped(const RequestContext& ctx, store::ObjectKind kind,
                        const std::string& uuid, const std::string& location);
  // A dropped view's metadata file, deleted when gc.enabled and only from its own location.
  void DeleteViewFile(const RequestContext& ctx, const store::LocationOwner& owner,
                      const std::string& location,
                      std::shared_ptr<const metadata::ViewMetadata> view = nullptr);
  // Maintenance (table_maintenance.cc).
  // Files under `location` that another table of the realm, live or dropped, references (every
  // manifest of every such table is read: a background task's cost, documented). Tables at
  // `location` itself (`self`, its dropped entry) are not others. `strict`: a manifest of
  // another table that cannot be read refuses (kCommitFailed) instead of being skipped.
  // kServiceUnavailable "stopped" when keep_going stopped it.
  Result<std::set<std::string>> ReferencedByOthers(const RequestContext& ctx,
                                                   const Identifier& self,
                                                   const std::string& location,
                                                   FunctionRef<bool()> keep_going,
                                                   bool strict = true);
  // Whether `location` (of a file written for `owner`) lies in a location `owner` holds in
  // another catalog's locations: a table or view moved here writes beside its files.
  bool InsideHostedLocation(const store::LocationOwner& owner, std::string_view location);
  // CheckLocationAllowed for a file written for `owner`: its catalog's locations, or its own
  // hosted ones (InsideHostedLocation); inside the storage roots either way.
  Status CheckFileAllowed(const RequestContext& ctx, const store::LocationOwner& owner,
                          std::string_view location);
  // Moves (table_moves.cc): this deployment's claim of table `id` (409 otherwise).
  Result<StoreClaim> ReadOwnClaim(const RequestContext& ctx, const Identifier& id,
                                  const metadata::TableMetadata& meta);
  // A policy property of table `id`: the table's, else its namespaces' (innermost first),
  // else its catalog's.
  std::optional<std::string> PolicyValue(const RequestContext& ctx, const Identifier& id,
                                         const metadata::TableMetadata& meta,
                                         std::string_view key);
  // A purge of table `id`'s files (PurgeTableFiles) on behalf of `owner` that also spares every
  // file another table, live or dropped, references. kServiceUnavailable "stopped" when
  // keep_going stopped it before it began deleting.
  Result<PurgeResult> PurgeOwnFiles(const RequestContext& ctx, const Identifier& id,
                                    const store::LocationOwner& owner,
                                    const metadata::TableMetadata& meta,
                                    const std::string& metadata_location,
                                    FunctionRef<bool()> keep_going);
  Status CheckMaintainable(const RequestContext& ctx, const Identifier& id,
                           const store::ObjectPointer& ptr, const metadata::TableMetadata& meta);
  Result<MaintenanceReport> RunMaintenanceStep(const RequestContext& ctx, const Identifier& id,
                                               const MaintenanceRequest& request,
                                               const std::string& progress,
                                               FunctionRef<bool()> keep_going,
                                               TaskControl* control);
  Result<MaintenanceReport> ExpireTableSnapshots(const RequestContext& ctx, const Identifier& id,
                                                 const MaintenanceRequest& request,
                                                 const std::string& progress,
                                                 FunctionRef<bool()> keep_going,
                                                 TaskControl* control);
  Result<MaintenanceReport> RemoveTableOrphans(const RequestContext& ctx, const Identifier& id,
                                               const MaintenanceRequest& request,
                                               FunctionRef<bool()> keep_going);
  // The context a task works in: its realm and catalog.
  RequestContext TaskContextOf(const store::Task& task) const;

  std::chrono::seconds drop_retention_{std::chrono::hours(24 * 7)};
  std::chrono::seconds metrics_report_retention_{std::chrono::hours(24 * 7)};
  std::chrono::milliseconds sweep_every_{std::chrono::hours(1)};
  std::shared_ptr<TaskRunner> tasks_;
  CatalogResolver resolve_catalog_;
  std::chrono::milliseconds inline_task_budget_{10000};
  std::string deployment_;
  std::string writer_tag_;
  std::shared_ptr<store::CatalogStore> store_;
  std::shared_ptr<io::ObjectStore> objects_;
  CatalogRegistry catalogs_;
  CommitOptions commit_options_;
  InputLimits limits_;
  MetadataCache cache_;
  std::shared_ptr<CredentialVendor> vendor_;
  std::shared_ptr<const ObjectGrants> grants_;
  // Stores of catalogs with their own connection (ObjectsOf), by connection.
  std::mutex own_stores_mu_;
  std::map<std::string, std::shared_ptr<io::ObjectStore>> own_stores_;  // own_stores_mu_
  std::chrono::milliseconds load_check_every_{5000};
  std::string instance_;
  PendingLimits pending_limits_;
  std::chrono::milliseconds test_commit_pause_{0};
  // Checks that must not hold up a request; last, so it stops before what its tasks use goes.
  std::unique_ptr<WorkerPool> background_;
};

}  // namespace firn::catalog
