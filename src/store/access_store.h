// AccessStore: the persisted identity and access records of every realm (realms, signing keys,
// principals, principal roles, catalogs, catalog roles, role assignments, grants) and the audit
// trail. The rules live in access/; the store keeps opaque JSON bodies under typed keys and
// guarantees atomicity, optimistic concurrency and a monotonic change version.
//
// Thread-safety: every method is safe to call concurrently from any thread.
// Error contract:
//   kAlreadyExists       a kCreate write found the key already present
//   kNotFound            an update/delete write found the key missing
//   kCommitFailed        an update/delete write's expected entity_version did not match
//   kServiceUnavailable  the database cannot be reached; nothing was changed
//   kLocationConflict    a catalog's claim overlaps another catalog's locations
// Ownership: the store owns its connections; callers own the values passed in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "store/location_claims.h"

namespace firn::store {

// The kinds of access record. The stored names are the lower-case enumerator names
// ("realm", "signing_key", ...); never renumber, append.
enum class AccessKind {
  kRealm,               // name = realm; body: realm settings
  kSigningKey,          // name = kid; body: auth::StoredKey fields
  kPrincipal,           // name = principal name
  kPrincipalRole,       // name = principal role name
  kCatalog,             // name = catalog name; body: Polaris Catalog JSON
  kCatalogRole,         // scope = catalog; name = catalog role name
  kPrincipalRoleGrant,  // name = "<principal>\x1f<principal role>" (principal holds the role)
  kCatalogRoleGrant,    // scope = catalog; name = "<principal role>\x1f<catalog role>"
  kPrivilegeGrant,      // scope = catalog ("" = root); name = "<grantee>\x1f<securable>\x1f<PRIV>"
};
std::string_view AccessKindName(AccessKind kind);
std::optional<AccessKind> ParseAccessKind(std::string_view name);

struct AccessRecord {
  std::string realm;
  AccessKind kind = AccessKind::kRealm;
  std::string scope;  // "" unless the kind is catalog-scoped
  std::string name;
  std::string body;   // JSON owned by access/; the store never parses it
  int64_t entity_version = 0;  // 1 on create, +1 on every update
  int64_t created_ms = 0;
  int64_t updated_ms = 0;
};

// One change inside ApplyAccessWrites. All writes of one call commit together or not at all.
struct AccessWrite {
  enum class Op { kCreate, kUpdate, kDelete, kUpsert };
  Op op = Op::kCreate;
  // Key fields (realm, kind, scope, name) always; body for create/update/upsert.
  AccessRecord record;
  // kUpdate/kDelete: the entity_version the caller read; nullopt = any version.
  std::optional<int64_t> expected_version;
  // kCatalog records: the catalog's base and allowed locations, checked and recorded in the same
  // transaction (store/location_claims.h); nullopt = unchanged. Deleting a catalog releases them.
  std::optional<LocationClaim> claim;
};

// One audit row. Written in the same transaction as the change it describes.
struct AuditEntry {
  int64_t id = 0;          // assigned by the store
  int64_t at_ms = 0;
  std::string realm;
  std::string catalog;     // "" for realm-level management changes
  std::string principal;   // who; "" when authentication is off
  std::string client;      // User-Agent and X-Client-* headers, as one string
  std::string request_id;
  std::string operation;   // REST / management operationId, e.g. "updateTable"
  std::string object;      // e.g. "table db.orders", "principal alice"
  std::string old_location;  // metadata pointer before (commits)
  std::string new_location;  // metadata pointer after (commits)
  std::string outcome;     // "success" or an error kind name
  std::string detail;      // short, never a secret
};

struct AuditFilter {
  std::optional<std::string> realm;
  std::optional<std::string> catalog;
  std::optional<std::string> principal;
  std::optional<std::string> operation;
  std::optional<std::string> outcome;        // success, fenced, or an error kind (CommitFailed…)
  std::optional<std::string> object_prefix;  // matches object starting with this text
  std::optional<int64_t> since_ms;          // inclusive
  std::optional<int64_t> until_ms;          // exclusive
  std::optional<int64_t> after_id;          // paging: rows with id > after_id
  int64_t limit = 100;                      // 1..1000
};

// A consistent read of every access record together with the version it reflects.
struct AccessRows {
  int64_t version = 0;
  std::vector<AccessRecord> records;
};

// Each serving instance acknowledges the access version it has loaded; management writes wait
// for every live instance (docs/auth.md, "grants on every instance").
struct InstanceAck {
  std::string instance_id;
  int64_t version = 0;
  int64_t heartbeat_ms = 0;
};

class AccessStore {
 public:
  virtual ~AccessStore() = default;

  // The global access version: bumped by every successful ApplyAccessWrites. Cheap.
  virtual Result<int64_t> AccessVersion() = 0;
  // Every record of every realm, read in one snapshot with the version it reflects, ordered by
  // (realm, stored kind name, scope, name). Rows of a kind this binary does not know are skipped.
  virtual Result<AccessRows> LoadAccess() = 0;
  // Applies all writes atomically, appends `audit` (when given; at_ms 0 = now_ms) in the same
  // transaction, bumps the version (also for an empty `writes`) and returns it. Created/updated
  // records get entity_version and timestamps set by the store (now_ms); an upsert of an
  // existing key counts as an update. On any error nothing is written (no audit row either).
  virtual Result<int64_t> ApplyAccessWrites(const std::vector<AccessWrite>& writes,
                                            const AuditEntry* audit, int64_t now_ms) = 0;

  // Audit rows not tied to a pointer or access change (e.g. a refused commit). at_ms is set
  // by the caller (0 = now). The id is assigned by the store; ids only grow.
  virtual Status AppendAudit(const AuditEntry& entry) = 0;
  // Newest first unless after_id is set (then oldest first, for paging forward).
  // kIllegalArgument when limit is outside 1..1000 or since_ms >= until_ms.
  virtual Result<std::vector<AuditEntry>> ListAudit(const AuditFilter& filter) = 0;

  // Records (replacing) this instance's loaded version and heartbeat (heartbeat_ms 0 = now).
  virtual Status AckAccessVersion(const InstanceAck& ack) = 0;
  // Instances whose heartbeat is at or after `since_ms`, sorted by instance_id.
  virtual Result<std::vector<InstanceAck>> LiveInstances(int64_t since_ms) = 0;
};

}  // namespace firn::store
