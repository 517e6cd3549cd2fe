// CatalogStore: the only mutable truth — one pointer per table or view, plus namespaces.
//
// Thread-safety: every method is safe to call concurrently from any thread.
// Error contract:
//   kNoSuchNamespace / kNoSuchTable / kNoSuchView   the object is missing
//   kAlreadyExists      create/rename onto a used name (message says table or view)
//   kNamespaceNotEmpty  drop of a namespace holding tables, views or child namespaces
//   kCommitFailed       compare-and-swap lost: the pointer is not the expected one
//   kServiceUnavailable the database cannot be reached; nothing was changed
//   kCommitStateUnknown a write was sent but its outcome could not be confirmed
//   kLocationConflict   a write's location claim overlaps another owner's (location_claims.h)
// Messages follow the Iceberg REST wording (docs/error-mapping.md) so the service can pass
// them through. Ownership: the store owns its connections; callers own the values passed in.
// Audit: every write takes an optional AuditEntry (CommitTransaction: a span of them). When
// given, the row is appended in the same database transaction as the change, so a commit and
// its audit row exist together or not at all; a failed write appends nothing (the caller may
// record the refusal with AppendAudit). at_ms = 0 means "now".
// Locations: writes that create or move an object may carry a LocationClaim (nullptr = the
// object's claims stay as they are). The claim is checked against every other owner's and
// recorded in the same transaction as the pointer write, so two writers claiming overlapping
// locations at once cannot both succeed (kLocationConflict, nothing written). Dropping an
// object releases its claims; renaming it keeps them.
// Grants: writes that rename, drop, restore or move an object may carry a GrantsPlan (nullptr =
// grants stay as they are); its access writes commit in the same transaction as the object's.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "store/access_store.h"
#include "store/event_store.h"
#include "store/idempotency_store.h"
#include "store/location_claims.h"
#include "store/task_store.h"

namespace firn::store {

using Namespace = std::vector<std::string>;          // levels, outermost first
using Properties = std::map<std::string, std::string>;
// Judges a property map; an error refuses the write it was asked about.
using PropertiesCheck = std::function<Status(const Properties&)>;

enum class ObjectKind { kTable, kView };

// Grants follow the object they are on: a rename carries them to the new name, a drop takes them
// away (a soft drop keeps them with the dropped object), an undrop brings them back. Which access
// records change is access/'s business (it alone reads their bodies); the store runs its plan
// inside the object's own transaction, after taking the access writers' lock and before
// touching the object, so no grant made meanwhile is missed and the locks are always taken in
// one order.
struct GrantsChange {
  std::vector<AccessWrite> writes;  // applied with a bump of the access version (none: no bump)
  std::string stash;                // SoftDropObject: kept with the dropped object
};
// Given the catalog's catalog_role and privilege_grant records and the stash a dropped object
// kept (UndropObject; "" otherwise), what changes. An error rolls the whole write back.
using GrantsPlan = std::function<Result<GrantsChange>(const std::vector<AccessRecord>& records,
                                                      std::string_view stash)>;

struct Identifier {
  Namespace ns;
  std::string name;
  friend bool operator==(const Identifier&, const Identifier&) = default;
};

// Names a catalog (a warehouse) inside a realm. Every object lives in exactly one catalog.
struct CatalogScope {
  std::string realm = "default";
  std::string catalog = "default";
};

struct PageRequest {
  std::optional<std::string> token;  // opaque; absent or empty = from the start
  std::optional<int64_t> size;       // absent = everything
};

template <typename T>
struct Page {
  std::vector<T> items;
  std::optional<std::string> next_token;  // absent on the last page
};

struct ObjectPointer {
  std::string metadata_location;
  int64_t version = 0;  // increments on every swap; useful for caches and audit
  std::string fence;    // '' = none; else a fence against a foreign writer (SetFence)
  std::string moving;   // '' = none; else the table is moving to another catalog (SetMoving)
};

// A table or view that carries a fence (ListFences).
struct FencedObject {
  CatalogScope scope;
  Identifier id;
  ObjectKind kind = ObjectKind::kTable;
  std::string metadata_location;
  std::string fence;
};

// One pointer move inside a multi-object transaction.
struct PointerSwap {
  Identifier id;
  ObjectKind kind = ObjectKind::kTable;
  std::optional<std::string> expected_location;  // nullopt = create (must not exist)
  std::string new_location;
  std::optional<LocationClaim> claim;             // nullopt = locations unchanged
};

// A table or view dropped softly: its row leaves `objects` (the name is free at once) and is
// kept here, invisible to the REST API, until `expires_ms`, restorable by UndropObject. Its
// location claims stay held meanwhile, by DroppedOwner(scope, kind, drop_id), so no other
// object can take its files' locations while it may come back.
struct DroppedObject {
  std::string drop_id;  // unique; sorts by drop time (a UUIDv7)
  CatalogScope scope;
  Identifier id;        // the name it had
  ObjectKind kind = ObjectKind::kTable;
  std::string metadata_location;
  std::string fence;
  std::string uuid;     // the table's or view's uuid, from its metadata ('' if unreadable)
  int64_t dropped_ms = 0;
  int64_t expires_ms = 0;
  bool purge_requested = false;
  std::string detail;   // a small JSON document the catalog keeps (who dropped it)
};

// The owner that holds a dropped object's location claims: its kind, no namespace (no live
// object has an empty namespace) and the drop id as its name.
LocationOwner DroppedOwner(const CatalogScope& scope, ObjectKind kind, const std::string& drop_id);
inline bool IsDroppedOwner(const LocationOwner& owner) {
  return (owner.kind == LocationOwnerKind::kTable || owner.kind == LocationOwnerKind::kView) &&
         owner.ns.empty();
}

struct PropertiesUpdateResult {
  std::vector<std::string> updated;
  std::vector<std::string> removed;
  std::vector<std::string> missing;
};

// A metadata file a commit is about to write (an intent): recorded before the write, removed
// once the commit's outcome is known. One left behind names a file a crashed instance may have
// written without its pointer ever moving to it (catalog: SweepPendingFiles).
struct PendingFile {
  std::string location;     // the metadata file
  CatalogScope scope;
  Identifier id;            // the table or view it is for
  ObjectKind kind = ObjectKind::kTable;
  std::string instance;     // the instance that writes it (instance_acks' id)
  int64_t created_ms = 0;
};

struct MetricsReport {
  Identifier table;
  std::string report_type;
  std::string json;  // the report as received (already validated JSON)
  int64_t received_ms = 0;
  int64_t id = 0;    // set when read back (ascending in the order stored)
};

// Which stored reports of one table to list: those with an id above `after_id`, oldest
// first, of `report_type` when not empty, at most `limit` (1..1000).
struct MetricsReportQuery {
  Identifier table;
  std::string report_type;
  int64_t after_id = 0;
  int limit = 100;
};

// Also an IdempotencyStore (idempotency_store.h), an AccessStore (access_store.h), a TaskStore
// (task_store.h) and an EventStore (event_store.h): one database holds them all, so a commit
// and its audit row (its change event) share a transaction.
class CatalogStore : public IdempotencyStore,
                     public AccessStore,
                     public TaskStore,
                     public EventStore {
 public:
  ~CatalogStore() override = default;

  // Namespaces.
  // `claim`: the namespace's explicit `location` property, if it has one.
  virtual Status CreateNamespace(const CatalogScope& scope, const Namespace& ns,
                                 const Properties& props, const AuditEntry* audit = nullptr,
                                 const LocationClaim* claim = nullptr) = 0;
  virtual Result<Properties> LoadNamespace(const CatalogScope& scope, const Namespace& ns) = 0;
  // Direct children of `parent` (empty = top level), sorted. kNoSuchNamespace if parent missing.
  virtual Result<Page<Namespace>> ListNamespaces(const CatalogScope& scope,
                                                 const Namespace& parent,
                                                 const PageRequest& page) = 0;
  virtual Status DropNamespace(const CatalogScope& scope, const Namespace& ns,
                               const AuditEntry* audit = nullptr,
                               const GrantsPlan* grants = nullptr) = 0;
  // Removals and updates must not share a key (the caller checks; 422). `check`, when given,
  // sees the namespace's whole property map after the change, inside the same transaction
  // (concurrent updates of one namespace are serialised); its error rolls everything back and
  // is returned as is. The caller's limits thus hold however the updates interleave.
  // `claim` replaces the namespace's claim when the update sets or removes `location`.
  virtual Result<PropertiesUpdateResult> UpdateNamespaceProperties(
      const CatalogScope& scope, const Namespace& ns, const std::vector<std::string>& removals,
      const Properties& updates, const AuditEntry* audit = nullptr,
      const PropertiesCheck* check = nullptr, const LocationClaim* claim = nullptr) = 0;

  // Tables and views share one name space per namespace.
  virtual Result<Page<std::string>> ListObjects(const CatalogScope& scope, const Namespace& ns,
                                                ObjectKind kind, const PageRequest& page) = 0;
  virtual Result<ObjectPointer> LoadPointer(const CatalogScope& scope, const Identifier& id,
                                            ObjectKind kind) = 0;
  // Creates the pointer; kAlreadyExists if a table or a view holds the name.
  virtual Status CreateObject(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                              const std::string& metadata_location,
                              const AuditEntry* audit = nullptr,
                              const LocationClaim* claim = nullptr) = 0;
  // Moves the pointer iff it currently equals `expected_location`; kCommitFailed otherwise.
  virtual Result<ObjectPointer> SwapPointer(const CatalogScope& scope, const Identifier& id,
                                            ObjectKind kind, const std::string& expected_location,
                                            const std::string& new_location,
                                            const AuditEntry* audit = nullptr,
                                            const LocationClaim* claim = nullptr) = 0;
  // Registers over an existing table (register with overwrite=true): unconditional swap.
  virtual Status ReplacePointer(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                                const std::string& new_location,
                                const AuditEntry* audit = nullptr,
                                const LocationClaim* claim = nullptr) = 0;
  virtual Status DropObject(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                            const AuditEntry* audit = nullptr,
                            const GrantsPlan* grants = nullptr) = 0;

  // Soft delete. SoftDropObject moves the pointer of dropped.id into the dropped objects (with
  // its fence), re-keying its location claims to DroppedOwner, all in one transaction;
  // kNoSuchTable/kNoSuchView when it is missing, kCommitFailed when its pointer is no longer
  // dropped.metadata_location (a commit came first).
  virtual Status SoftDropObject(const DroppedObject& dropped, const AuditEntry* audit = nullptr,
                                const GrantsPlan* grants = nullptr) = 0;
  // The catalog's dropped objects, oldest drop first (page tokens as ListObjects).
  virtual Result<Page<DroppedObject>> ListDroppedObjects(const CatalogScope& scope,
                                                         const PageRequest& page) = 0;
  // kNotFound when no dropped object of the catalog has that id.
  virtual Result<DroppedObject> LoadDroppedObject(const CatalogScope& scope,
                                                  const std::string& drop_id) = 0;
  // Dropped objects of any catalog of the realm whose uuid is `uuid` (register of the same
  // table back supersedes them).
  virtual Result<std::vector<DroppedObject>> FindDroppedByUuid(const std::string& realm,
                                                               const std::string& uuid) = 0;
  // Restores a dropped object as `target` (its old name or a new one) with its fence and its
  // location claims, and forgets the dropped entry, in one transaction. kNotFound (no such
  // drop id), kNoSuchNamespace, kAlreadyExists (the name is taken).
  virtual Status UndropObject(const CatalogScope& scope, const std::string& drop_id,
                              const Identifier& target, const AuditEntry* audit = nullptr,
                              const GrantsPlan* grants = nullptr) = 0;
  // Forgets a dropped object for good and releases its location claims (expiry, expunge,
  // or a register of the same table). kNotFound when it is already gone.
  virtual Status ForgetDroppedObject(const CatalogScope& scope, const std::string& drop_id,
                                     const AuditEntry* audit = nullptr) = 0;
  // Sets (or with '' clears) the object's fence: an opaque document the catalog keeps beside
  // the pointer (catalog/foreign_writers.h), with `audit` in the same transaction.
  // kNoSuchTable/kNoSuchView when it is missing.
  virtual Status SetFence(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                          const std::string& fence, const AuditEntry* audit = nullptr) = 0;
  // Marks (or with '' clears) the object as moving to another catalog: an opaque document
  // (catalog/table_moves.cc). While it is set, SwapPointer and CommitTransaction refuse to move
  // the pointer (kCommitFailed), so no commit that was prepared before the mark can land after
  // it. `audit` is written in the same transaction. kNoSuchTable/kNoSuchView when it is missing.
  virtual Status SetMoving(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                           const std::string& moving, const AuditEntry* audit = nullptr) = 0;
  // Every object carrying a fence, ordered by realm, catalog, namespace and name (admin).
  virtual Result<std::vector<FencedObject>> ListFences() = 0;
  virtual Status RenameObject(const CatalogScope& scope, const Identifier& from,
                              const Identifier& to, ObjectKind kind,
                              const AuditEntry* audit = nullptr,
                              const GrantsPlan* grants = nullptr) = 0;
  // Moves a table or view to another catalog of the same realm (one deployment): the pointer,
  // its fence and its location claims, in one transaction. The files stay where they are, so
  // the claims keep the catalog whose locations hold them as their host
  // (LocationClaim::host_catalog: the source, or the host it already had; none once the object
  // is back in its host). `grants` runs in the source catalog (the target's roles are others);
  // `audits` (each catalog's half) are written in the same transaction.
  // kNoSuchTable/kNoSuchView, kCommitFailed (the pointer is no longer `expected_location`, or
  // the object is moving out), kNoSuchNamespace (target), kAlreadyExists (target name taken),
  // kLocationConflict.
  virtual Status MoveObject(const CatalogScope& from_scope, const Identifier& from,
                            const CatalogScope& to_scope, const Identifier& to, ObjectKind kind,
                            const std::string& expected_location,
                            std::span<const AuditEntry> audits = {},
                            const GrantsPlan* grants = nullptr) = 0;
  // All swaps or none, in one database transaction (with all `audits`, when given).
  virtual Status CommitTransaction(const CatalogScope& scope,
                                   const std::vector<PointerSwap>& swaps,
                                   std::span<const AuditEntry> audits = {}) = 0;

  virtual Status StoreMetricsReport(const CatalogScope& scope, const MetricsReport& report) = 0;
  virtual Result<std::vector<MetricsReport>> ListMetricsReports(
      const CatalogScope& scope, const MetricsReportQuery& query) = 0;
  // Retention: deletes every report received before `before_ms` (all realms); the count.
  virtual Result<int64_t> DeleteMetricsReportsBefore(int64_t before_ms) = 0;

  // Commit intents (PendingFile). Adding one that exists is kAlreadyExists; removing a missing
  // one is not an error. List: those created before `before_ms`, oldest first.
  virtual Status AddPendingFile(const PendingFile& pending) = 0;
  virtual Status RemovePendingFiles(const std::vector<std::string>& locations) = 0;
  virtual Result<std::vector<PendingFile>> ListPendingFiles(int64_t before_ms, int64_t limit) = 0;

  // Every (realm, catalog) holding at least one namespace or dropped object, sorted by realm
  // then catalog.
  // For admin tools that walk a whole database (firn admin copy-store); not a hot path.
  virtual Result<std::vector<CatalogScope>> ListCatalogScopes() = 0;

  // Location claims (location_claims.h).
  // The first conflict `claim` would meet, without writing (for a refusal that can name it).
  virtual Result<std::optional<LocationConflict>> FindLocationConflict(
      const LocationOwner& owner, const LocationClaim& claim) = 0;
  // Every claim at `location` or at one of its ancestors (who owns this path), any owner.
  virtual Result<std::vector<HeldLocation>> LocationHolders(std::string_view location) = 0;
  // Replaces an owner's claims. `check` = false records them even where they overlap (admin
  // backfill of data from before the index; the overlap is reported, not refused).
  virtual Status SetLocationClaim(const LocationOwner& owner, const LocationClaim& claim,
                                  bool check) = 0;
  // Refreshes the database's planner statistics of the location index, after a bulk load (the
  // backfill): PostgreSQL otherwise keeps plans made for the small table until autovacuum
  // next analyzes it. SQLite plans from its indexes and needs nothing.
  virtual Status RefreshLocationStatistics() = 0;
  // Every claim, ordered by location (admin reports; not a hot path).
  virtual Result<std::vector<HeldLocation>> ListLocationClaims() = 0;
  // Small named values of the deployment (e.g. which one-time backfills ran). nullopt = unset.
  virtual Result<std::optional<std::string>> LoadSetting(const std::string& name) = 0;
  virtual Status SaveSetting(const std::string& name, const std::string& value) = 0;
  // Stores `value` unless the setting exists; returns what is stored either way, so that
  // instances starting at once agree on one value (the deployment id).
  virtual Result<std::string> EnsureSetting(const std::string& name, const std::string& value) = 0;
};

}  // namespace firn::store
