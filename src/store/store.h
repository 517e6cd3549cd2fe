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
// Messages follow the Iceberg REST wording (docs/error-mapping.md) so the service can pass
// them through. Ownership: the store owns its connections; callers own the values passed in.
// Audit: every write takes an optional AuditEntry (CommitTransaction: a span of them). When
// given, the row is appended in the same database transaction as the change, so a commit and
// its audit row exist together or not at all; a failed write appends nothing (the caller may
// record the refusal with AppendAudit). at_ms = 0 means "now".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "store/access_store.h"
#include "store/idempotency_store.h"

namespace firn::store {

using Namespace = std::vector<std::string>;          // levels, outermost first
using Properties = std::map<std::string, std::string>;

enum class ObjectKind { kTable, kView };

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
};

// One pointer move inside a multi-object transaction.
struct PointerSwap {
  Identifier id;
  ObjectKind kind = ObjectKind::kTable;
  std::optional<std::string> expected_location;  // nullopt = create (must not exist)
  std::string new_location;
};

struct PropertiesUpdateResult {
  std::vector<std::string> updated;
  std::vector<std::string> removed;
  std::vector<std::string> missing;
};

struct MetricsReport {
  Identifier table;
  std::string report_type;
  std::string json;  // the report as received (already validated JSON)
  int64_t received_ms = 0;
};

// Also an IdempotencyStore (idempotency_store.h) and an AccessStore (access_store.h): one
// database holds all three, so a commit and its audit row share a transaction.
class CatalogStore : public IdempotencyStore, public AccessStore {
 public:
  ~CatalogStore() override = default;

  // Namespaces.
  virtual Status CreateNamespace(const CatalogScope& scope, const Namespace& ns,
                                 const Properties& props,
                                 const AuditEntry* audit = nullptr) = 0;
  virtual Result<Properties> LoadNamespace(const CatalogScope& scope, const Namespace& ns) = 0;
  // Direct children of `parent` (empty = top level), sorted. kNoSuchNamespace if parent missing.
  virtual Result<Page<Namespace>> ListNamespaces(const CatalogScope& scope,
                                                 const Namespace& parent,
                                                 const PageRequest& page) = 0;
  virtual Status DropNamespace(const CatalogScope& scope, const Namespace& ns,
                               const AuditEntry* audit = nullptr) = 0;
  // Removals and updates must not share a key (the caller checks; 422).
  virtual Result<PropertiesUpdateResult> UpdateNamespaceProperties(
      const CatalogScope& scope, const Namespace& ns, const std::vector<std::string>& removals,
      const Properties& updates, const AuditEntry* audit = nullptr) = 0;

  // Tables and views share one name space per namespace.
  virtual Result<Page<std::string>> ListObjects(const CatalogScope& scope, const Namespace& ns,
                                                ObjectKind kind, const PageRequest& page) = 0;
  virtual Result<ObjectPointer> LoadPointer(const CatalogScope& scope, const Identifier& id,
                                            ObjectKind kind) = 0;
  // Creates the pointer; kAlreadyExists if a table or a view holds the name.
  virtual Status CreateObject(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                              const std::string& metadata_location,
                              const AuditEntry* audit = nullptr) = 0;
  // Moves the pointer iff it currently equals `expected_location`; kCommitFailed otherwise.
  virtual Result<ObjectPointer> SwapPointer(const CatalogScope& scope, const Identifier& id,
                                            ObjectKind kind, const std::string& expected_location,
                                            const std::string& new_location,
                                            const AuditEntry* audit = nullptr) = 0;
  // Registers over an existing table (register with overwrite=true): unconditional swap.
  virtual Status ReplacePointer(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                                const std::string& new_location,
                                const AuditEntry* audit = nullptr) = 0;
  virtual Status DropObject(const CatalogScope& scope, const Identifier& id, ObjectKind kind,
                            const AuditEntry* audit = nullptr) = 0;
  virtual Status RenameObject(const CatalogScope& scope, const Identifier& from,
                              const Identifier& to, ObjectKind kind,
                              const AuditEntry* audit = nullptr) = 0;
  // All swaps or none, in one database transaction (with all `audits`, when given).
  virtual Status CommitTransaction(const CatalogScope& scope,
                                   const std::vector<PointerSwap>& swaps,
                                   std::span<const AuditEntry> audits = {}) = 0;

  virtual Status StoreMetricsReport(const CatalogScope& scope, const MetricsReport& report) = 0;

  // Every (realm, catalog) holding at least one namespace, sorted by realm then catalog.
  // For admin tools that walk a whole database (firn admin copy-store); not a hot path.
  virtual Result<std::vector<CatalogScope>> ListCatalogScopes() = 0;
};

}  // namespace firn::store
