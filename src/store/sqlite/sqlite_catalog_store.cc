#include "store/sqlite/sqlite_catalog_store.h"

#include <optional>
#include <set>
#include <span>
#include <type_traits>
#include <utility>

#include "common/clock.h"
#include "common/macros.h"
#include "store/sqlite/sqlite_access_ops.h"
#include "store/sqlite/sqlite_connection_pool.h"
#include "store/sqlite/sqlite_group_writer.h"
#include "store/sqlite/sqlite_migrations.h"
#include "store/idempotency_codec.h"
#include "store/store_errors.h"
#include "store/store_keys.h"

namespace firn::store {
namespace {

using sqlite::SqliteConnection;
using sqlite::SqliteOptions;
using sqlite::SqliteGroupWriter;
using sqlite::SqliteReaderPool;
using sqlite::Statement;

// Every statement binds ?1 = realm and ?2 = catalog first.
namespace sql {

constexpr std::string_view kBeginRead = "BEGIN";
constexpr std::string_view kCommit = "COMMIT";
constexpr std::string_view kRollback = "ROLLBACK";

constexpr std::string_view kNamespaceExists =
    "SELECT 1 FROM namespaces WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3";
constexpr std::string_view kInsertNamespace =
    "INSERT INTO namespaces (realm, catalog, ns_key, parent_key, created_ms, updated_ms) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?5)";
constexpr std::string_view kTouchNamespace =
    "UPDATE namespaces SET updated_ms = ?4 WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3";
constexpr std::string_view kDeleteNamespace =
    "DELETE FROM namespaces WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3";
constexpr std::string_view kLoadNamespace =
    "SELECT p.name, p.value FROM namespaces n LEFT JOIN namespace_properties p "
    "ON p.realm = n.realm AND p.catalog = n.catalog AND p.ns_key = n.ns_key "
    "WHERE n.realm = ?1 AND n.catalog = ?2 AND n.ns_key = ?3";
// Keys are never empty (ValidateNamespaceForCreate), so "" starts from the beginning.
constexpr std::string_view kListNamespaces =
    "SELECT ns_key FROM namespaces WHERE realm = ?1 AND catalog = ?2 AND parent_key = ?3 "
    "AND ns_key > ?4 ORDER BY ns_key LIMIT ?5";
constexpr std::string_view kHasChildNamespace =
    "SELECT 1 FROM namespaces WHERE realm = ?1 AND catalog = ?2 AND parent_key = ?3 LIMIT 1";
constexpr std::string_view kHasObject =
    "SELECT 1 FROM objects WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3 LIMIT 1";
constexpr std::string_view kDeleteProperty =
    "DELETE FROM namespace_properties "
    "WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3 AND name = ?4";
constexpr std::string_view kUpsertProperty =
    "INSERT INTO namespace_properties (realm, catalog, ns_key, name, value) "
    "VALUES (?1, ?2, ?3, ?4, ?5) "
    "ON CONFLICT (realm, catalog, ns_key, name) DO UPDATE SET value = excluded.value";

constexpr std::string_view kListObjectsFirst =
    "SELECT name FROM objects WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3 AND kind = ?4 "
    "ORDER BY name LIMIT ?5";
constexpr std::string_view kListObjectsAfter =
    "SELECT name FROM objects WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3 AND kind = ?4 "
    "AND name > ?6 ORDER BY name LIMIT ?5";
// The hot path: one primary-key lookup.
constexpr std::string_view kLoadPointer =
    "SELECT metadata_location, version FROM objects "
    "WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3 AND name = ?4 AND kind = ?5";
constexpr std::string_view kFindObject =
    "SELECT kind, metadata_location, version FROM objects "
    "WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3 AND name = ?4";
constexpr std::string_view kInsertObject =
    "INSERT INTO objects (realm, catalog, ns_key, name, kind, metadata_location, version, "
    "created_ms, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?7)";
// Compare-and-swap on the location: 0 rows means missing or moved.
constexpr std::string_view kSwapPointer =
    "UPDATE objects SET metadata_location = ?6, version = version + 1, updated_ms = ?8 "
    "WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3 AND name = ?4 AND kind = ?5 "
    "AND metadata_location = ?7 RETURNING version";
constexpr std::string_view kReplacePointer =
    "UPDATE objects SET metadata_location = ?6, version = version + 1, updated_ms = ?7 "
    "WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3 AND name = ?4 AND kind = ?5";
constexpr std::string_view kDeleteObject =
    "DELETE FROM objects "
    "WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3 AND name = ?4 AND kind = ?5";
constexpr std::string_view kRenameObject =
    "UPDATE objects SET ns_key = ?5, name = ?6, updated_ms = ?7 "
    "WHERE realm = ?1 AND catalog = ?2 AND ns_key = ?3 AND name = ?4";
constexpr std::string_view kInsertMetrics =
    "INSERT INTO metrics_reports (realm, catalog, ns_key, table_name, report_type, report_json, "
    "received_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

// Objects need their namespace (foreign key), so namespaces name every used scope.
constexpr std::string_view kListCatalogScopes =
    "SELECT DISTINCT realm, catalog FROM namespaces ORDER BY realm, catalog";

constexpr std::string_view kLoadIdempotency =
    "SELECT operation, status, headers_json, body, created_ms FROM idempotency_records "
    "WHERE realm = ?1 AND catalog = ?2 AND idem_key = ?3";
// The first record for a key wins.
constexpr std::string_view kSaveIdempotency =
    "INSERT INTO idempotency_records (realm, catalog, idem_key, operation, status, headers_json, "
    "body, created_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING";
constexpr std::string_view kDeleteIdempotencyBefore =
    "DELETE FROM idempotency_records WHERE created_ms < ?1";

}  // namespace sql

constexpr std::string_view KindText(ObjectKind kind) {
  return kind == ObjectKind::kTable ? "table" : "view";
}

ObjectKind KindFromText(std::string_view text) {
  return text == "view" ? ObjectKind::kView : ObjectKind::kTable;
}

struct ExistingObject {
  ObjectKind kind;
  std::string location;
};

// Prepares `sql` and binds the scope to ?1 and ?2.
Result<Statement> Scoped(SqliteConnection& conn, std::string_view text,
                         const CatalogScope& scope) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(text));
  stmt.Bind(1, scope.realm).Bind(2, scope.catalog);
  return stmt;
}

int64_t SqlLimit(const std::optional<int64_t>& size) {
  // One extra row tells whether another page exists; negative means no limit in SQLite.
  return size ? *size + 1 : -1;
}

template <typename T>
Page<T> FinishPage(std::vector<T> items, std::vector<std::string> keys,
                   const std::optional<int64_t>& size) {
  Page<T> page;
  if (size && static_cast<int64_t>(items.size()) > *size) {
    items.resize(*size);
    page.next_token = EncodePageToken(keys[*size - 1]);
  }
  page.items = std::move(items);
  return page;
}

Result<bool> NamespaceExists(SqliteConnection& conn, const CatalogScope& scope,
                             const std::string& key) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kNamespaceExists, scope));
  stmt.Bind(3, key);
  return stmt.Step();
}

Status RequireNamespace(SqliteConnection& conn, const CatalogScope& scope, const Namespace& ns) {
  FIRN_ASSIGN_OR_RETURN(bool exists, NamespaceExists(conn, scope, NamespaceKey(ns)));
  if (!exists) return Fail(NoSuchNamespaceError(ns));
  return Ok();
}

Result<std::optional<ExistingObject>> FindObject(SqliteConnection& conn,
                                                 const CatalogScope& scope,
                                                 const Identifier& id) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kFindObject, scope));
  stmt.Bind(3, NamespaceKey(id.ns)).Bind(4, id.name);
  FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<ExistingObject>();
  return std::optional<ExistingObject>(
      ExistingObject{KindFromText(stmt.ColumnText(0)), std::string(stmt.ColumnText(1))});
}

Status InsertObject(SqliteConnection& conn, const CatalogScope& scope, const Identifier& id,
                    ObjectKind kind, const std::string& location) {
  FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, id.ns));
  FIRN_ASSIGN_OR_RETURN(auto existing, FindObject(conn, scope, id));
  if (existing) return Fail(ObjectExistsError(id, kind, existing->kind));
  FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kInsertObject, scope));
  stmt.Bind(3, NamespaceKey(id.ns))
      .Bind(4, id.name)
      .Bind(5, KindText(kind))
      .Bind(6, location)
      .Bind(7, NowMillis());
  return stmt.Run();
}

Result<ObjectPointer> CasPointer(SqliteConnection& conn, const CatalogScope& scope,
                                 const Identifier& id, ObjectKind kind,
                                 const std::string& expected, const std::string& next) {
  {
    FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kSwapPointer, scope));
    stmt.Bind(3, NamespaceKey(id.ns))
        .Bind(4, id.name)
        .Bind(5, KindText(kind))
        .Bind(6, next)
        .Bind(7, expected)
        .Bind(8, NowMillis());
    FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (row) return ObjectPointer{next, stmt.ColumnInt(0)};
  }
  // Nothing matched: say why.
  FIRN_ASSIGN_OR_RETURN(auto existing, FindObject(conn, scope, id));
  if (!existing || existing->kind != kind) return Fail(NoSuchObjectError(id, kind));
  return Fail(PointerMovedError(id, kind, expected, existing->location));
}

class SqliteCatalogStore final : public CatalogStore {
 public:
  SqliteCatalogStore(std::string path, SqliteOptions options,
                     std::unique_ptr<SqliteConnection> writer)
      : writer_(std::move(writer)), readers_(std::move(path), options) {}

  Status CreateNamespace(const CatalogScope& scope, const Namespace& ns,
                         const Properties& props, const AuditEntry* audit = nullptr) override {
    FIRN_RETURN_IF_ERROR(ValidateNamespaceForCreate(ns));
    return Write(Audits(audit), [&](SqliteConnection& conn) -> Status {
      if (ns.size() > 1) {
        FIRN_ASSIGN_OR_RETURN(bool parent, NamespaceExists(conn, scope, ParentKey(ns)));
        if (!parent) return Fail(NoSuchParentNamespaceError(ns));
      }
      const std::string key = NamespaceKey(ns);
      FIRN_ASSIGN_OR_RETURN(bool exists, NamespaceExists(conn, scope, key));
      if (exists) return Fail(NamespaceExistsError(ns));
      {
        FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kInsertNamespace, scope));
        stmt.Bind(3, key).Bind(4, ParentKey(ns)).Bind(5, NowMillis());
        FIRN_RETURN_IF_ERROR(stmt.Run());
      }
      for (const auto& [name, value] : props) {
        FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kUpsertProperty, scope));
        stmt.Bind(3, key).Bind(4, name).Bind(5, value);
        FIRN_RETURN_IF_ERROR(stmt.Run());
      }
      return Ok();
    });
  }

  Result<Properties> LoadNamespace(const CatalogScope& scope, const Namespace& ns) override {
    return Read([&](SqliteConnection& conn) -> Result<Properties> {
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kLoadNamespace, scope));
      stmt.Bind(3, NamespaceKey(ns));
      Properties props;
      bool found = false;
      while (true) {
        FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
        if (!row) break;
        found = true;
        if (!stmt.ColumnIsNull(0)) {
          props.emplace(std::string(stmt.ColumnText(0)), std::string(stmt.ColumnText(1)));
        }
      }
      if (!found) return Fail(NoSuchNamespaceError(ns));
      return props;
    });
  }

  Result<Page<Namespace>> ListNamespaces(const CatalogScope& scope, const Namespace& parent,
                                         const PageRequest& page) override {
    FIRN_RETURN_IF_ERROR(CheckPageSize(page.size));
    FIRN_ASSIGN_OR_RETURN(auto after, DecodePageToken(page.token));
    return ReadTxn([&](SqliteConnection& conn) -> Result<Page<Namespace>> {
      if (!parent.empty()) FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, parent));
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kListNamespaces, scope));
      stmt.Bind(3, NamespaceKey(parent)).Bind(4, after.value_or("")).Bind(5, SqlLimit(page.size));
      std::vector<Namespace> items;
      std::vector<std::string> keys;
      while (true) {
        FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
        if (!row) break;
        keys.emplace_back(stmt.ColumnText(0));
        items.push_back(NamespaceFromKey(keys.back()));
      }
      return FinishPage(std::move(items), std::move(keys), page.size);
    });
  }

  Status DropNamespace(const CatalogScope& scope, const Namespace& ns,
                       const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), [&](SqliteConnection& conn) -> Status {
      const std::string key = NamespaceKey(ns);
      FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, ns));
      for (std::string_view check : {sql::kHasObject, sql::kHasChildNamespace}) {
        FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, check, scope));
        stmt.Bind(3, key);
        FIRN_ASSIGN_OR_RETURN(bool used, stmt.Step());
        if (used) return Fail(NamespaceNotEmptyError(ns));
      }
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kDeleteNamespace, scope));
      stmt.Bind(3, key);
      return stmt.Run();
    });
  }

  Result<PropertiesUpdateResult> UpdateNamespaceProperties(
      const CatalogScope& scope, const Namespace& ns, const std::vector<std::string>& removals,
      const Properties& updates, const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), [&](SqliteConnection& conn) -> Result<PropertiesUpdateResult> {
      const std::string key = NamespaceKey(ns);
      FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, ns));
      PropertiesUpdateResult result;
      std::set<std::string> seen;
      for (const auto& name : removals) {
        if (!seen.insert(name).second) continue;
        FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kDeleteProperty, scope));
        stmt.Bind(3, key).Bind(4, name);
        FIRN_RETURN_IF_ERROR(stmt.Run());
        (conn.Changes() > 0 ? result.removed : result.missing).push_back(name);
      }
      for (const auto& [name, value] : updates) {
        FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kUpsertProperty, scope));
        stmt.Bind(3, key).Bind(4, name).Bind(5, value);
        FIRN_RETURN_IF_ERROR(stmt.Run());
        result.updated.push_back(name);
      }
      FIRN_ASSIGN_OR_RETURN(Statement touch, Scoped(conn, sql::kTouchNamespace, scope));
      touch.Bind(3, key).Bind(4, NowMillis());
      FIRN_RETURN_IF_ERROR(touch.Run());
      return result;
    });
  }

  Result<Page<std::string>> ListObjects(const CatalogScope& scope, const Namespace& ns,
                                        ObjectKind kind, const PageRequest& page) override {
    FIRN_RETURN_IF_ERROR(CheckPageSize(page.size));
    FIRN_ASSIGN_OR_RETURN(auto after, DecodePageToken(page.token));
    return ReadTxn([&](SqliteConnection& conn) -> Result<Page<std::string>> {
      FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, ns));
      FIRN_ASSIGN_OR_RETURN(
          Statement stmt,
          Scoped(conn, after ? sql::kListObjectsAfter : sql::kListObjectsFirst, scope));
      stmt.Bind(3, NamespaceKey(ns)).Bind(4, KindText(kind)).Bind(5, SqlLimit(page.size));
      if (after) stmt.Bind(6, *after);
      std::vector<std::string> names;
      while (true) {
        FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
        if (!row) break;
        names.emplace_back(stmt.ColumnText(0));
      }
      std::vector<std::string> keys = names;
      return FinishPage(std::move(names), std::move(keys), page.size);
    });
  }

  Result<ObjectPointer> LoadPointer(const CatalogScope& scope, const Identifier& id,
                                    ObjectKind kind) override {
    return Read([&](SqliteConnection& conn) -> Result<ObjectPointer> {
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kLoadPointer, scope));
      stmt.Bind(3, NamespaceKey(id.ns)).Bind(4, id.name).Bind(5, KindText(kind));
      FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
      // A missing namespace is also "no such table": Java clients rely on it.
      if (!row) return Fail(NoSuchObjectError(id, kind));
      return ObjectPointer{std::string(stmt.ColumnText(0)), stmt.ColumnInt(1)};
    });
  }

  Status CreateObject(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                      const std::string& metadata_location,
                      const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), [&](SqliteConnection& conn) {
      return InsertObject(conn, scope, id, kind, metadata_location);
    });
  }

  Result<ObjectPointer> SwapPointer(const CatalogScope& scope, const Identifier& id,
                                    ObjectKind kind, const std::string& expected_location,
                                    const std::string& new_location,
                                    const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), [&](SqliteConnection& conn) {
      return CasPointer(conn, scope, id, kind, expected_location, new_location);
    });
  }

  Status ReplacePointer(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                        const std::string& new_location,
                        const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), [&](SqliteConnection& conn) -> Status {
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kReplacePointer, scope));
      stmt.Bind(3, NamespaceKey(id.ns))
          .Bind(4, id.name)
          .Bind(5, KindText(kind))
          .Bind(6, new_location)
          .Bind(7, NowMillis());
      FIRN_RETURN_IF_ERROR(stmt.Run());
      if (conn.Changes() == 0) return Fail(NoSuchObjectError(id, kind));
      return Ok();
    });
  }

  Status DropObject(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                    const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), [&](SqliteConnection& conn) -> Status {
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kDeleteObject, scope));
      stmt.Bind(3, NamespaceKey(id.ns)).Bind(4, id.name).Bind(5, KindText(kind));
      FIRN_RETURN_IF_ERROR(stmt.Run());
      if (conn.Changes() == 0) return Fail(NoSuchObjectError(id, kind));
      return Ok();
    });
  }

  Status RenameObject(const CatalogScope& scope, const Identifier& from, const Identifier& to,
                      ObjectKind kind, const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), [&](SqliteConnection& conn) -> Status {
      FIRN_ASSIGN_OR_RETURN(auto source, FindObject(conn, scope, from));
      if (!source || source->kind != kind) return Fail(NoSuchObjectError(from, kind));
      FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, to.ns));
      FIRN_ASSIGN_OR_RETURN(auto target, FindObject(conn, scope, to));
      if (target) return Fail(RenameTargetExistsError(from, to, kind, target->kind));
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kRenameObject, scope));
      stmt.Bind(3, NamespaceKey(from.ns))
          .Bind(4, from.name)
          .Bind(5, NamespaceKey(to.ns))
          .Bind(6, to.name)
          .Bind(7, NowMillis());
      return stmt.Run();
    });
  }

  Status CommitTransaction(const CatalogScope& scope,
                           const std::vector<PointerSwap>& swaps,
                           std::span<const AuditEntry> audits = {}) override {
    return Write(audits, [&](SqliteConnection& conn) -> Status {
      for (const auto& swap : swaps) {
        if (swap.expected_location) {
          FIRN_ASSIGN_OR_RETURN(auto pointer, CasPointer(conn, scope, swap.id, swap.kind,
                                                         *swap.expected_location,
                                                         swap.new_location));
          (void)pointer;
        } else {
          FIRN_RETURN_IF_ERROR(InsertObject(conn, scope, swap.id, swap.kind, swap.new_location));
        }
      }
      return Ok();
    });
  }

  Result<std::optional<IdempotencyRecord>> LoadIdempotencyRecord(
      const CatalogScope& scope, const std::string& key) override {
    return Read([&](SqliteConnection& conn) -> Result<std::optional<IdempotencyRecord>> {
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kLoadIdempotency, scope));
      stmt.Bind(3, key);
      FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
      if (!row) return std::optional<IdempotencyRecord>();
      IdempotencyRecord record;
      record.operation = std::string(stmt.ColumnText(0));
      record.status = static_cast<int>(stmt.ColumnInt(1));
      FIRN_ASSIGN_OR_RETURN(record.headers, DecodeHeaders(stmt.ColumnText(2)));
      record.body = std::string(stmt.ColumnText(3));
      record.created_ms = stmt.ColumnInt(4);
      return std::optional<IdempotencyRecord>(std::move(record));
    });
  }

  Status SaveIdempotencyRecord(const CatalogScope& scope, const std::string& key,
                               const IdempotencyRecord& record) override {
    const std::string headers = EncodeHeaders(record.headers);
    return Write({}, [&](SqliteConnection& conn) -> Status {
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kSaveIdempotency, scope));
      stmt.Bind(3, key)
          .Bind(4, record.operation)
          .Bind(5, static_cast<int64_t>(record.status))
          .Bind(6, headers)
          .Bind(7, record.body)
          .Bind(8, record.created_ms != 0 ? record.created_ms : NowMillis());
      return stmt.Run();
    });
  }

  Result<int64_t> DeleteIdempotencyRecordsBefore(int64_t created_before_ms) override {
    return Write({}, [&](SqliteConnection& conn) -> Result<int64_t> {
      FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql::kDeleteIdempotencyBefore));
      stmt.Bind(1, created_before_ms);
      FIRN_RETURN_IF_ERROR(stmt.Run());
      return conn.Changes();
    });
  }

  Status StoreMetricsReport(const CatalogScope& scope, const MetricsReport& report) override {
    return Write({}, [&](SqliteConnection& conn) -> Status {
      FIRN_ASSIGN_OR_RETURN(Statement stmt, Scoped(conn, sql::kInsertMetrics, scope));
      stmt.Bind(3, NamespaceKey(report.table.ns))
          .Bind(4, report.table.name)
          .Bind(5, report.report_type)
          .Bind(6, report.json)
          .Bind(7, report.received_ms != 0 ? report.received_ms : NowMillis());
      return stmt.Run();
    });
  }

  // AccessStore.
  Result<int64_t> AccessVersion() override {
    return Read([&](SqliteConnection& conn) { return sqlite::ReadAccessVersion(conn); });
  }

  Result<AccessRows> LoadAccess() override {
    return Read([&](SqliteConnection& conn) { return sqlite::LoadAccessRows(conn); });
  }

  Result<int64_t> ApplyAccessWrites(const std::vector<AccessWrite>& writes,
                                    const AuditEntry* audit, int64_t now_ms) override {
    return Write({}, [&](SqliteConnection& conn) {
      return sqlite::ApplyAccessWrites(conn, writes, audit, now_ms);
    });
  }

  Status AppendAudit(const AuditEntry& entry) override {
    return Write({}, [&](SqliteConnection& conn) { return sqlite::InsertAudit(conn, entry); });
  }

  Result<std::vector<AuditEntry>> ListAudit(const AuditFilter& filter) override {
    return Read([&](SqliteConnection& conn) { return sqlite::ListAuditRows(conn, filter); });
  }

  Status AckAccessVersion(const InstanceAck& ack) override {
    return Write({}, [&](SqliteConnection& conn) { return sqlite::UpsertInstanceAck(conn, ack); });
  }

  Result<std::vector<InstanceAck>> LiveInstances(int64_t since_ms) override {
    return Read([&](SqliteConnection& conn) { return sqlite::ListLiveInstances(conn, since_ms); });
  }

  Result<std::vector<CatalogScope>> ListCatalogScopes() override {
    return Read([&](SqliteConnection& conn) -> Result<std::vector<CatalogScope>> {
      FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql::kListCatalogScopes));
      std::vector<CatalogScope> scopes;
      while (true) {
        FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
        if (!row) break;
        scopes.push_back({std::string(stmt.ColumnText(0)), std::string(stmt.ColumnText(1))});
      }
      return scopes;
    });
  }

 private:
  static std::span<const AuditEntry> Audits(const AuditEntry* audit) {
    return audit ? std::span<const AuditEntry>(audit, 1) : std::span<const AuditEntry>();
  }

  // Runs `body` in a write transaction (group-committed with concurrent writers); the result
  // is returned only once the transaction holding it has committed. `audits` are appended in
  // the same transaction when the body succeeds (its savepoint rolls them back otherwise).
  template <typename F>
  auto Write(std::span<const AuditEntry> audits, F&& body)
      -> std::invoke_result_t<F, SqliteConnection&> {
    using R = std::invoke_result_t<F, SqliteConnection&>;
    std::optional<R> result;
    Status status = writer_.Run([&](SqliteConnection& conn) -> Status {
      result.emplace(body(conn));
      if (!*result) return Fail(result->error());
      for (const auto& audit : audits) FIRN_RETURN_IF_ERROR(sqlite::InsertAudit(conn, audit));
      return Ok();
    });
    if (!status) return Fail(std::move(status).error());
    return std::move(*result);
  }

  // Runs `body` on a pooled reader (a single statement needs no transaction).
  template <typename F>
  auto Read(F&& body) -> std::invoke_result_t<F, SqliteConnection&> {
    FIRN_ASSIGN_OR_RETURN(auto lease, readers_.Acquire());
    return body(*lease);
  }

  // Like Read, inside a read transaction so several statements see one snapshot.
  template <typename F>
  auto ReadTxn(F&& body) -> std::invoke_result_t<F, SqliteConnection&> {
    FIRN_ASSIGN_OR_RETURN(auto lease, readers_.Acquire());
    FIRN_RETURN_IF_ERROR(RunCached(*lease, sql::kBeginRead));
    auto result = body(*lease);
    // Ending a read transaction cannot lose data; a failure here only matters for reuse.
    if (!RunCached(*lease, sql::kCommit)) Rollback(*lease);
    return result;
  }

  static Status RunCached(SqliteConnection& conn, std::string_view text) {
    FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(text));
    return stmt.Run();
  }

  static void Rollback(SqliteConnection& conn) {
    if (sqlite3_get_autocommit(conn.handle()) == 0) (void)RunCached(conn, sql::kRollback);
  }

  sqlite::SqliteGroupWriter writer_;
  SqliteReaderPool readers_;
};

}  // namespace

Result<std::unique_ptr<CatalogStore>> OpenSqliteStore(const std::string& path) {
  return OpenSqliteStore(path, SqliteOptions{});
}

Result<std::unique_ptr<CatalogStore>> OpenSqliteStore(const std::string& path,
                                                      const SqliteOptions& options) {
  if (sqlite3_threadsafe() == 0) {
    return Fail(ErrorKind::kInternal, "Catalog database error",
                "SQLite was built without thread support");
  }
  if (path.empty() || path == ":memory:") {
    return Fail(ErrorKind::kIllegalArgument, "The SQLite catalog needs a database file path");
  }
  FIRN_ASSIGN_OR_RETURN(auto writer, SqliteConnection::Open(path, options));
  {
    // WAL is a property of the file; it persists once set. Refuse silently weaker modes.
    FIRN_ASSIGN_OR_RETURN(Statement stmt, writer->Prepare("PRAGMA journal_mode=WAL"));
    FIRN_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row || stmt.ColumnText(0) != "wal") {
      return Fail(ErrorKind::kInternal, "Catalog database error",
                  "could not enable WAL journal mode on " + path);
    }
  }
  FIRN_RETURN_IF_ERROR(sqlite::Migrate(*writer));
  return std::unique_ptr<CatalogStore>(
      new SqliteCatalogStore(path, options, std::move(writer)));
}

}  // namespace firn::store
