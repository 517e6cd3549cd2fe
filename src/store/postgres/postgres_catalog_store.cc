#include "store/postgres/postgres_catalog_store.h"

#include <random>
#include <set>
#include <span>
#include <thread>
#include <type_traits>
#include <utility>

#include "common/clock.h"
#include "common/macros.h"
#include "store/idempotency_codec.h"
#include "store/postgres/pg_access_ops.h"
#include "store/postgres/pg_connection_pool.h"
#include "store/postgres/pg_migrations.h"
#include "store/store_errors.h"
#include "store/store_keys.h"

namespace firn::store {
namespace {

using postgres::OnLoss;
using postgres::Param;
using postgres::PgConnection;
using postgres::PgConnectionPool;
using postgres::PgResult;
using postgres::PostgresOptions;

// Every statement binds $1 = realm and $2 = catalog first (mirrors the SQLite backend).
namespace sql {

constexpr std::string_view kNamespaceExists =
    "SELECT 1 FROM namespaces WHERE realm = $1 AND catalog = $2 AND ns_key = $3";
// Locks taken by writers that depend on a namespace existing; they conflict with DropNamespace's
// FOR UPDATE, so a namespace cannot vanish under a create, and a drop sees what was created.
constexpr std::string_view kNamespaceKeyShare =
    "SELECT 1 FROM namespaces WHERE realm = $1 AND catalog = $2 AND ns_key = $3 FOR KEY SHARE";
constexpr std::string_view kNamespaceForUpdate =
    "SELECT 1 FROM namespaces WHERE realm = $1 AND catalog = $2 AND ns_key = $3 FOR UPDATE";
constexpr std::string_view kNamespaceNoKeyUpdate =
    "SELECT 1 FROM namespaces WHERE realm = $1 AND catalog = $2 AND ns_key = $3 "
    "FOR NO KEY UPDATE";
constexpr std::string_view kInsertNamespace =
    "INSERT INTO namespaces (realm, catalog, ns_key, parent_key, created_ms, updated_ms) "
    "VALUES ($1, $2, $3, $4, $5, $5)";
constexpr std::string_view kTouchNamespace =
    "UPDATE namespaces SET updated_ms = $4 WHERE realm = $1 AND catalog = $2 AND ns_key = $3";
constexpr std::string_view kDeleteNamespace =
    "DELETE FROM namespaces WHERE realm = $1 AND catalog = $2 AND ns_key = $3";
constexpr std::string_view kLoadNamespace =
    "SELECT p.name, p.value FROM namespaces n LEFT JOIN namespace_properties p "
    "ON p.realm = n.realm AND p.catalog = n.catalog AND p.ns_key = n.ns_key "
    "WHERE n.realm = $1 AND n.catalog = $2 AND n.ns_key = $3";
// LIMIT NULL = no limit. Keys are never empty, so "" starts from the beginning.
constexpr std::string_view kListNamespaces =
    "SELECT ns_key FROM namespaces WHERE realm = $1 AND catalog = $2 AND parent_key = $3 "
    "AND ns_key > $4 ORDER BY ns_key LIMIT $5";
constexpr std::string_view kHasChildNamespace =
    "SELECT 1 FROM namespaces WHERE realm = $1 AND catalog = $2 AND parent_key = $3 LIMIT 1";
constexpr std::string_view kHasObject =
    "SELECT 1 FROM objects WHERE realm = $1 AND catalog = $2 AND ns_key = $3 LIMIT 1";
constexpr std::string_view kDeleteProperty =
    "DELETE FROM namespace_properties "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4";
constexpr std::string_view kUpsertProperty =
    "INSERT INTO namespace_properties (realm, catalog, ns_key, name, value) "
    "VALUES ($1, $2, $3, $4, $5) "
    "ON CONFLICT (realm, catalog, ns_key, name) DO UPDATE SET value = excluded.value";

constexpr std::string_view kListObjectsFirst =
    "SELECT name FROM objects WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND kind = $4 "
    "ORDER BY name LIMIT $5";
constexpr std::string_view kListObjectsAfter =
    "SELECT name FROM objects WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND kind = $4 "
    "AND name > $6 ORDER BY name LIMIT $5";
// The hot path: one primary-key lookup, no transaction.
constexpr std::string_view kLoadPointer =
    "SELECT metadata_location, version FROM objects "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5";
constexpr std::string_view kFindObject =
    "SELECT kind, metadata_location, version FROM objects "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4";
constexpr std::string_view kFindObjectForUpdate =
    "SELECT kind, metadata_location, version FROM objects "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 FOR UPDATE";
constexpr std::string_view kInsertObject =
    "INSERT INTO objects (realm, catalog, ns_key, name, kind, metadata_location, version, "
    "created_ms, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $7)";
// Compare-and-swap on the location: 0 rows means missing or moved. Under READ COMMITTED a
// concurrent swap of the same row makes this wait, then re-check the WHERE on the new row.
constexpr std::string_view kSwapPointer =
    "UPDATE objects SET metadata_location = $6, version = version + 1, updated_ms = $8 "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5 "
    "AND metadata_location = $7 RETURNING version";
constexpr std::string_view kReplacePointer =
    "UPDATE objects SET metadata_location = $6, version = version + 1, updated_ms = $7 "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5";
constexpr std::string_view kDeleteObject =
    "DELETE FROM objects "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5";
constexpr std::string_view kRenameObject =
    "UPDATE objects SET ns_key = $5, name = $6, updated_ms = $7 "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4";
constexpr std::string_view kInsertMetrics =
    "INSERT INTO metrics_reports (realm, catalog, ns_key, table_name, report_type, report_json, "
    "received_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)";

// Objects need their namespace (foreign key), so namespaces name every used scope.
constexpr std::string_view kListCatalogScopes =
    "SELECT DISTINCT realm, catalog FROM namespaces ORDER BY realm, catalog";

constexpr std::string_view kLoadIdempotency =
    "SELECT operation, status, headers_json, body, created_ms FROM idempotency_records "
    "WHERE realm = $1 AND catalog = $2 AND idem_key = $3";
// The first record for a key wins.
constexpr std::string_view kSaveIdempotency =
    "INSERT INTO idempotency_records (realm, catalog, idem_key, operation, status, headers_json, "
    "body, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING";
constexpr std::string_view kDeleteIdempotencyBefore =
    "DELETE FROM idempotency_records WHERE created_ms < $1";

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

std::vector<Param> Scoped(const CatalogScope& scope, std::initializer_list<Param> rest) {
  std::vector<Param> params{Param(scope.realm), Param(scope.catalog)};
  params.insert(params.end(), rest.begin(), rest.end());
  return params;
}

Param SqlLimit(const std::optional<int64_t>& size) {
  // One extra row tells whether another page exists; NULL means no limit.
  if (!size) return Param(std::nullopt);
  return Param(*size + 1);
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

Result<bool> NamespaceExists(PgConnection& conn, const CatalogScope& scope,
                             const std::string& key,
                             std::string_view query = sql::kNamespaceExists) {
  FIRN_ASSIGN_OR_RETURN(PgResult res, conn.Execute(query, Scoped(scope, {key})));
  return res.Rows() > 0;
}

Status RequireNamespace(PgConnection& conn, const CatalogScope& scope, const Namespace& ns,
                        std::string_view query = sql::kNamespaceExists) {
  FIRN_ASSIGN_OR_RETURN(bool exists, NamespaceExists(conn, scope, NamespaceKey(ns), query));
  if (!exists) return Fail(NoSuchNamespaceError(ns));
  return Ok();
}

Result<std::optional<ExistingObject>> FindObject(PgConnection& conn, const CatalogScope& scope,
                                                 const Identifier& id,
                                                 std::string_view query = sql::kFindObject) {
  FIRN_ASSIGN_OR_RETURN(PgResult res,
                        conn.Execute(query, Scoped(scope, {NamespaceKey(id.ns), id.name})));
  if (res.Rows() == 0) return std::optional<ExistingObject>();
  return std::optional<ExistingObject>(
      ExistingObject{KindFromText(res.Text(0, 0)), std::string(res.Text(0, 1))});
}

// Inside a transaction.
Status InsertObject(PgConnection& conn, const CatalogScope& scope, const Identifier& id,
                    ObjectKind kind, const std::string& location) {
  FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, id.ns, sql::kNamespaceKeyShare));
  FIRN_ASSIGN_OR_RETURN(auto existing, FindObject(conn, scope, id));
  if (existing) return Fail(ObjectExistsError(id, kind, existing->kind));
  // A concurrent insert of the same name fails with unique_violation: the transaction reruns
  // and FindObject then reports the winner.
  FIRN_RETURN_IF_ERROR(conn.Execute(
      sql::kInsertObject,
      Scoped(scope, {NamespaceKey(id.ns), id.name, KindText(kind), location, NowMillis()})));
  return Ok();
}

// `on_loss`: kOutcomeUnknown when the UPDATE runs in autocommit (it is its own commit).
Result<ObjectPointer> CasPointer(PgConnection& conn, const CatalogScope& scope,
                                 const Identifier& id, ObjectKind kind,
                                 const std::string& expected, const std::string& next,
                                 OnLoss on_loss) {
  FIRN_ASSIGN_OR_RETURN(PgResult res,
                        conn.Execute(sql::kSwapPointer,
                                     Scoped(scope, {NamespaceKey(id.ns), id.name, KindText(kind),
                                                    next, expected, NowMillis()}),
                                     on_loss));
  if (res.Rows() > 0) return ObjectPointer{next, res.Int(0, 0)};
  // Nothing matched: say why.
  FIRN_ASSIGN_OR_RETURN(auto existing, FindObject(conn, scope, id));
  if (!existing || existing->kind != kind) return Fail(NoSuchObjectError(id, kind));
  return Fail(PointerMovedError(id, kind, expected, existing->location));
}

enum class Mode {
  kRead,        // statements in autocommit that change nothing
  kAutocommit,  // one write statement that is its own transaction
  kTransaction  // BEGIN … COMMIT around the body
};

class PostgresCatalogStore final : public CatalogStore {
 public:
  PostgresCatalogStore(std::string url, PostgresOptions options)
      : options_(options), pool_(std::move(url), std::move(options)) {}

  Status CreateNamespace(const CatalogScope& scope, const Namespace& ns,
                         const Properties& props, const AuditEntry* audit = nullptr) override {
    FIRN_RETURN_IF_ERROR(ValidateNamespaceForCreate(ns));
    return Write(Audits(audit), Mode::kTransaction, [&](PgConnection& conn) -> Status {
      if (ns.size() > 1) {
        FIRN_ASSIGN_OR_RETURN(bool parent, NamespaceExists(conn, scope, ParentKey(ns),
                                                           sql::kNamespaceKeyShare));
        if (!parent) return Fail(NoSuchParentNamespaceError(ns));
      }
      const std::string key = NamespaceKey(ns);
      FIRN_ASSIGN_OR_RETURN(bool exists, NamespaceExists(conn, scope, key));
      if (exists) return Fail(NamespaceExistsError(ns));
      FIRN_RETURN_IF_ERROR(conn.Execute(sql::kInsertNamespace,
                                        Scoped(scope, {key, ParentKey(ns), NowMillis()})));
      for (const auto& [name, value] : props) {
        FIRN_RETURN_IF_ERROR(
            conn.Execute(sql::kUpsertProperty, Scoped(scope, {key, name, value})));
      }
      return Ok();
    });
  }

  Result<Properties> LoadNamespace(const CatalogScope& scope, const Namespace& ns) override {
    return Run(Mode::kRead, [&](PgConnection& conn) -> Result<Properties> {
      FIRN_ASSIGN_OR_RETURN(PgResult res,
                            conn.Execute(sql::kLoadNamespace, Scoped(scope, {NamespaceKey(ns)})));
      if (res.Rows() == 0) return Fail(NoSuchNamespaceError(ns));
      Properties props;
      for (int row = 0; row < res.Rows(); ++row) {
        if (!res.IsNull(row, 0)) {
          props.emplace(std::string(res.Text(row, 0)), std::string(res.Text(row, 1)));
        }
      }
      return props;
    });
  }

  Result<Page<Namespace>> ListNamespaces(const CatalogScope& scope, const Namespace& parent,
                                         const PageRequest& page) override {
    FIRN_RETURN_IF_ERROR(CheckPageSize(page.size));
    FIRN_ASSIGN_OR_RETURN(auto after, DecodePageToken(page.token));
    // Check-then-list needs no snapshot: a namespace with children cannot be dropped between.
    return Run(Mode::kRead, [&](PgConnection& conn) -> Result<Page<Namespace>> {
      if (!parent.empty()) FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, parent));
      FIRN_ASSIGN_OR_RETURN(
          PgResult res,
          conn.Execute(sql::kListNamespaces, Scoped(scope, {NamespaceKey(parent),
                                                            after.value_or(""),
                                                            SqlLimit(page.size)})));
      std::vector<Namespace> items;
      std::vector<std::string> keys;
      for (int row = 0; row < res.Rows(); ++row) {
        keys.emplace_back(res.Text(row, 0));
        items.push_back(NamespaceFromKey(keys.back()));
      }
      return FinishPage(std::move(items), std::move(keys), page.size);
    });
  }

  Status DropNamespace(const CatalogScope& scope, const Namespace& ns,
                       const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), Mode::kTransaction, [&](PgConnection& conn) -> Status {
      const std::string key = NamespaceKey(ns);
      // FOR UPDATE waits for writers holding KEY SHARE on it (creates inside it), so the
      // emptiness checks below see what they created.
      FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, ns, sql::kNamespaceForUpdate));
      for (std::string_view check : {sql::kHasObject, sql::kHasChildNamespace}) {
        FIRN_ASSIGN_OR_RETURN(PgResult res, conn.Execute(check, Scoped(scope, {key})));
        if (res.Rows() > 0) return Fail(NamespaceNotEmptyError(ns));
      }
      FIRN_RETURN_IF_ERROR(conn.Execute(sql::kDeleteNamespace, Scoped(scope, {key})));
      return Ok();
    });
  }

  Result<PropertiesUpdateResult> UpdateNamespaceProperties(
      const CatalogScope& scope, const Namespace& ns, const std::vector<std::string>& removals,
      const Properties& updates, const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), Mode::kTransaction, [&](PgConnection& conn) -> Result<PropertiesUpdateResult> {
      const std::string key = NamespaceKey(ns);
      FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, ns, sql::kNamespaceNoKeyUpdate));
      PropertiesUpdateResult result;
      std::set<std::string> seen;
      for (const auto& name : removals) {
        if (!seen.insert(name).second) continue;
        FIRN_ASSIGN_OR_RETURN(PgResult res,
                              conn.Execute(sql::kDeleteProperty, Scoped(scope, {key, name})));
        (res.Affected() > 0 ? result.removed : result.missing).push_back(name);
      }
      for (const auto& [name, value] : updates) {
        FIRN_RETURN_IF_ERROR(
            conn.Execute(sql::kUpsertProperty, Scoped(scope, {key, name, value})));
        result.updated.push_back(name);
      }
      FIRN_RETURN_IF_ERROR(conn.Execute(sql::kTouchNamespace, Scoped(scope, {key, NowMillis()})));
      return result;
    });
  }

  Result<Page<std::string>> ListObjects(const CatalogScope& scope, const Namespace& ns,
                                        ObjectKind kind, const PageRequest& page) override {
    FIRN_RETURN_IF_ERROR(CheckPageSize(page.size));
    FIRN_ASSIGN_OR_RETURN(auto after, DecodePageToken(page.token));
    return Run(Mode::kRead, [&](PgConnection& conn) -> Result<Page<std::string>> {
      FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, ns));
      std::vector<Param> params =
          Scoped(scope, {NamespaceKey(ns), KindText(kind), SqlLimit(page.size)});
      if (after) params.emplace_back(*after);
      FIRN_ASSIGN_OR_RETURN(
          PgResult res,
          conn.Execute(after ? sql::kListObjectsAfter : sql::kListObjectsFirst, params));
      std::vector<std::string> names;
      for (int row = 0; row < res.Rows(); ++row) names.emplace_back(res.Text(row, 0));
      std::vector<std::string> keys = names;
      return FinishPage(std::move(names), std::move(keys), page.size);
    });
  }

  Result<ObjectPointer> LoadPointer(const CatalogScope& scope, const Identifier& id,
                                    ObjectKind kind) override {
    return Run(Mode::kRead, [&](PgConnection& conn) -> Result<ObjectPointer> {
      FIRN_ASSIGN_OR_RETURN(
          PgResult res,
          conn.Execute(sql::kLoadPointer,
                       Scoped(scope, {NamespaceKey(id.ns), id.name, KindText(kind)})));
      // A missing namespace is also "no such table": Java clients rely on it.
      if (res.Rows() == 0) return Fail(NoSuchObjectError(id, kind));
      return ObjectPointer{std::string(res.Text(0, 0)), res.Int(0, 1)};
    });
  }

  Status CreateObject(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                      const std::string& metadata_location,
                      const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), Mode::kTransaction, [&](PgConnection& conn) {
      return InsertObject(conn, scope, id, kind, metadata_location);
    });
  }

  Result<ObjectPointer> SwapPointer(const CatalogScope& scope, const Identifier& id,
                                    ObjectKind kind, const std::string& expected_location,
                                    const std::string& new_location,
                                    const AuditEntry* audit = nullptr) override {
    // Without an audit row, one round trip: the UPDATE is its own transaction.
    return Write(Audits(audit), Mode::kAutocommit, [&](PgConnection& conn) {
      return CasPointer(conn, scope, id, kind, expected_location, new_location,
                        AutocommitLoss(audit));
    });
  }

  Status ReplacePointer(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                        const std::string& new_location,
                        const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), Mode::kAutocommit, [&](PgConnection& conn) -> Status {
      FIRN_ASSIGN_OR_RETURN(
          PgResult res,
          conn.Execute(sql::kReplacePointer,
                       Scoped(scope, {NamespaceKey(id.ns), id.name, KindText(kind), new_location,
                                      NowMillis()}),
                       AutocommitLoss(audit)));
      if (res.Affected() == 0) return Fail(NoSuchObjectError(id, kind));
      return Ok();
    });
  }

  Status DropObject(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                    const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), Mode::kAutocommit, [&](PgConnection& conn) -> Status {
      FIRN_ASSIGN_OR_RETURN(
          PgResult res,
          conn.Execute(sql::kDeleteObject,
                       Scoped(scope, {NamespaceKey(id.ns), id.name, KindText(kind)}),
                       AutocommitLoss(audit)));
      if (res.Affected() == 0) return Fail(NoSuchObjectError(id, kind));
      return Ok();
    });
  }

  Status RenameObject(const CatalogScope& scope, const Identifier& from, const Identifier& to,
                      ObjectKind kind, const AuditEntry* audit = nullptr) override {
    return Write(Audits(audit), Mode::kTransaction, [&](PgConnection& conn) -> Status {
      // Locking the source makes a concurrent rename or drop of it wait, then see it gone.
      FIRN_ASSIGN_OR_RETURN(auto source,
                            FindObject(conn, scope, from, sql::kFindObjectForUpdate));
      if (!source || source->kind != kind) return Fail(NoSuchObjectError(from, kind));
      FIRN_RETURN_IF_ERROR(RequireNamespace(conn, scope, to.ns, sql::kNamespaceKeyShare));
      FIRN_ASSIGN_OR_RETURN(auto target, FindObject(conn, scope, to));
      if (target) return Fail(RenameTargetExistsError(from, to, kind, target->kind));
      FIRN_ASSIGN_OR_RETURN(
          PgResult res,
          conn.Execute(sql::kRenameObject, Scoped(scope, {NamespaceKey(from.ns), from.name,
                                                          NamespaceKey(to.ns), to.name,
                                                          NowMillis()})));
      if (res.Affected() != 1) return Fail(NoSuchObjectError(from, kind));
      return Ok();
    });
  }

  Status CommitTransaction(const CatalogScope& scope,
                           const std::vector<PointerSwap>& swaps,
                           std::span<const AuditEntry> audits = {}) override {
    return Write(audits, Mode::kTransaction, [&](PgConnection& conn) -> Status {
      for (const auto& swap : swaps) {
        if (swap.expected_location) {
          FIRN_RETURN_IF_ERROR(CasPointer(conn, scope, swap.id, swap.kind,
                                          *swap.expected_location, swap.new_location,
                                          OnLoss::kNothingCommitted));
        } else {
          FIRN_RETURN_IF_ERROR(InsertObject(conn, scope, swap.id, swap.kind, swap.new_location));
        }
      }
      return Ok();
    });
  }

  Status StoreMetricsReport(const CatalogScope& scope, const MetricsReport& report) override {
    return Run(Mode::kAutocommit, [&](PgConnection& conn) -> Status {
      FIRN_RETURN_IF_ERROR(conn.Execute(
          sql::kInsertMetrics,
          Scoped(scope, {NamespaceKey(report.table.ns), report.table.name, report.report_type,
                         report.json,
                         report.received_ms != 0 ? report.received_ms : NowMillis()}),
          OnLoss::kOutcomeUnknown));
      return Ok();
    });
  }

  // AccessStore.
  Result<int64_t> AccessVersion() override {
    return Run(Mode::kRead, [&](PgConnection& conn) { return postgres::ReadAccessVersion(conn); });
  }

  Result<AccessRows> LoadAccess() override {
    return Run(Mode::kRead, [&](PgConnection& conn) { return postgres::LoadAccessRows(conn); });
  }

  Result<int64_t> ApplyAccessWrites(const std::vector<AccessWrite>& writes,
                                    const AuditEntry* audit, int64_t now_ms) override {
    return Run(Mode::kTransaction, [&](PgConnection& conn) {
      return postgres::ApplyAccessWrites(conn, writes, audit, now_ms);
    });
  }

  Status AppendAudit(const AuditEntry& entry) override {
    return Run(Mode::kAutocommit, [&](PgConnection& conn) {
      return postgres::InsertAudit(conn, entry, OnLoss::kOutcomeUnknown);
    });
  }

  Result<std::vector<AuditEntry>> ListAudit(const AuditFilter& filter) override {
    return Run(Mode::kRead,
               [&](PgConnection& conn) { return postgres::ListAuditRows(conn, filter); });
  }

  // An ack is idempotent (the latest wins), so a lost connection is plain unavailability.
  Status AckAccessVersion(const InstanceAck& ack) override {
    return Run(Mode::kAutocommit,
               [&](PgConnection& conn) { return postgres::UpsertInstanceAck(conn, ack); });
  }

  Result<std::vector<InstanceAck>> LiveInstances(int64_t since_ms) override {
    return Run(Mode::kRead,
               [&](PgConnection& conn) { return postgres::ListLiveInstances(conn, since_ms); });
  }

  Result<std::vector<CatalogScope>> ListCatalogScopes() override {
    return Run(Mode::kRead, [&](PgConnection& conn) -> Result<std::vector<CatalogScope>> {
      FIRN_ASSIGN_OR_RETURN(PgResult res, conn.Execute(sql::kListCatalogScopes, {}));
      std::vector<CatalogScope> scopes;
      for (int row = 0; row < res.Rows(); ++row) {
        scopes.push_back({std::string(res.Text(row, 0)), std::string(res.Text(row, 1))});
      }
      return scopes;
    });
  }

  Result<std::optional<IdempotencyRecord>> LoadIdempotencyRecord(
      const CatalogScope& scope, const std::string& key) override {
    return Run(Mode::kRead, [&](PgConnection& conn) -> Result<std::optional<IdempotencyRecord>> {
      FIRN_ASSIGN_OR_RETURN(PgResult res,
                            conn.Execute(sql::kLoadIdempotency, Scoped(scope, {key})));
      if (res.Rows() == 0) return std::optional<IdempotencyRecord>();
      IdempotencyRecord record;
      record.operation = std::string(res.Text(0, 0));
      record.status = static_cast<int>(res.Int(0, 1));
      FIRN_ASSIGN_OR_RETURN(record.headers, DecodeHeaders(res.Text(0, 2)));
      record.body = std::string(res.Text(0, 3));
      record.created_ms = res.Int(0, 4);
      return std::optional<IdempotencyRecord>(std::move(record));
    });
  }

  // Saving is idempotent (first record wins), so a lost connection is plain unavailability.
  Status SaveIdempotencyRecord(const CatalogScope& scope, const std::string& key,
                               const IdempotencyRecord& record) override {
    const std::string headers = EncodeHeaders(record.headers);
    return Run(Mode::kAutocommit, [&](PgConnection& conn) -> Status {
      FIRN_RETURN_IF_ERROR(conn.Execute(
          sql::kSaveIdempotency,
          Scoped(scope, {key, record.operation, record.status, headers, record.body,
                         record.created_ms != 0 ? record.created_ms : NowMillis()})));
      return Ok();
    });
  }

  Result<int64_t> DeleteIdempotencyRecordsBefore(int64_t created_before_ms) override {
    return Run(Mode::kAutocommit, [&](PgConnection& conn) -> Result<int64_t> {
      FIRN_ASSIGN_OR_RETURN(PgResult res,
                            conn.Execute(sql::kDeleteIdempotencyBefore, {created_before_ms}));
      return res.Affected();
    });
  }

 private:
  static std::span<const AuditEntry> Audits(const AuditEntry* audit) {
    return audit ? std::span<const AuditEntry>(audit, 1) : std::span<const AuditEntry>();
  }

  // What a lost connection means for a write that runs in autocommit unless audited (an
  // audited write runs in a transaction, where only the COMMIT can be in doubt).
  static OnLoss AutocommitLoss(const AuditEntry* audit) {
    return audit ? OnLoss::kNothingCommitted : OnLoss::kOutcomeUnknown;
  }

  // Run() for a catalog write: with audit rows, the body and the rows share one transaction
  // (an autocommit write is promoted to one); the rows are appended only when the body succeeds.
  template <typename F>
  auto Write(std::span<const AuditEntry> audits, Mode mode, F&& body)
      -> std::invoke_result_t<F, PgConnection&> {
    using R = std::invoke_result_t<F, PgConnection&>;
    if (audits.empty()) return Run(mode, body);
    return Run(Mode::kTransaction, [&](PgConnection& conn) -> R {
      R result = body(conn);
      if (!result) return result;
      for (const auto& audit : audits) FIRN_RETURN_IF_ERROR(postgres::InsertAudit(conn, audit));
      return result;
    });
  }

  // Runs `body` on a pooled connection. kTransaction wraps it in BEGIN/COMMIT (ROLLBACK on
  // error). Reruns it on a retryable race (bounded), and once more on a fresh connection when
  // the connection was lost before anything could have committed.
  template <typename F>
  auto Run(Mode mode, F&& body) -> std::invoke_result_t<F, PgConnection&> {
    using R = std::invoke_result_t<F, PgConnection&>;
    for (int attempt = 1;; ++attempt) {
      auto lease = pool_.Acquire(/*check_alive=*/true);
      if (!lease) return std::unexpected(std::move(lease).error());
      PgConnection& conn = **lease;
      R result = Attempt<R>(mode, conn, body);
      if (result) return result;
      const bool retryable = conn.LastFailureIsRetryable();
      const bool lost = conn.IsBroken();
      if (mode == Mode::kTransaction && !lost && conn.InTransaction()) {
        // A failed ROLLBACK leaves the connection in a transaction; the pool then drops it.
        (void)conn.ExecuteScript("ROLLBACK");
      }
      bool again = false;
      if (retryable) {
        again = attempt < options_.max_attempts;
      } else if (lost && result.error().kind == ErrorKind::kServiceUnavailable) {
        again = attempt == 1;  // nothing committed: a stale connection is worth one more try
      }
      if (!again) return result;
      Backoff(attempt);
    }
  }

  template <typename R, typename F>
  static R Attempt(Mode mode, PgConnection& conn, F& body) {
    if (mode != Mode::kTransaction) return body(conn);
    FIRN_RETURN_IF_ERROR(conn.ExecuteScript("BEGIN"));
    R result = body(conn);
    if (!result) return result;
    FIRN_RETURN_IF_ERROR(conn.ExecuteScript("COMMIT", OnLoss::kOutcomeUnknown));
    return result;
  }

  static void Backoff(int attempt) {
    thread_local std::minstd_rand rng(std::random_device{}());
    std::uniform_int_distribution<int> jitter(1, 5 * attempt);
    std::this_thread::sleep_for(std::chrono::milliseconds(jitter(rng)));
  }

  const PostgresOptions options_;
  PgConnectionPool pool_;
};

// Finds the password inside a postgresql:// URL: [begin, end) of the userinfo password, or of
// a password=... query parameter (including the separator before it).
struct PasswordSpan {
  size_t begin = std::string::npos;
  size_t end = std::string::npos;
  bool in_query = false;
};

PasswordSpan FindPassword(const std::string& url) {
  PasswordSpan span;
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return span;
  const size_t authority = scheme + 3;
  const size_t path = url.find_first_of("/?", authority);
  const size_t at = url.rfind('@', path == std::string::npos ? url.size() : path);
  if (at != std::string::npos && at >= authority) {
    const size_t colon = url.find(':', authority);
    if (colon != std::string::npos && colon < at) {
      span.begin = colon;  // keep "user", drop ":password"
      span.end = at;
      return span;
    }
  }
  const size_t query = url.find('?', authority);
  if (query == std::string::npos) return span;
  size_t pos = query + 1;
  while (pos < url.size()) {
    size_t amp = url.find('&', pos);
    if (amp == std::string::npos) amp = url.size();
    if (url.compare(pos, 9, "password=") == 0) {
      span.in_query = true;
      span.begin = pos;
      span.end = amp;
      return span;
    }
    pos = amp + 1;
  }
  return span;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string PercentDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        HexValue(text[i + 1]) >= 0 && HexValue(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string RemoveSpan(const std::string& url, const PasswordSpan& span) {
  if (!span.in_query) return url.substr(0, span.begin) + url.substr(span.end);
  // Drop "password=…" and one adjacent separator.
  size_t begin = span.begin;
  size_t end = span.end;
  if (end < url.size()) {
    ++end;  // the following '&'
  } else {
    --begin;  // the preceding '?' or '&'
  }
  return url.substr(0, begin) + url.substr(end);
}

}  // namespace

std::string RedactDatabaseUrl(const std::string& url) {
  Secret ignored;
  return TakePasswordFromUrl(url, ignored);
}

std::string TakePasswordFromUrl(const std::string& url, Secret& password) {
  std::string out = url;
  // A URL may (oddly) carry both forms; strip every occurrence.
  for (int i = 0; i < 4; ++i) {
    PasswordSpan span = FindPassword(out);
    if (span.begin == std::string::npos) break;
    std::string_view raw(out.data() + span.begin, span.end - span.begin);
    raw.remove_prefix(span.in_query ? 9 : 1);  // "password=" or ":"
    password = Secret(PercentDecode(raw));
    out = RemoveSpan(out, span);
  }
  return out;
}

Result<std::unique_ptr<CatalogStore>> OpenPostgresStore(const std::string& url,
                                                        const PostgresOptions& options) {
  if (options.max_connections < 1 || options.max_attempts < 1) {
    return Fail(ErrorKind::kIllegalArgument,
                "PostgreSQL pool size and attempts must be at least 1");
  }
  {
    FIRN_ASSIGN_OR_RETURN(auto conn, PgConnection::Open(url, options));
    FIRN_RETURN_IF_ERROR(postgres::Migrate(*conn, options.schema));
  }
  return std::unique_ptr<CatalogStore>(new PostgresCatalogStore(url, options));
}

}  // namespace firn::store
