#include "store/sql/sql_catalog_store.h"

#include <algorithm>
#include <optional>
#include <set>
#include <span>
#include <utility>

#include "common/clock.h"
#include "common/macros.h"
#include "store/idempotency_codec.h"
#include "store/sql/sql_access_ops.h"
#include "store/sql/sql_event_ops.h"
#include "store/sql/sql_location_ops.h"
#include "store/sql/sql_statements.h"
#include "store/store_errors.h"
#include "store/store_keys.h"

namespace firn::store {
namespace {

using sql::ReadMode;
using sql::Row;
using sql::Session;
using sql::WriteMode;

constexpr std::string_view KindText(ObjectKind kind) {
  return kind == ObjectKind::kTable ? "table" : "view";
}

ObjectKind KindFromText(std::string_view text) {
  return text == "view" ? ObjectKind::kView : ObjectKind::kTable;
}

// One extra row tells whether another page exists.
int64_t SqlLimit(const std::optional<int64_t>& size) { return size ? *size + 1 : sql::kNoLimit; }

template <typename T>
Page<T> FinishPage(std::vector<T> items, const std::vector<std::string>& keys,
                   const std::optional<int64_t>& size) {
  Page<T> page;
  if (size && static_cast<int64_t>(items.size()) > *size) {
    items.resize(*size);
    page.next_token = EncodePageToken(keys[*size - 1]);
  }
  page.items = std::move(items);
  return page;
}

struct ExistingObject {
  ObjectKind kind;
  std::string location;
};

Result<bool> NamespaceExists(Session& s, const CatalogScope& scope, const std::string& key,
                             std::string_view query = sql::kNamespaceExists) {
  return s.Exists(query, {scope.realm, scope.catalog, key});
}

Status RequireNamespace(Session& s, const CatalogScope& scope, const Namespace& ns,
                        std::string_view query = sql::kNamespaceExists) {
  FIRN_ASSIGN_OR_RETURN(bool exists, NamespaceExists(s, scope, NamespaceKey(ns), query));
  if (!exists) return Fail(NoSuchNamespaceError(ns));
  return Ok();
}

// A namespace's properties; found = false when it does not exist.
Status LoadProperties(Session& s, const CatalogScope& scope, const Namespace& ns,
                      Properties& props, bool& found) {
  props.clear();
  found = false;
  return s.Query(sql::kLoadNamespace, {scope.realm, scope.catalog, NamespaceKey(ns)},
                 [&](const Row& row) -> Status {
                   found = true;
                   if (!row.IsNull(0)) {
                     props.emplace(std::string(row.Text(0)), std::string(row.Text(1)));
                   }
                   return Ok();
                 });
}

Result<std::optional<ExistingObject>> FindObject(Session& s, const CatalogScope& scope,
                                                 const Identifier& id,
                                                 std::string_view query = sql::kFindObject) {
  std::optional<ExistingObject> found;
  FIRN_RETURN_IF_ERROR(s.Query(query, {scope.realm, scope.catalog, NamespaceKey(id.ns), id.name},
                               [&](const Row& row) -> Status {
                                 found = ExistingObject{KindFromText(row.Text(0)),
                                                        std::string(row.Text(1))};
                                 return Ok();
                               }));
  return found;
}

// Inside a transaction. A concurrent insert of the same name fails with a unique violation:
// the backend reruns the transaction and FindObject then reports the winner.
Status InsertObject(Session& s, const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                    const std::string& location) {
  FIRN_RETURN_IF_ERROR(RequireNamespace(
      s, scope, id.ns, sql::Pick(s, sql::kNamespaceExists, sql::kNamespaceKeyShare)));
  FIRN_ASSIGN_OR_RETURN(auto existing, FindObject(s, scope, id));
  if (existing) return Fail(ObjectExistsError(id, kind, existing->kind));
  return s.Run(sql::kInsertObject, {scope.realm, scope.catalog, NamespaceKey(id.ns), id.name,
                                    KindText(kind), location, NowMillis()});
}

Result<ObjectPointer> CasPointer(Session& s, const CatalogScope& scope, const Identifier& id,
                                 ObjectKind kind, const std::string& expected,
                                 const std::string& next) {
  std::optional<int64_t> version;
  FIRN_RETURN_IF_ERROR(s.Exec(sql::kSwapPointer,
                              {scope.realm, scope.catalog, NamespaceKey(id.ns), id.name,
                               KindText(kind), next, expected, NowMillis()},
                              [&](const Row& row) -> Status {
                                version = row.Int(0);
                                return Ok();
                              }));
  if (version) return ObjectPointer{next, *version};
  // Nothing matched: say why.
  FIRN_ASSIGN_OR_RETURN(auto existing, FindObject(s, scope, id));
  if (!existing || existing->kind != kind) return Fail(NoSuchObjectError(id, kind));
  if (existing->location == expected) {
    // Still at the expected file, so only the moving mark can have refused it (SetMoving).
    return Fail(ErrorKind::kCommitFailed,
                "Commit failed: " + IdentifierDisplay(id) +
                    " is moving to another catalog; commits here are refused");
  }
  return Fail(PointerMovedError(id, kind, expected, existing->location));
}

LocationOwner OwnerOf(const CatalogScope& scope, const Identifier& id, ObjectKind kind) {
  return {scope.realm, scope.catalog,
          kind == ObjectKind::kTable ? LocationOwnerKind::kTable : LocationOwnerKind::kView,
          id.ns, id.name};
}

LocationOwner OwnerOf(const CatalogScope& scope, const Namespace& ns) {
  return {scope.realm, scope.catalog, LocationOwnerKind::kNamespace, ns, ""};
}

std::span<const AuditEntry> Audits(const AuditEntry* audit) {
  return audit ? std::span<const AuditEntry>(audit, 1) : std::span<const AuditEntry>();
}

DroppedObject DroppedFromRow(const Row& row) {
  DroppedObject d;
  d.drop_id = std::string(row.Text(0));
  d.scope = CatalogScope{std::string(row.Text(1)), std::string(row.Text(2))};
  d.id = Identifier{NamespaceFromKey(row.Text(3)), std::string(row.Text(4))};
  d.kind = row.Text(5) == "view" ? ObjectKind::kView : ObjectKind::kTable;
  d.metadata_location = std::string(row.Text(6));
  d.fence = std::string(row.Text(7));
  d.uuid = std::string(row.Text(8));
  d.dropped_ms = row.Int(9);
  d.expires_ms = row.Int(10);
  d.purge_requested = row.Int(11) != 0;
  d.detail = std::string(row.Text(12));
  return d;
}

// A GrantsPlan (store.h), first in its write's transaction: the access writers' lock, the
// catalog's roles and grants, then the plan's writes, with a version bump only when there are
// any. Returns the stash the plan keeps ("" without a plan).
Result<std::string> RunGrantsPlan(Session& s, const CatalogScope& scope, const GrantsPlan* plan,
                                  std::string_view stash) {
  if (plan == nullptr) return std::string();
  FIRN_RETURN_IF_ERROR(s.Query(sql::Pick(s, sql::kReadAccessVersion, sql::kLockAccessVersion),
                               {}, [](const Row&) -> Status { return Ok(); }));
  std::vector<AccessRecord> records;
  for (AccessKind kind : {AccessKind::kCatalogRole, AccessKind::kPrivilegeGrant}) {
    FIRN_ASSIGN_OR_RETURN(auto some, sql::ListScopeRecords(s, scope.realm, kind, scope.catalog));
    records.insert(records.end(), std::make_move_iterator(some.begin()),
                   std::make_move_iterator(some.end()));
  }
  FIRN_ASSIGN_OR_RETURN(GrantsChange change, (*plan)(records, stash));
  if (!change.writes.empty()) {
    FIRN_RETURN_IF_ERROR(sql::ApplyAccessWrites(s, change.writes, nullptr, NowMillis()));
  }
  return std::move(change.stash);
}

Error NoSuchDroppedError(const std::string& drop_id) {
  return Error(ErrorKind::kNotFound, "No dropped table or view with id " + drop_id);
}

Task TaskFromRow(const Row& row) {
  Task t;
  t.id = std::string(row.Text(0));
  t.kind = std::string(row.Text(1));
  t.realm = std::string(row.Text(2));
  t.catalog = std::string(row.Text(3));
  t.object = std::string(row.Text(4));
  t.payload = std::string(row.Text(5));
  t.state = TaskStateFromName(row.Text(6)).value_or(TaskState::kFailed);
  t.attempts = static_cast<int>(row.Int(7));
  t.not_before_ms = row.Int(8);
  t.lease_owner = std::string(row.Text(9));
  t.lease_until_ms = row.Int(10);
  t.progress = std::string(row.Text(11));
  t.last_error = std::string(row.Text(12));
  t.created_ms = row.Int(13);
  t.updated_ms = row.Int(14);
  return t;
}

Error LeaseLostError(const std::string& id) {
  return Error(ErrorKind::kCommitFailed, "Task " + id + " is no longer claimed by this instance");
}

class SqlCatalogStore final : public CatalogStore {
 public:
  explicit SqlCatalogStore(std::unique_ptr<sql::Runner> runner) : runner_(std::move(runner)) {}

  Status CreateNamespace(const CatalogScope& scope, const Namespace& ns, const Properties& props,
                         const AuditEntry* audit = nullptr,
                         const LocationClaim* claim = nullptr) override {
    FIRN_RETURN_IF_ERROR(ValidateNamespaceForCreate(ns));
    return Write(Audits(audit), WriteMode::kTransaction, [&](Session& s) -> Status {
      if (ns.size() > 1) {
        FIRN_ASSIGN_OR_RETURN(
            bool parent, NamespaceExists(s, scope, ParentKey(ns),
                                         sql::Pick(s, sql::kNamespaceExists,
                                                   sql::kNamespaceKeyShare)));
        if (!parent) return Fail(NoSuchParentNamespaceError(ns));
      }
      const std::string key = NamespaceKey(ns);
      FIRN_ASSIGN_OR_RETURN(bool exists, NamespaceExists(s, scope, key));
      if (exists) return Fail(NamespaceExistsError(ns));
      FIRN_RETURN_IF_ERROR(s.Run(sql::kInsertNamespace, {scope.realm, scope.catalog, key,
                                                         ParentKey(ns), NowMillis()}));
      for (const auto& [name, value] : props) {
        FIRN_RETURN_IF_ERROR(
            s.Run(sql::kUpsertProperty, {scope.realm, scope.catalog, key, name, value}));
      }
      if (claim) FIRN_RETURN_IF_ERROR(sql::ClaimLocations(s, OwnerOf(scope, ns), *claim));
      return Ok();
    });
  }

  Result<Properties> LoadNamespace(const CatalogScope& scope, const Namespace& ns) override {
    Properties props;
    bool found = false;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) {
      return LoadProperties(s, scope, ns, props, found);
    }));
    if (!found) return Fail(NoSuchNamespaceError(ns));
    return props;
  }

  Result<Page<Namespace>> ListNamespaces(const CatalogScope& scope, const Namespace& parent,
                                         const PageRequest& page) override {
    FIRN_RETURN_IF_ERROR(CheckPageSize(page.size));
    FIRN_ASSIGN_OR_RETURN(auto after, DecodePageToken(page.token));
    std::vector<std::string> keys;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSnapshot, [&](Session& s) -> Status {
      keys.clear();
      if (!parent.empty()) FIRN_RETURN_IF_ERROR(RequireNamespace(s, scope, parent));
      return s.Query(sql::kListNamespaces,
                     {scope.realm, scope.catalog, NamespaceKey(parent), after.value_or(""),
                      SqlLimit(page.size)},
                     [&](const Row& row) -> Status {
                       keys.emplace_back(row.Text(0));
                       return Ok();
                     });
    }));
    std::vector<Namespace> items;
    items.reserve(keys.size());
    for (const std::string& key : keys) items.push_back(NamespaceFromKey(key));
    return FinishPage(std::move(items), keys, page.size);
  }

  Status DropNamespace(const CatalogScope& scope, const Namespace& ns,
                       const AuditEntry* audit = nullptr,
                       const GrantsPlan* grants = nullptr) override {
    return Write(Audits(audit), WriteMode::kTransaction, [&](Session& s) -> Status {
      FIRN_RETURN_IF_ERROR(RunGrantsPlan(s, scope, grants, ""));
      const std::string key = NamespaceKey(ns);
      // FOR UPDATE waits for writers holding KEY SHARE on it (creates inside it), so the
      // emptiness checks below see what they created.
      FIRN_RETURN_IF_ERROR(RequireNamespace(
          s, scope, ns, sql::Pick(s, sql::kNamespaceExists, sql::kNamespaceForUpdate)));
      for (std::string_view check : {sql::kHasObject, sql::kHasChildNamespace}) {
        FIRN_ASSIGN_OR_RETURN(bool used, s.Exists(check, {scope.realm, scope.catalog, key}));
        if (used) return Fail(NamespaceNotEmptyError(ns));
      }
      FIRN_RETURN_IF_ERROR(sql::ReleaseLocations(s, OwnerOf(scope, ns)));
      return s.Run(sql::kDeleteNamespace, {scope.realm, scope.catalog, key});
    });
  }

  Result<PropertiesUpdateResult> UpdateNamespaceProperties(
      const CatalogScope& scope, const Namespace& ns, const std::vector<std::string>& removals,
      const Properties& updates, const AuditEntry* audit = nullptr,
      const PropertiesCheck* check = nullptr, const LocationClaim* claim = nullptr) override {
    PropertiesUpdateResult result;
    FIRN_RETURN_IF_ERROR(Write(Audits(audit), WriteMode::kTransaction, [&](Session& s) -> Status {
      result = {};
      const std::string key = NamespaceKey(ns);
      FIRN_RETURN_IF_ERROR(RequireNamespace(
          s, scope, ns, sql::Pick(s, sql::kNamespaceExists, sql::kNamespaceNoKeyUpdate)));
      std::set<std::string> seen;
      for (const auto& name : removals) {
        if (!seen.insert(name).second) continue;
        FIRN_ASSIGN_OR_RETURN(int64_t removed, s.Exec(sql::kDeleteProperty,
                                                      {scope.realm, scope.catalog, key, name}));
        (removed > 0 ? result.removed : result.missing).push_back(name);
      }
      for (const auto& [name, value] : updates) {
        FIRN_RETURN_IF_ERROR(
            s.Run(sql::kUpsertProperty, {scope.realm, scope.catalog, key, name, value}));
        result.updated.push_back(name);
      }
      if (check) {  // the namespace's row lock (or the one writer) serialises its updates
        Properties after;
        bool found = false;
        FIRN_RETURN_IF_ERROR(LoadProperties(s, scope, ns, after, found));
        if (!found) return Fail(NoSuchNamespaceError(ns));
        FIRN_RETURN_IF_ERROR((*check)(after));
      }
      if (claim) FIRN_RETURN_IF_ERROR(sql::ClaimLocations(s, OwnerOf(scope, ns), *claim));
      return s.Run(sql::kTouchNamespace, {scope.realm, scope.catalog, key, NowMillis()});
    }));
    return result;
  }

  Result<Page<std::string>> ListObjects(const CatalogScope& scope, const Namespace& ns,
                                        ObjectKind kind, const PageRequest& page) override {
    FIRN_RETURN_IF_ERROR(CheckPageSize(page.size));
    FIRN_ASSIGN_OR_RETURN(auto after, DecodePageToken(page.token));
    std::vector<std::string> names;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSnapshot, [&](Session& s) -> Status {
      names.clear();
      FIRN_RETURN_IF_ERROR(RequireNamespace(s, scope, ns));
      auto add = [&](const Row& row) -> Status {
        names.emplace_back(row.Text(0));
        return Ok();
      };
      const std::string key = NamespaceKey(ns);
      if (after) {
        return s.Query(sql::kListObjectsAfter, {scope.realm, scope.catalog, key, KindText(kind),
                                                SqlLimit(page.size), *after},
                       add);
      }
      return s.Query(sql::kListObjectsFirst,
                     {scope.realm, scope.catalog, key, KindText(kind), SqlLimit(page.size)}, add);
    }));
    std::vector<std::string> keys = names;
    return FinishPage(std::move(names), keys, page.size);
  }

  Result<ObjectPointer> LoadPointer(const CatalogScope& scope, const Identifier& id,
                                    ObjectKind kind) override {
    std::optional<ObjectPointer> pointer;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      return s.Query(sql::kLoadPointer,
                     {scope.realm, scope.catalog, NamespaceKey(id.ns), id.name, KindText(kind)},
                     [&](const Row& row) -> Status {
                       pointer = ObjectPointer{std::string(row.Text(0)), row.Int(1),
                                               std::string(row.Text(2)),
                                               std::string(row.Text(3))};
                       return Ok();
                     });
    }));
    // A missing namespace is also "no such table": Java clients rely on it.
    if (!pointer) return Fail(NoSuchObjectError(id, kind));
    return std::move(*pointer);
  }

  Status CreateObject(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                      const std::string& metadata_location, const AuditEntry* audit = nullptr,
                      const LocationClaim* claim = nullptr) override {
    return Write(Audits(audit), WriteMode::kTransaction, [&](Session& s) -> Status {
      FIRN_RETURN_IF_ERROR(InsertObject(s, scope, id, kind, metadata_location));
      if (claim) FIRN_RETURN_IF_ERROR(sql::ClaimLocations(s, OwnerOf(scope, id, kind), *claim));
      return Ok();
    });
  }

  Result<ObjectPointer> SwapPointer(const CatalogScope& scope, const Identifier& id,
                                    ObjectKind kind, const std::string& expected_location,
                                    const std::string& new_location,
                                    const AuditEntry* audit = nullptr,
                                    const LocationClaim* claim = nullptr) override {
    // Without an audit row or a claim, one round trip where the backend allows it.
    ObjectPointer pointer;
    const WriteMode mode = claim ? WriteMode::kTransaction : WriteMode::kSingle;
    FIRN_RETURN_IF_ERROR(Write(Audits(audit), mode, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(pointer,
                            CasPointer(s, scope, id, kind, expected_location, new_location));
      if (claim) FIRN_RETURN_IF_ERROR(sql::ClaimLocations(s, OwnerOf(scope, id, kind), *claim));
      return Ok();
    }));
    return pointer;
  }

  Status ReplacePointer(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                        const std::string& new_location, const AuditEntry* audit = nullptr,
                        const LocationClaim* claim = nullptr) override {
    const WriteMode mode = claim ? WriteMode::kTransaction : WriteMode::kSingle;
    return Write(Audits(audit), mode, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(int64_t changed,
                            s.Exec(sql::kReplacePointer,
                                   {scope.realm, scope.catalog, NamespaceKey(id.ns), id.name,
                                    KindText(kind), new_location, NowMillis()}));
      if (changed == 0) return Fail(NoSuchObjectError(id, kind));
      if (claim) FIRN_RETURN_IF_ERROR(sql::ClaimLocations(s, OwnerOf(scope, id, kind), *claim));
      return Ok();
    });
  }

  Status DropObject(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                    const AuditEntry* audit = nullptr,
                    const GrantsPlan* grants = nullptr) override {
    // The pointer, its location claims and its grants go together.
    return Write(Audits(audit), WriteMode::kTransaction, [&](Session& s) -> Status {
      FIRN_RETURN_IF_ERROR(RunGrantsPlan(s, scope, grants, ""));
      FIRN_ASSIGN_OR_RETURN(int64_t changed,
                            s.Exec(sql::kDeleteObject, {scope.realm, scope.catalog,
                                                        NamespaceKey(id.ns), id.name,
                                                        KindText(kind)}));
      if (changed == 0) return Fail(NoSuchObjectError(id, kind));
      return sql::ReleaseLocations(s, OwnerOf(scope, id, kind));
    });
  }

  Status SoftDropObject(const DroppedObject& d, const AuditEntry* audit = nullptr,
                        const GrantsPlan* grants = nullptr) override {
    return Write(Audits(audit), WriteMode::kTransaction, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(std::string stash, RunGrantsPlan(s, d.scope, grants, ""));
      std::optional<std::string> fence;
      FIRN_ASSIGN_OR_RETURN(int64_t removed,
                            s.Exec(sql::kDeleteObjectAt,
                                   {d.scope.realm, d.scope.catalog, NamespaceKey(d.id.ns),
                                    d.id.name, KindText(d.kind), d.metadata_location},
                                   [&](const Row& row) -> Status {
                                     fence = std::string(row.Text(0));
                                     return Ok();
                                   }));
      (void)removed;
      if (!fence) {
        FIRN_ASSIGN_OR_RETURN(auto existing, FindObject(s, d.scope, d.id));
        if (!existing || existing->kind != d.kind) return Fail(NoSuchObjectError(d.id, d.kind));
        return Fail(PointerMovedError(d.id, d.kind, d.metadata_location, existing->location));
      }
      FIRN_RETURN_IF_ERROR(s.Run(
          sql::kInsertDropped,
          {d.drop_id, d.scope.realm, d.scope.catalog, NamespaceKey(d.id.ns), d.id.name,
           KindText(d.kind), d.metadata_location, *fence, d.uuid,
           d.dropped_ms != 0 ? d.dropped_ms : NowMillis(), d.expires_ms,
           int64_t{d.purge_requested ? 1 : 0}, d.detail}));
      if (!stash.empty()) {
        FIRN_RETURN_IF_ERROR(
            s.Run(sql::kSetDroppedGrants, {d.scope.realm, d.scope.catalog, d.drop_id, stash}));
      }
      return sql::RenameLocationOwner(s, OwnerOf(d.scope, d.id, d.kind),
                                      DroppedOwner(d.scope, d.kind, d.drop_id));
    });
  }

  Result<Page<DroppedObject>> ListDroppedObjects(const CatalogScope& scope,
                                                 const PageRequest& page) override {
    FIRN_RETURN_IF_ERROR(CheckPageSize(page.size));
    FIRN_ASSIGN_OR_RETURN(auto after, DecodePageToken(page.token));
    std::vector<DroppedObject> items;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      items.clear();
      return s.Query(sql::kListDropped,
                     {scope.realm, scope.catalog, after.value_or(""), SqlLimit(page.size)},
                     [&](const Row& row) -> Status {
                       items.push_back(DroppedFromRow(row));
                       return Ok();
                     });
    }));
    std::vector<std::string> keys;
    keys.reserve(items.size());
    for (const auto& d : items) keys.push_back(d.drop_id);
    return FinishPage(std::move(items), keys, page.size);
  }

  Result<DroppedObject> LoadDroppedObject(const CatalogScope& scope,
                                          const std::string& drop_id) override {
    std::optional<DroppedObject> found;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      found.reset();
      return s.Query(sql::kLoadDropped, {scope.realm, scope.catalog, drop_id},
                     [&](const Row& row) -> Status {
                       found = DroppedFromRow(row);
                       return Ok();
                     });
    }));
    if (!found) return Fail(NoSuchDroppedError(drop_id));
    return std::move(*found);
  }

  Result<std::vector<DroppedObject>> FindDroppedByUuid(const std::string& realm,
                                                       const std::string& uuid) override {
    std::vector<DroppedObject> out;
    if (uuid.empty()) return out;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      out.clear();
      return s.Query(sql::kFindDroppedByUuid, {realm, uuid}, [&](const Row& row) -> Status {
        out.push_back(DroppedFromRow(row));
        return Ok();
      });
    }));
    return out;
  }

  Status UndropObject(const CatalogScope& scope, const std::string& drop_id,
                      const Identifier& target, const AuditEntry* audit = nullptr,
                      const GrantsPlan* grants = nullptr) override {
    return Write(Audits(audit), WriteMode::kTransaction, [&](Session& s) -> Status {
      std::string stash;
      if (grants) {
        FIRN_RETURN_IF_ERROR(s.Query(sql::kLoadDroppedGrants, {scope.realm, scope.catalog, drop_id},
                                     [&](const Row& row) -> Status {
                                       stash = std::string(row.Text(0));
                                       return Ok();
                                     }));
        FIRN_RETURN_IF_ERROR(RunGrantsPlan(s, scope, grants, stash));
      }
      std::optional<DroppedObject> d;
      FIRN_RETURN_IF_ERROR(s.Query(sql::kLoadDropped, {scope.realm, scope.catalog, drop_id},
                                   [&](const Row& row) -> Status {
                                     d = DroppedFromRow(row);
                                     return Ok();
                                   }));
      if (!d) return Fail(NoSuchDroppedError(drop_id));
      FIRN_ASSIGN_OR_RETURN(int64_t gone,
                            s.Exec(sql::kDeleteDropped, {scope.realm, scope.catalog, drop_id}));
      if (gone != 1) return Fail(NoSuchDroppedError(drop_id));
      FIRN_RETURN_IF_ERROR(InsertObject(s, scope, target, d->kind, d->metadata_location));
      if (!d->fence.empty()) {
        FIRN_RETURN_IF_ERROR(s.Run(sql::kSetFence, {scope.realm, scope.catalog,
                                                    NamespaceKey(target.ns), target.name,
                                                    KindText(d->kind), d->fence}));
      }
      return sql::RenameLocationOwner(s, DroppedOwner(scope, d->kind, drop_id),
                                      OwnerOf(scope, target, d->kind));
    });
  }

  Status ForgetDroppedObject(const CatalogScope& scope, const std::string& drop_id,
                             const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), WriteMode::kTransaction, [&](Session& s) -> Status {
      std::optional<ObjectKind> kind;
      FIRN_RETURN_IF_ERROR(s.Query(sql::kLoadDropped, {scope.realm, scope.catalog, drop_id},
                                   [&](const Row& row) -> Status {
                                     kind = DroppedFromRow(row).kind;
                                     return Ok();
                                   }));
      if (!kind) return Fail(NoSuchDroppedError(drop_id));
      FIRN_ASSIGN_OR_RETURN(int64_t gone,
                            s.Exec(sql::kDeleteDropped, {scope.realm, scope.catalog, drop_id}));
      if (gone != 1) return Fail(NoSuchDroppedError(drop_id));
      return sql::ReleaseLocations(s, DroppedOwner(scope, *kind, drop_id));
    });
  }

  Status RenameObject(const CatalogScope& scope, const Identifier& from, const Identifier& to,
                      ObjectKind kind, const AuditEntry* audit = nullptr,
                      const GrantsPlan* grants = nullptr) override {
    return Write(Audits(audit), WriteMode::kTransaction, [&](Session& s) -> Status {
      FIRN_RETURN_IF_ERROR(RunGrantsPlan(s, scope, grants, ""));
      // Locking the source makes a concurrent rename or drop of it wait, then see it gone.
      FIRN_ASSIGN_OR_RETURN(
          auto source,
          FindObject(s, scope, from, sql::Pick(s, sql::kFindObject, sql::kFindObjectForUpdate)));
      if (!source || source->kind != kind) return Fail(NoSuchObjectError(from, kind));
      FIRN_RETURN_IF_ERROR(RequireNamespace(
          s, scope, to.ns, sql::Pick(s, sql::kNamespaceExists, sql::kNamespaceKeyShare)));
      FIRN_ASSIGN_OR_RETURN(auto target, FindObject(s, scope, to));
      if (target) return Fail(RenameTargetExistsError(from, to, kind, target->kind));
      FIRN_ASSIGN_OR_RETURN(int64_t changed,
                            s.Exec(sql::kRenameObject,
                                   {scope.realm, scope.catalog, NamespaceKey(from.ns), from.name,
                                    NamespaceKey(to.ns), to.name, NowMillis()}));
      if (changed != 1) return Fail(NoSuchObjectError(from, kind));
      return sql::RenameLocationOwner(s, OwnerOf(scope, from, kind), OwnerOf(scope, to, kind));
    });
  }

  Status MoveObject(const CatalogScope& from_scope, const Identifier& from,
                    const CatalogScope& to_scope, const Identifier& to, ObjectKind kind,
                    const std::string& expected_location,
                    std::span<const AuditEntry> audits = {},
                    const GrantsPlan* grants = nullptr) override {
    if (from_scope.realm != to_scope.realm) {
      return Fail(ErrorKind::kBadRequest, "A table or view moves only inside its realm");
    }
    return Write(audits, WriteMode::kTransaction, [&](Session& s) -> Status {
      FIRN_RETURN_IF_ERROR(RunGrantsPlan(s, from_scope, grants, ""));
      FIRN_ASSIGN_OR_RETURN(
          auto source, FindObject(s, from_scope, from,
                                  sql::Pick(s, sql::kFindObject, sql::kFindObjectForUpdate)));
      if (!source || source->kind != kind) return Fail(NoSuchObjectError(from, kind));
      FIRN_RETURN_IF_ERROR(RequireNamespace(
          s, to_scope, to.ns, sql::Pick(s, sql::kNamespaceExists, sql::kNamespaceKeyShare)));
      FIRN_ASSIGN_OR_RETURN(auto target, FindObject(s, to_scope, to));
      if (target) return Fail(ObjectExistsError(to, kind, target->kind));
      FIRN_ASSIGN_OR_RETURN(int64_t changed,
                            s.Exec(sql::kMoveObject,
                                   {from_scope.realm, from_scope.catalog, NamespaceKey(from.ns),
                                    from.name, KindText(kind), to_scope.catalog,
                                    NamespaceKey(to.ns), to.name, NowMillis(),
                                    expected_location}));
      if (changed != 1) {
        if (source->location != expected_location) {
          return Fail(PointerMovedError(from, kind, expected_location, source->location));
        }
        return Fail(ErrorKind::kCommitFailed,
                    IdentifierDisplay(from) + " is moving to another catalog; it cannot move");
      }
      // The files stay: the claims keep (or gain) the host whose locations hold them.
      const LocationOwner old_owner = OwnerOf(from_scope, from, kind);
      FIRN_ASSIGN_OR_RETURN(LocationClaim claim, sql::OwnerClaim(s, old_owner));
      if (claim.host_catalog.empty()) claim.host_catalog = from_scope.catalog;
      if (claim.host_catalog == to_scope.catalog) claim.host_catalog.clear();
      FIRN_RETURN_IF_ERROR(sql::ReleaseLocations(s, old_owner));
      return sql::ClaimLocations(s, OwnerOf(to_scope, to, kind), claim);
    });
  }

  Status CommitTransaction(const CatalogScope& scope, const std::vector<PointerSwap>& swaps,
                           std::span<const AuditEntry> audits = {}) override {
    return Write(audits, WriteMode::kTransaction, [&](Session& s) -> Status {
      for (const auto& swap : swaps) {
        if (swap.expected_location) {
          FIRN_RETURN_IF_ERROR(CasPointer(s, scope, swap.id, swap.kind, *swap.expected_location,
                                          swap.new_location));
        } else {
          FIRN_RETURN_IF_ERROR(InsertObject(s, scope, swap.id, swap.kind, swap.new_location));
        }
        if (swap.claim) {
          FIRN_RETURN_IF_ERROR(
              sql::ClaimLocations(s, OwnerOf(scope, swap.id, swap.kind), *swap.claim));
        }
      }
      return Ok();
    });
  }

  Status AddPendingFile(const PendingFile& p) override {
    return runner_->Write(WriteMode::kSingle, [&](Session& s) -> Status {
      return s.Run(sql::kInsertPending,
                   {p.location, p.scope.realm, p.scope.catalog, NamespaceKey(p.id.ns),
                    p.id.name, KindText(p.kind), p.instance,
                    p.created_ms != 0 ? p.created_ms : NowMillis()});
    });
  }

  Status RemovePendingFiles(const std::vector<std::string>& locations) override {
    if (locations.empty()) return Ok();
    return runner_->Write(WriteMode::kTransaction, [&](Session& s) -> Status {
      for (const std::string& location : locations) {
        FIRN_RETURN_IF_ERROR(s.Run(sql::kDeletePending, {location}));
      }
      return Ok();
    });
  }

  Result<std::vector<PendingFile>> ListPendingFiles(int64_t before_ms, int64_t limit) override {
    std::vector<PendingFile> out;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      out.clear();
      return s.Query(sql::kListPending, {before_ms, limit}, [&](const Row& row) -> Status {
        PendingFile p;
        p.location = std::string(row.Text(0));
        p.scope = CatalogScope{std::string(row.Text(1)), std::string(row.Text(2))};
        p.id = Identifier{NamespaceFromKey(row.Text(3)), std::string(row.Text(4))};
        p.kind = KindFromText(row.Text(5));
        p.instance = std::string(row.Text(6));
        p.created_ms = row.Int(7);
        out.push_back(std::move(p));
        return Ok();
      });
    }));
    return out;
  }

  Status StoreMetricsReport(const CatalogScope& scope, const MetricsReport& report) override {
    return runner_->Write(WriteMode::kSingle, [&](Session& s) {
      return s.Run(sql::kInsertMetrics,
                   {scope.realm, scope.catalog, NamespaceKey(report.table.ns), report.table.name,
                    report.report_type, report.json,
                    report.received_ms != 0 ? report.received_ms : NowMillis()});
    });
  }

  Result<std::vector<MetricsReport>> ListMetricsReports(
      const CatalogScope& scope, const MetricsReportQuery& query) override {
    if (query.limit < 1 || query.limit > 1000) {
      return Fail(ErrorKind::kBadRequest, "Invalid limit: must be between 1 and 1000");
    }
    std::vector<MetricsReport> out;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      out.clear();
      return s.Query(sql::kListMetrics,
                     {scope.realm, scope.catalog, NamespaceKey(query.table.ns), query.table.name,
                      query.report_type, query.after_id, int64_t{query.limit}},
                     [&](const Row& row) -> Status {
                       MetricsReport r;
                       r.table = query.table;
                       r.id = row.Int(0);
                       r.report_type = std::string(row.Text(1));
                       r.json = std::string(row.Text(2));
                       r.received_ms = row.Int(3);
                       out.push_back(std::move(r));
                       return Ok();
                     });
    }));
    return out;
  }

  Result<int64_t> DeleteMetricsReportsBefore(int64_t before_ms) override {
    int64_t deleted = 0;
    FIRN_RETURN_IF_ERROR(runner_->Write(WriteMode::kIdempotent, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(deleted, s.Exec(sql::kDeleteMetricsBefore, {before_ms}));
      return Ok();
    }));
    return deleted;
  }

  Result<std::vector<CatalogScope>> ListCatalogScopes() override {
    std::vector<CatalogScope> scopes;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      scopes.clear();
      return s.Query(sql::kListCatalogScopes, {}, [&](const Row& row) -> Status {
        scopes.push_back({std::string(row.Text(0)), std::string(row.Text(1))});
        return Ok();
      });
    }));
    return scopes;
  }

  // Location claims.
  Result<std::optional<LocationConflict>> FindLocationConflict(
      const LocationOwner& owner, const LocationClaim& claim) override {
    std::optional<LocationConflict> conflict;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSnapshot, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(conflict, sql::FindConflict(s, owner, claim));
      return Ok();
    }));
    return conflict;
  }

  Result<std::vector<HeldLocation>> LocationHolders(std::string_view location) override {
    std::vector<HeldLocation> holders;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(holders, sql::HoldersOf(s, location));
      return Ok();
    }));
    return holders;
  }

  Status SetLocationClaim(const LocationOwner& owner, const LocationClaim& claim,
                          bool check) override {
    return runner_->Write(WriteMode::kTransaction, [&](Session& s) {
      return sql::ClaimLocations(s, owner, claim, check);
    });
  }

  Status RefreshLocationStatistics() override {
    return runner_->Write(WriteMode::kIdempotent, [&](Session& s) -> Status {
      if (!s.HasRowLocks()) return Ok();
      return s.Run(sql::kAnalyzeLocations, {});
    });
  }

  Result<std::vector<HeldLocation>> ListLocationClaims() override {
    std::vector<HeldLocation> claims;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(claims, sql::ListClaims(s));
      return Ok();
    }));
    return claims;
  }

  Result<std::optional<std::string>> LoadSetting(const std::string& name) override {
    std::optional<std::string> value;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      return s.Query(sql::kLoadSetting, {name}, [&](const Row& row) -> Status {
        value = std::string(row.Text(0));
        return Ok();
      });
    }));
    return value;
  }

  Status SaveSetting(const std::string& name, const std::string& value) override {
    return runner_->Write(WriteMode::kIdempotent,
                          [&](Session& s) { return s.Run(sql::kSaveSetting, {name, value}); });
  }

  Result<std::string> EnsureSetting(const std::string& name, const std::string& value) override {
    FIRN_RETURN_IF_ERROR(runner_->Write(WriteMode::kIdempotent, [&](Session& s) {
      return s.Run(sql::kInsertSettingIfAbsent, {name, value});
    }));
    FIRN_ASSIGN_OR_RETURN(std::optional<std::string> stored, LoadSetting(name));
    if (!stored) return Fail(ErrorKind::kInternal, "setting " + name + " vanished after it was stored");
    return std::move(*stored);
  }

  // TaskStore.
  Status EnqueueTask(const Task& task) override {
    const int64_t now = NowMillis();
    return runner_->Write(WriteMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(int64_t inserted,
                            s.Exec(sql::kInsertTask, {task.id, task.kind, task.realm,
                                                      task.catalog, task.object, task.payload,
                                                      task.not_before_ms, now}));
      if (inserted == 0) {
        return Fail(ErrorKind::kAlreadyExists, "Task already exists: " + task.id);
      }
      return Ok();
    });
  }

  Result<std::optional<Task>> ClaimTask(const std::string& owner, int64_t now_ms,
                                        int64_t lease_ms, const std::string& only_id) override {
    std::optional<Task> claimed;
    FIRN_RETURN_IF_ERROR(runner_->Write(WriteMode::kSingle, [&](Session& s) -> Status {
      claimed.reset();
      auto take = [&](const Row& row) -> Status {
        claimed = TaskFromRow(row);
        return Ok();
      };
      if (!only_id.empty()) {
        FIRN_RETURN_IF_ERROR(
            s.Exec(sql::kClaimTaskById, {owner, now_ms, now_ms + lease_ms, only_id}, take));
      } else {
        FIRN_RETURN_IF_ERROR(s.Exec(sql::kClaimDueTask, {owner, now_ms, now_ms + lease_ms}, take));
      }
      return Ok();
    }));
    return claimed;
  }

  Status RenewTask(const std::string& id, const std::string& owner, int64_t lease_until_ms,
                   const std::string& progress) override {
    return runner_->Write(WriteMode::kIdempotent, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(int64_t changed,
                            s.Exec(sql::kRenewTask, {id, owner, lease_until_ms, progress,
                                                     NowMillis()}));
      if (changed == 0) return Fail(LeaseLostError(id));
      return Ok();
    });
  }

  Status FinishTask(const std::string& id, const std::string& owner, TaskState state,
                    int64_t not_before_ms, const std::string& progress,
                    const std::string& error) override {
    return runner_->Write(WriteMode::kIdempotent, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(
          int64_t changed,
          s.Exec(sql::kFinishTask, {id, owner, TaskStateName(state), not_before_ms, progress,
                                    error, NowMillis()}));
      if (changed == 0) return Fail(LeaseLostError(id));
      return Ok();
    });
  }

  Result<std::vector<Task>> ListTasks(const TaskFilter& filter) override {
    std::vector<Task> out;
    const std::string state = filter.state ? std::string(TaskStateName(*filter.state)) : "";
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      out.clear();
      return s.Query(sql::kListTasks,
                     {state, filter.realm, filter.kind, std::clamp<int64_t>(filter.limit, 1, 1000)},
                     [&](const Row& row) -> Status {
                       out.push_back(TaskFromRow(row));
                       return Ok();
                     });
    }));
    return out;
  }

  // ---- change events and sinks (event_store.h; sql_event_ops.cc) ----

  Result<std::vector<ChangeEvent>> ListEvents(const EventFilter& filter) override {
    std::vector<ChangeEvent> events;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(events, sql::ListEventRows(s, filter));
      return Ok();
    }));
    return events;
  }

  Result<EventCursor> LatestEventCursor(const std::string& realm) override {
    EventCursor latest;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(latest, sql::LatestEventRow(s, realm));
      return Ok();
    }));
    return latest;
  }

  Status CreateEventSink(const EventSink& sink, const AuditEntry* audit) override {
    return runner_->Write(WriteMode::kTransaction, [&](Session& s) -> Status {
      FIRN_RETURN_IF_ERROR(sql::InsertEventSink(s, sink));
      return audit ? sql::InsertAudit(s, *audit) : Ok();
    });
  }

  Result<std::vector<EventSink>> ListEventSinks(const std::string& realm) override {
    std::vector<EventSink> sinks;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(sinks, sql::ListEventSinkRows(s, realm));
      return Ok();
    }));
    return sinks;
  }

  Status ReplaceEventSinkSecret(const std::string& realm, const std::string& name,
                                const std::string& expected, const std::string& secret) override {
    return runner_->Write(WriteMode::kIdempotent, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(int64_t changed,
                            s.Exec(sql::kReplaceSinkSecret, {realm, name, expected, secret}));
      if (changed == 0) {
        return Fail(ErrorKind::kCommitFailed, "Event sink " + name + " changed meanwhile");
      }
      return Ok();
    });
  }

  Status DeleteEventSink(const std::string& realm, const std::string& name,
                         const AuditEntry* audit) override {
    return runner_->Write(WriteMode::kTransaction, [&](Session& s) -> Status {
      FIRN_RETURN_IF_ERROR(sql::DeleteEventSinkRow(s, realm, name));
      return audit ? sql::InsertAudit(s, *audit) : Ok();
    });
  }

  Result<std::optional<EventSink>> ClaimEventSink(const std::string& realm,
                                                  const std::string& name,
                                                  const std::string& owner, int64_t now_ms,
                                                  int64_t lease_ms) override {
    std::optional<EventSink> claimed;
    FIRN_RETURN_IF_ERROR(runner_->Write(WriteMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(claimed,
                            sql::ClaimEventSinkRow(s, realm, name, owner, now_ms, lease_ms));
      return Ok();
    }));
    return claimed;
  }

  Status FinishEventSink(const std::string& realm, const std::string& name,
                         const std::string& owner, const SinkProgress& progress) override {
    return runner_->Write(WriteMode::kIdempotent, [&](Session& s) {
      return sql::FinishEventSinkRow(s, realm, name, owner, progress);
    });
  }

  Status SetFence(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                  const std::string& fence, const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), WriteMode::kIdempotent, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(int64_t changed,
                            s.Exec(sql::kSetFence, {scope.realm, scope.catalog,
                                                    NamespaceKey(id.ns), id.name,
                                                    KindText(kind), fence}));
      if (changed == 0) return Fail(NoSuchObjectError(id, kind));
      return Ok();
    });
  }

  Status SetMoving(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                   const std::string& moving, const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), WriteMode::kIdempotent, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(int64_t changed,
                            s.Exec(sql::kSetMoving, {scope.realm, scope.catalog,
                                                     NamespaceKey(id.ns), id.name,
                                                     KindText(kind), moving}));
      if (changed == 0) return Fail(NoSuchObjectError(id, kind));
      return Ok();
    });
  }

  Result<std::vector<FencedObject>> ListFences() override {
    std::vector<FencedObject> out;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      out.clear();
      return s.Query(sql::kListFences, {}, [&](const Row& row) -> Status {
        FencedObject f;
        f.scope = CatalogScope{std::string(row.Text(0)), std::string(row.Text(1))};
        f.id = Identifier{NamespaceFromKey(row.Text(2)), std::string(row.Text(3))};
        f.kind = row.Text(4) == "view" ? ObjectKind::kView : ObjectKind::kTable;
        f.metadata_location = std::string(row.Text(5));
        f.fence = std::string(row.Text(6));
        out.push_back(std::move(f));
        return Ok();
      });
    }));
    return out;
  }

  // IdempotencyStore.
  Result<std::optional<IdempotencyRecord>> LoadIdempotencyRecord(
      const CatalogScope& scope, const std::string& key) override {
    std::optional<IdempotencyRecord> record;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      record.reset();
      return s.Query(sql::kLoadIdempotency, {scope.realm, scope.catalog, key},
                     [&](const Row& row) -> Status {
                       IdempotencyRecord r;
                       r.operation = std::string(row.Text(0));
                       r.status = static_cast<int>(row.Int(1));
                       FIRN_ASSIGN_OR_RETURN(r.headers, DecodeHeaders(row.Text(2)));
                       r.body = std::string(row.Text(3));
                       r.created_ms = row.Int(4);
                       record = std::move(r);
                       return Ok();
                     });
    }));
    return record;
  }

  Status SaveIdempotencyRecord(const CatalogScope& scope, const std::string& key,
                               const IdempotencyRecord& record) override {
    const std::string headers = EncodeHeaders(record.headers);
    return runner_->Write(WriteMode::kIdempotent, [&](Session& s) {
      return s.Run(sql::kSaveIdempotency,
                   {scope.realm, scope.catalog, key, record.operation, record.status, headers,
                    record.body, record.created_ms != 0 ? record.created_ms : NowMillis()});
    });
  }

  Result<int64_t> DeleteIdempotencyRecordsBefore(int64_t created_before_ms) override {
    int64_t deleted = 0;
    FIRN_RETURN_IF_ERROR(runner_->Write(WriteMode::kIdempotent, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(deleted, s.Exec(sql::kDeleteIdempotencyBefore, {created_before_ms}));
      return Ok();
    }));
    return deleted;
  }

  // AccessStore.
  Result<int64_t> AccessVersion() override {
    int64_t version = 0;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(version, sql::ReadAccessVersion(s));
      return Ok();
    }));
    return version;
  }

  Result<AccessRows> LoadAccess() override {
    AccessRows rows;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(rows, sql::LoadAccessRows(s));
      return Ok();
    }));
    return rows;
  }

  Result<int64_t> ApplyAccessWrites(const std::vector<AccessWrite>& writes,
                                    const AuditEntry* audit, int64_t now_ms) override {
    int64_t version = 0;
    FIRN_RETURN_IF_ERROR(runner_->Write(WriteMode::kTransaction, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(version, sql::ApplyAccessWrites(s, writes, audit, now_ms));
      return Ok();
    }));
    return version;
  }

  Status AppendAudit(const AuditEntry& entry) override {
    return runner_->Write(WriteMode::kSingle,
                          [&](Session& s) { return sql::InsertAudit(s, entry); });
  }

  Result<std::vector<AuditEntry>> ListAudit(const AuditFilter& filter) override {
    std::vector<AuditEntry> entries;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(entries, sql::ListAuditRows(s, filter));
      return Ok();
    }));
    return entries;
  }

  // An ack is idempotent (the latest wins).
  Status AckAccessVersion(const InstanceAck& ack) override {
    return runner_->Write(WriteMode::kIdempotent,
                          [&](Session& s) { return sql::UpsertInstanceAck(s, ack); });
  }

  Result<std::vector<InstanceAck>> LiveInstances(int64_t since_ms) override {
    std::vector<InstanceAck> acks;
    FIRN_RETURN_IF_ERROR(runner_->Read(ReadMode::kSingle, [&](Session& s) -> Status {
      FIRN_ASSIGN_OR_RETURN(acks, sql::ListLiveInstances(s, since_ms));
      return Ok();
    }));
    return acks;
  }

 private:
  // A catalog write with its audit rows: they share one transaction (a single-statement write
  // is promoted to one) and are appended only when the body succeeds.
  Status Write(std::span<const AuditEntry> audits, WriteMode mode,
               FunctionRef<Status(Session&)> body) {
    if (audits.empty()) return runner_->Write(mode, body);
    return runner_->Write(WriteMode::kTransaction, [&](Session& s) -> Status {
      FIRN_RETURN_IF_ERROR(body(s));
      for (const auto& audit : audits) FIRN_RETURN_IF_ERROR(sql::InsertAudit(s, audit));
      return Ok();
    });
  }

  std::unique_ptr<sql::Runner> runner_;
};

}  // namespace

std::unique_ptr<CatalogStore> NewSqlCatalogStore(std::unique_ptr<sql::Runner> runner) {
  return std::make_unique<SqlCatalogStore>(std::move(runner));
}

}  // namespace firn::store
