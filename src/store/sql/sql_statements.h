// Every SQL statement of the catalog and access stores, once, for every backend.
//
// Placeholders are $1, $2, … (sql_session.h). Catalog statements bind $1 = realm and
// $2 = catalog first. Statements with a row-lock clause have a plain twin: a backend without
// row locks (SQLite: one writer at a time) runs the plain one (see Pick()).
// Portable SQL only: no AUTOINCREMENT quirks, no JSON functions, LIMIT takes a number
// (kNoLimit for "all"). The schema they run on: docs/db-schema.md.
#pragma once

#include <string_view>

#include "store/sql/sql_session.h"

namespace firn::store::sql {

// The locking statement where the backend has row locks, else its plain twin.
inline std::string_view Pick(const Session& session, std::string_view plain,
                             std::string_view locking) {
  return session.HasRowLocks() ? locking : plain;
}

// ---- namespaces -------------------------------------------------------------------------------

inline constexpr std::string_view kNamespaceExists =
    "SELECT 1 FROM namespaces WHERE realm = $1 AND catalog = $2 AND ns_key = $3";
// Taken by writers that depend on a namespace existing; they conflict with DropNamespace's
// FOR UPDATE, so a namespace cannot vanish under a create, and a drop sees what was created.
inline constexpr std::string_view kNamespaceKeyShare =
    "SELECT 1 FROM namespaces WHERE realm = $1 AND catalog = $2 AND ns_key = $3 FOR KEY SHARE";
inline constexpr std::string_view kNamespaceForUpdate =
    "SELECT 1 FROM namespaces WHERE realm = $1 AND catalog = $2 AND ns_key = $3 FOR UPDATE";
inline constexpr std::string_view kNamespaceNoKeyUpdate =
    "SELECT 1 FROM namespaces WHERE realm = $1 AND catalog = $2 AND ns_key = $3 "
    "FOR NO KEY UPDATE";
inline constexpr std::string_view kInsertNamespace =
    "INSERT INTO namespaces (realm, catalog, ns_key, parent_key, created_ms, updated_ms) "
    "VALUES ($1, $2, $3, $4, $5, $5)";
inline constexpr std::string_view kTouchNamespace =
    "UPDATE namespaces SET updated_ms = $4 WHERE realm = $1 AND catalog = $2 AND ns_key = $3";
inline constexpr std::string_view kDeleteNamespace =
    "DELETE FROM namespaces WHERE realm = $1 AND catalog = $2 AND ns_key = $3";
inline constexpr std::string_view kLoadNamespace =
    "SELECT p.name, p.value FROM namespaces n LEFT JOIN namespace_properties p "
    "ON p.realm = n.realm AND p.catalog = n.catalog AND p.ns_key = n.ns_key "
    "WHERE n.realm = $1 AND n.catalog = $2 AND n.ns_key = $3";
// Keys are never empty (ValidateNamespaceForCreate), so "" starts from the beginning.
inline constexpr std::string_view kListNamespaces =
    "SELECT ns_key FROM namespaces WHERE realm = $1 AND catalog = $2 AND parent_key = $3 "
    "AND ns_key > $4 ORDER BY ns_key LIMIT $5";
inline constexpr std::string_view kHasChildNamespace =
    "SELECT 1 FROM namespaces WHERE realm = $1 AND catalog = $2 AND parent_key = $3 LIMIT 1";
inline constexpr std::string_view kHasObject =
    "SELECT 1 FROM objects WHERE realm = $1 AND catalog = $2 AND ns_key = $3 LIMIT 1";
inline constexpr std::string_view kDeleteProperty =
    "DELETE FROM namespace_properties "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4";
inline constexpr std::string_view kUpsertProperty =
    "INSERT INTO namespace_properties (realm, catalog, ns_key, name, value) "
    "VALUES ($1, $2, $3, $4, $5) "
    "ON CONFLICT (realm, catalog, ns_key, name) DO UPDATE SET value = excluded.value";
// Objects need their namespace (foreign key), so namespaces name every used scope; a dropped
// object may outlive every namespace of its catalog, so those scopes are named too.
inline constexpr std::string_view kListCatalogScopes =
    "SELECT realm, catalog FROM namespaces UNION SELECT realm, catalog FROM dropped_objects "
    "ORDER BY realm, catalog";

// ---- tables and views -------------------------------------------------------------------------

inline constexpr std::string_view kListObjectsFirst =
    "SELECT name FROM objects WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND kind = $4 "
    "ORDER BY name LIMIT $5";
inline constexpr std::string_view kListObjectsAfter =
    "SELECT name FROM objects WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND kind = $4 "
    "AND name > $6 ORDER BY name LIMIT $5";
// The hot path: one primary-key lookup, no transaction.
inline constexpr std::string_view kLoadPointer =
    "SELECT metadata_location, version, fence, moving FROM objects "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5";
inline constexpr std::string_view kFindObject =
    "SELECT kind, metadata_location, version FROM objects "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4";
inline constexpr std::string_view kFindObjectForUpdate =
    "SELECT kind, metadata_location, version FROM objects "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 FOR UPDATE";
inline constexpr std::string_view kInsertObject =
    "INSERT INTO objects (realm, catalog, ns_key, name, kind, metadata_location, version, "
    "created_ms, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $7)";
// Compare-and-swap on the location: 0 rows means missing or moved. Under PostgreSQL's READ
// COMMITTED a concurrent swap of the same row makes this wait, then re-check the WHERE.
inline constexpr std::string_view kSwapPointer =
    "UPDATE objects SET metadata_location = $6, version = version + 1, updated_ms = $8 "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5 "
    "AND metadata_location = $7 AND moving = '' RETURNING version";
inline constexpr std::string_view kReplacePointer =
    "UPDATE objects SET metadata_location = $6, version = version + 1, updated_ms = $7 "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5 "
    "AND moving = ''";
inline constexpr std::string_view kDeleteObject =
    "DELETE FROM objects "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5";
inline constexpr std::string_view kSetFence =
    "UPDATE objects SET fence = $6 "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5";
inline constexpr std::string_view kSetMoving =
    "UPDATE objects SET moving = $6 "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5";
inline constexpr std::string_view kListFences =
    "SELECT realm, catalog, ns_key, name, kind, metadata_location, fence FROM objects "
    "WHERE fence <> '' ORDER BY realm, catalog, ns_key, name";
inline constexpr std::string_view kRenameObject =
    "UPDATE objects SET ns_key = $5, name = $6, updated_ms = $7 "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4";
// To another catalog of the realm (MoveObject): only the expected pointer, never a moving one.
inline constexpr std::string_view kMoveObject =
    "UPDATE objects SET catalog = $6, ns_key = $7, name = $8, updated_ms = $9 "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 AND kind = $5 "
    "AND metadata_location = $10 AND moving = ''";
// ---- dropped objects (soft delete) -----------------------------------------------------------
inline constexpr std::string_view kInsertDropped =
    "INSERT INTO dropped_objects (drop_id, realm, catalog, ns_key, name, kind, "
    "metadata_location, fence, uuid, dropped_ms, expires_ms, purge_requested, detail) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";
inline constexpr std::string_view kSetDroppedGrants =
    "UPDATE dropped_objects SET grants = $4 WHERE realm = $1 AND catalog = $2 AND drop_id = $3";
inline constexpr std::string_view kLoadDroppedGrants =
    "SELECT grants FROM dropped_objects WHERE realm = $1 AND catalog = $2 AND drop_id = $3";
// The pointer goes only if it is still the one being dropped (a commit may have come first).
inline constexpr std::string_view kDeleteObjectAt =
    "DELETE FROM objects WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND name = $4 "
    "AND kind = $5 AND metadata_location = $6 RETURNING fence";
inline constexpr std::string_view kListDropped =
    "SELECT drop_id, realm, catalog, ns_key, name, kind, metadata_location, fence, uuid, "
    "dropped_ms, expires_ms, purge_requested, detail FROM dropped_objects "
    "WHERE realm = $1 AND catalog = $2 AND drop_id > $3 ORDER BY drop_id LIMIT $4";
inline constexpr std::string_view kLoadDropped =
    "SELECT drop_id, realm, catalog, ns_key, name, kind, metadata_location, fence, uuid, "
    "dropped_ms, expires_ms, purge_requested, detail FROM dropped_objects "
    "WHERE realm = $1 AND catalog = $2 AND drop_id = $3";
inline constexpr std::string_view kFindDroppedByUuid =
    "SELECT drop_id, realm, catalog, ns_key, name, kind, metadata_location, fence, uuid, "
    "dropped_ms, expires_ms, purge_requested, detail FROM dropped_objects "
    "WHERE realm = $1 AND uuid = $2 ORDER BY drop_id";
inline constexpr std::string_view kDeleteDropped =
    "DELETE FROM dropped_objects WHERE realm = $1 AND catalog = $2 AND drop_id = $3";
// ---- commit intents (store.h, PendingFile) ---------------------------------------------------
inline constexpr std::string_view kInsertPending =
    "INSERT INTO pending_files (location, realm, catalog, ns_key, name, kind, instance, "
    "created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
inline constexpr std::string_view kDeletePending = "DELETE FROM pending_files WHERE location = $1";
inline constexpr std::string_view kListPending =
    "SELECT location, realm, catalog, ns_key, name, kind, instance, created_ms "
    "FROM pending_files WHERE created_ms < $1 ORDER BY created_ms, location LIMIT $2";
inline constexpr std::string_view kInsertMetrics =
    "INSERT INTO metrics_reports (realm, catalog, ns_key, table_name, report_type, report_json, "
    "received_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)";
// One table's reports after an id, oldest first; $5 = '' lists every type.
inline constexpr std::string_view kListMetrics =
    "SELECT id, report_type, report_json, received_ms FROM metrics_reports "
    "WHERE realm = $1 AND catalog = $2 AND ns_key = $3 AND table_name = $4 "
    "AND ($5 = '' OR report_type = $5) AND id > $6 ORDER BY id LIMIT $7";
inline constexpr std::string_view kDeleteMetricsBefore =
    "DELETE FROM metrics_reports WHERE received_ms < $1";

// ---- idempotency records ----------------------------------------------------------------------

inline constexpr std::string_view kLoadIdempotency =
    "SELECT operation, status, headers_json, body, created_ms FROM idempotency_records "
    "WHERE realm = $1 AND catalog = $2 AND idem_key = $3";
// The first record for a key wins.
inline constexpr std::string_view kSaveIdempotency =
    "INSERT INTO idempotency_records (realm, catalog, idem_key, operation, status, headers_json, "
    "body, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING";
inline constexpr std::string_view kDeleteIdempotencyBefore =
    "DELETE FROM idempotency_records WHERE created_ms < $1";

// ---- access records, audit, instance acknowledgements -----------------------------------------

inline constexpr std::string_view kInsertAudit =
    "INSERT INTO audit_log (at_ms, realm, catalog, principal, client, request_id, operation, "
    "object, old_location, new_location, outcome, detail) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
// Access writers take this row lock first, so their checks run one at a time (READ COMMITTED:
// each later statement sees what the previous holder committed).
inline constexpr std::string_view kBumpAccessVersion =
    "UPDATE access_version SET version = version + 1 WHERE id = 1 RETURNING version";
inline constexpr std::string_view kReadAccessVersion =
    "SELECT version FROM access_version WHERE id = 1";
// The access writers' lock without a bump (a GrantsPlan that may change nothing).
inline constexpr std::string_view kLockAccessVersion =
    "SELECT version FROM access_version WHERE id = 1 FOR UPDATE";
// The records of one kind in one scope (a catalog's roles and grants, for a GrantsPlan).
inline constexpr std::string_view kListScopeRecords =
    "SELECT realm, kind, scope, name, body, entity_version, created_ms, updated_ms "
    "FROM access_records WHERE realm = $1 AND kind = $2 AND scope = $3 ORDER BY name";
inline constexpr std::string_view kFindRecord =
    "SELECT entity_version FROM access_records "
    "WHERE realm = $1 AND kind = $2 AND scope = $3 AND name = $4";
inline constexpr std::string_view kInsertRecord =
    "INSERT INTO access_records (realm, kind, scope, name, body, entity_version, created_ms, "
    "updated_ms) VALUES ($1, $2, $3, $4, $5, 1, $6, $6)";
inline constexpr std::string_view kUpdateRecord =
    "UPDATE access_records SET body = $5, entity_version = entity_version + 1, updated_ms = $6 "
    "WHERE realm = $1 AND kind = $2 AND scope = $3 AND name = $4";
inline constexpr std::string_view kDeleteRecord =
    "DELETE FROM access_records WHERE realm = $1 AND kind = $2 AND scope = $3 AND name = $4";
inline constexpr std::string_view kUpsertRecord =
    "INSERT INTO access_records (realm, kind, scope, name, body, entity_version, created_ms, "
    "updated_ms) VALUES ($1, $2, $3, $4, $5, 1, $6, $6) "
    "ON CONFLICT (realm, kind, scope, name) DO UPDATE SET body = excluded.body, "
    "entity_version = access_records.entity_version + 1, updated_ms = excluded.updated_ms";
// The LEFT JOIN returns the version even when there are no records (then one NULL row).
inline constexpr std::string_view kLoadAccess =
    "SELECT v.version, r.realm, r.kind, r.scope, r.name, r.body, r.entity_version, "
    "r.created_ms, r.updated_ms FROM access_version v LEFT JOIN access_records r ON TRUE "
    "WHERE v.id = 1 ORDER BY r.realm, r.kind, r.scope, r.name";
inline constexpr std::string_view kUpsertAck =
    "INSERT INTO instance_acks (instance_id, version, heartbeat_ms) VALUES ($1, $2, $3) "
    "ON CONFLICT (instance_id) DO UPDATE SET version = excluded.version, "
    "heartbeat_ms = excluded.heartbeat_ms";
inline constexpr std::string_view kLiveInstances =
    "SELECT instance_id, version, heartbeat_ms FROM instance_acks WHERE heartbeat_ms >= $1 "
    "ORDER BY instance_id";

// ---- location claims (store/location_claims.h) ---------------------------------------------

inline constexpr std::string_view kInsertLocation =
    "INSERT INTO object_locations (location, realm, catalog, owner_kind, ns_key, name, "
    "host_catalog) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING";
inline constexpr std::string_view kOwnerLocations =
    "SELECT location, host_catalog FROM object_locations "
    "WHERE realm = $1 AND catalog = $2 AND owner_kind = $3 AND ns_key = $4 AND name = $5 "
    "ORDER BY location";
// Objects of other catalogs whose files lie in this catalog's locations (it may not go).
inline constexpr std::string_view kHostedBy =
    "SELECT location, realm, catalog, owner_kind, ns_key, name, host_catalog "
    "FROM object_locations WHERE realm = $1 AND host_catalog = $2 LIMIT 1";
inline constexpr std::string_view kDeleteOwnerLocations =
    "DELETE FROM object_locations "
    "WHERE realm = $1 AND catalog = $2 AND owner_kind = $3 AND ns_key = $4 AND name = $5";
inline constexpr std::string_view kRenameOwnerLocations =
    "UPDATE object_locations SET ns_key = $6, name = $7 "
    "WHERE realm = $1 AND catalog = $2 AND owner_kind = $3 AND ns_key = $4 AND name = $5";
// Claims strictly inside [$1, $2) (location_claims.h LocationDescendantRange) that could conflict:
// any other owner's (for a table or view) or another catalog's (for a container). One is
// enough to refuse, so the scan stops at the first.
inline constexpr std::string_view kLocationInsideOtherOwner =
    "SELECT location, realm, catalog, owner_kind, ns_key, name, host_catalog "
    "FROM object_locations WHERE location >= $1 AND location < $2 "
    "AND NOT (realm = $3 AND catalog = $4 AND owner_kind = $5 AND ns_key = $6 AND name = $7) "
    "LIMIT 1";
// Objects a catalog hosts (moved to another catalog, files still here) sit inside it freely.
inline constexpr std::string_view kLocationInsideOtherCatalog =
    "SELECT location, realm, catalog, owner_kind, ns_key, name, host_catalog "
    "FROM object_locations WHERE location >= $1 AND location < $2 "
    "AND NOT (realm = $3 AND catalog = $4) AND NOT (realm = $3 AND host_catalog = $4) LIMIT 1";
inline constexpr std::string_view kListLocations =
    "SELECT location, realm, catalog, owner_kind, ns_key, name, host_catalog "
    "FROM object_locations "
    "ORDER BY location, realm, catalog, owner_kind, ns_key, name";
// "SELECT … WHERE location IN ($1, …, $n)": the claims at any of n exact locations (a location
// and its ancestors). n is 1..kMaxLocationDepth + 1.
std::string_view LocationsAtStatement(size_t n);
// PostgreSQL only (Session::HasRowLocks): transaction-scoped advisory locks on a location's hash
// (1179210318 is "FIRN"). A claim locks its own locations exclusively and their ancestors shared,
// so two overlapping claims always meet on one lock, whichever instance makes them.
inline constexpr std::string_view kLockLocation =
    "SELECT pg_advisory_xact_lock(1179210318, $1)";
inline constexpr std::string_view kLockLocationShared =
    "SELECT pg_advisory_xact_lock_shared(1179210318, $1)";

// PostgreSQL only (Session::HasRowLocks): fresh planner statistics for the location index.
inline constexpr std::string_view kAnalyzeLocations = "ANALYZE object_locations";

// ---- settings ---------------------------------------------------------------------------------

inline constexpr std::string_view kLoadSetting = "SELECT value FROM store_settings WHERE name = $1";
inline constexpr std::string_view kSaveSetting =
    "INSERT INTO store_settings (name, value) VALUES ($1, $2) "
    "ON CONFLICT (name) DO UPDATE SET value = excluded.value";
inline constexpr std::string_view kInsertSettingIfAbsent =
    "INSERT INTO store_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING";

// ---- tasks (store/task_store.h) ---------------------------------------------------------------

inline constexpr std::string_view kInsertTask =
    "INSERT INTO tasks (id, kind, realm, catalog, object, payload, state, attempts, "
    "not_before_ms, lease_owner, lease_until_ms, progress, last_error, created_ms, updated_ms) "
    "VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, $7, '', 0, '', '', $8, $8) "
    "ON CONFLICT (id) DO NOTHING";
// The claimable condition is repeated outside the subquery: under PostgreSQL's READ COMMITTED
// a second claimer of the same row waits for the first, then re-checks it and matches nothing.
inline constexpr std::string_view kClaimDueTask =
    "UPDATE tasks SET state = 'running', lease_owner = $1, lease_until_ms = $3, "
    "attempts = attempts + 1, updated_ms = $2 "
    "WHERE id = (SELECT id FROM tasks WHERE (state = 'pending' AND not_before_ms <= $2) "
    "OR (state = 'running' AND lease_until_ms < $2) ORDER BY not_before_ms, id LIMIT 1) "
    "AND ((state = 'pending' AND not_before_ms <= $2) OR "
    "(state = 'running' AND lease_until_ms < $2)) "
    "RETURNING id, kind, realm, catalog, object, payload, state, attempts, not_before_ms, "
    "lease_owner, lease_until_ms, progress, last_error, created_ms, updated_ms";
inline constexpr std::string_view kClaimTaskById =
    "UPDATE tasks SET state = 'running', lease_owner = $1, lease_until_ms = $3, "
    "attempts = attempts + 1, updated_ms = $2 "
    "WHERE id = $4 AND (state = 'pending' OR (state = 'running' AND lease_until_ms < $2)) "
    "RETURNING id, kind, realm, catalog, object, payload, state, attempts, not_before_ms, "
    "lease_owner, lease_until_ms, progress, last_error, created_ms, updated_ms";
inline constexpr std::string_view kRenewTask =
    "UPDATE tasks SET lease_until_ms = $3, progress = $4, updated_ms = $5 "
    "WHERE id = $1 AND lease_owner = $2 AND state = 'running'";
// A task put back as pending without an error stopped early (a budget, a shutdown): that
// claim does not count as an attempt.
inline constexpr std::string_view kFinishTask =
    "UPDATE tasks SET state = $3, not_before_ms = $4, progress = $5, last_error = $6, "
    "lease_owner = '', lease_until_ms = 0, updated_ms = $7, "
    "attempts = attempts - (CASE WHEN $3 = 'pending' AND $6 = '' THEN 1 ELSE 0 END) "
    "WHERE id = $1 AND lease_owner = $2 AND state = 'running'";
inline constexpr std::string_view kListTasks =
    "SELECT id, kind, realm, catalog, object, payload, state, attempts, not_before_ms, "
    "lease_owner, lease_until_ms, progress, last_error, created_ms, updated_ms FROM tasks "
    "WHERE ($1 = '' OR state = $1) AND ($2 = '' OR realm = $2) AND ($3 = '' OR kind = $3) "
    "ORDER BY created_ms DESC, id LIMIT $4";

// ---- change events and their sinks (store/event_store.h) ------------------------------------

#define FIRN_EVENT_COLUMNS                                                                  \
  "SELECT id, at_ms, realm, catalog, principal, client, request_id, operation, object, "    \
  "old_location, new_location, outcome, detail, txn FROM audit_log WHERE realm = $1 AND "   \
  "outcome = 'success' AND ($2 = '' OR catalog = $2) AND (txn > $3 OR (txn = $3 AND id > $4)) "
// One write transaction at a time (SQLite): every row a reader sees is final.
inline constexpr std::string_view kListEvents = FIRN_EVENT_COLUMNS "ORDER BY txn, id LIMIT $5";
// Concurrent writers (PostgreSQL): only rows of transactions older than every transaction that
// was still running when the statement's snapshot was taken, so no row can later appear below
// the cursor. A running transaction known to belong to another database of the cluster cannot
// write here and is left out (the snapshot's xmin alone is cluster-wide: a long writer in any
// database would hold the feed back); one whose database cannot be seen, or that ended since
// the snapshot, counts. xids compare on their low 32 bits (pg_stat_activity's backend_xid).
#define FIRN_ENDED_TRANSACTIONS                                                             \
  "txn < COALESCE((SELECT min(x::text::bigint) "                                            \
  "FROM pg_snapshot_xip(pg_current_snapshot()) AS x "                                       \
  "WHERE (x::text::bigint % 4294967296) NOT IN (SELECT backend_xid::text::bigint "          \
  "FROM pg_stat_activity WHERE backend_xid IS NOT NULL "                                    \
  "AND datname IS DISTINCT FROM current_database())), "                                     \
  "pg_snapshot_xmax(pg_current_snapshot())::text::bigint) "
inline constexpr std::string_view kListEndedEvents =
    FIRN_EVENT_COLUMNS "AND " FIRN_ENDED_TRANSACTIONS "ORDER BY txn, id LIMIT $5";
#undef FIRN_EVENT_COLUMNS
inline constexpr std::string_view kLatestEvent =
    "SELECT txn, id FROM audit_log WHERE realm = $1 AND outcome = 'success' "
    "ORDER BY txn DESC, id DESC LIMIT 1";
inline constexpr std::string_view kLatestEndedEvent =
    "SELECT txn, id FROM audit_log WHERE realm = $1 AND outcome = 'success' AND "
    FIRN_ENDED_TRANSACTIONS "ORDER BY txn DESC, id DESC LIMIT 1";
#undef FIRN_ENDED_TRANSACTIONS

#define FIRN_SINK_COLUMNS                                                                   \
  "realm, name, url, secret, catalog, operations, created_ms, after_txn, after_id, "        \
  "delivered, failures, last_error, last_attempt_ms, last_success_ms, next_attempt_ms, "    \
  "lease_owner, lease_until_ms"
inline constexpr std::string_view kInsertEventSink =
    "INSERT INTO event_sinks (" FIRN_SINK_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, "
    "$9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT (realm, name) DO NOTHING";
inline constexpr std::string_view kListEventSinks =
    "SELECT " FIRN_SINK_COLUMNS " FROM event_sinks WHERE ($1 = '' OR realm = $1) "
    "ORDER BY realm, name";
inline constexpr std::string_view kReplaceSinkSecret =
    "UPDATE event_sinks SET secret = $4 WHERE realm = $1 AND name = $2 AND secret = $3";
inline constexpr std::string_view kDeleteEventSink =
    "DELETE FROM event_sinks WHERE realm = $1 AND name = $2";
inline constexpr std::string_view kClaimEventSink =
    "UPDATE event_sinks SET lease_owner = $1, lease_until_ms = $3 "
    "WHERE realm = $4 AND name = $5 AND next_attempt_ms <= $2 AND lease_until_ms < $2 "
    "RETURNING " FIRN_SINK_COLUMNS;
#undef FIRN_SINK_COLUMNS
inline constexpr std::string_view kFinishEventSink =
    "UPDATE event_sinks SET after_txn = $4, after_id = $5, delivered = delivered + $6, "
    "failures = $7, last_error = $8, last_attempt_ms = $9, "
    "last_success_ms = $10, next_attempt_ms = $11, lease_owner = '', lease_until_ms = 0 "
    "WHERE realm = $1 AND name = $2 AND lease_owner = $3";

}  // namespace firn::store::sql
