// Every operation Firn authorises and audits, as one enum with one table of rules (following
// Polaris's PolarisAuthorizableOperation / RbacOperationSemantics and IcebergCatalogHandler).
//
// Contract: immutable constexpr data; thread-safe. One enumerator per (operationId, variant):
// a variant is what changes the requirement — "vended-credentials" (X-Iceberg-Access-Delegation
// present), "purge" (dropTable purgeRequested), "staged" (createTable stage-create),
// "staged-create" (a commit with assert-create), "commit-report" (reportMetrics body), "write"
// (signRequest of a write), "storage" (updateCatalog moving storage), and the securable type of
// a management grant. The table has exactly one row per enumerator, in enumerator order; a
// missing, extra or misplaced row does not compile (static_assert in operations.cc). Callers
// name operations by enumerator, so a misspelt operation does not compile either; the texts
// (operationId, audit name) come only from the table.
// Every table update action (metadata::TableUpdate's `kAction`) has a row in
// kUpdateActionPrivileges; catalog/authorization.cc resolves each alternative's row at compile
// time, so a new update type without a row does not compile (no fallback privilege).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "auth/privilege.h"

namespace firn::auth {

enum class Operation : uint8_t {
  // Iceberg REST catalog API (rest-catalog-open-api 1.11.0).
  kGetConfig,
  kGetToken,
  kListNamespaces,
  kCreateNamespace,
  kLoadNamespaceMetadata,
  kNamespaceExists,
  kDropNamespace,
  kUpdateProperties,
  kListTables,
  kCreateTable,
  kCreateTableVended,
  kCreateTableStaged,
  kCreateTableStagedVended,
  kRegisterTable,
  kLoadTable,
  kLoadTableVended,
  kLoadCredentials,
  kUpdateTable,
  kUpdateTableStagedCreate,
  kDropTable,
  kDropTablePurge,
  kTableExists,
  kRenameTable,
  kReportMetrics,
  kReportCommitMetrics,
  kCommitTransaction,
  kPlanTableScan,
  kFetchPlanningResult,
  kCancelPlanning,
  kFetchScanTasks,
  kSignRequest,
  kSignWriteRequest,
  kListViews,
  kCreateView,
  kRegisterView,
  kLoadView,
  kReplaceView,
  kDropView,
  kViewExists,
  kRenameView,
  // Polaris management API (polaris-management-service.yml), plus Firn's audit listing.
  kListCatalogs,
  kCreateCatalog,
  kGetCatalog,
  kUpdateCatalog,
  kUpdateCatalogStorage,
  kDeleteCatalog,
  kListPrincipals,
  kCreatePrincipal,
  kGetPrincipal,
  kUpdatePrincipal,
  kDeletePrincipal,
  kRotateCredentials,
  kResetCredentials,
  kListPrincipalRolesAssigned,
  kAssignPrincipalRole,
  kRevokePrincipalRole,
  kListPrincipalRoles,
  kCreatePrincipalRole,
  kGetPrincipalRole,
  kUpdatePrincipalRole,
  kDeletePrincipalRole,
  kListAssigneePrincipalsForPrincipalRole,
  kListCatalogRolesForPrincipalRole,
  kAssignCatalogRoleToPrincipalRole,
  kRevokeCatalogRoleFromPrincipalRole,
  kListCatalogRoles,
  kCreateCatalogRole,
  kGetCatalogRole,
  kUpdateCatalogRole,
  kDeleteCatalogRole,
  kListAssigneePrincipalRolesForCatalogRole,
  kListGrantsForCatalogRole,
  kAddGrantOnCatalog,
  kAddGrantOnNamespace,
  kAddGrantOnTable,
  kAddGrantOnView,
  kRevokeGrantOnCatalog,
  kRevokeGrantOnNamespace,
  kRevokeGrantOnTable,
  kRevokeGrantOnView,
  kListAuditEntries,
  kListTasks,
  // Firn's soft delete (/api/management/v1/catalogs/{catalog}/dropped-objects).
  kListDroppedObjects,
  kUndropObject,
  kExpungeDroppedObject,
  // Firn's catalog-side maintenance (POST …/dropped-objects' sibling …/maintenance).
  kMaintainTable,
  // Firn's register-then-release moves (…/tables/{table}/move-out).
  kMoveTableOut,
  kCancelTableMove,
  // Firn's move of a table or view to another catalog of the deployment (…/{table}/move).
  kMoveTable,
  kMoveView,
  // Firn's stored metrics reports of one table (…/tables/{table}/metrics-reports).
  kListMetricsReports,
  // Firn's change events (/api/management/v1/events) and their webhooks (…/event-sinks).
  kListEvents,
  kCreateEventSink,
  kListEventSinks,
  kGetEventSink,
  kDeleteEventSink,
};

inline constexpr int kOperationCount = static_cast<int>(Operation::kDeleteEventSink) + 1;

// Which API serves the operation.
enum class Api { kIcebergRest, kManagement };

// Which securable the privileges are checked on.
enum class AuthzTarget {
  kNone,             // authentication only (getConfig, getToken)
  kParentNamespace,  // the namespace that will contain the new/listed entity (catalog at top)
  kNamespace,        // the namespace itself
  kTable,
  kView,
  kRoot,     // management: the realm's root container ("service")
  kCatalog,  // management: the catalog the request names
};

struct OperationRule {
  Operation op;
  Api api;
  std::string_view operation_id;  // the spec's operationId
  std::string_view variant;       // "" is the plain request
  AuthzTarget target;
  PrivilegeSet on_target;
  // Rename: privileges on the destination's parent namespace.
  AuthzTarget secondary = AuthzTarget::kNone;
  PrivilegeSet on_secondary = {};
  std::string_view polaris_operation = {};  // the Polaris operation this row follows
  // The audit row's `operation` when it is not operation_id ("dropTable(purge)").
  std::string_view audit_name = {};
};

// Every row, in enumerator order.
std::span<const OperationRule> OperationRules();
const OperationRule& RuleOf(Operation op);
// The text `firn admin audit --operation` filters on; byte-identical across releases.
std::string_view AuditName(Operation op);
// The enumerator of a spec (operationId, variant); nullopt when Firn has none.
std::optional<Operation> FindOperation(std::string_view operation_id,
                                       std::string_view variant = "");

// Table update actions (rest-catalog-open-api TableUpdate `action`) → Polaris's fine-grained
// privileges (IcebergCatalogHandler's updateTable mapping). Where Polaris has no finer
// privilege the row says TABLE_WRITE_PROPERTIES, on purpose and in the table.
struct UpdateActionPrivilege {
  std::string_view action;
  Privilege privilege;
};

inline constexpr UpdateActionPrivilege kUpdateActionPrivileges[] = {
    {"assign-uuid", Privilege::kTABLE_ASSIGN_UUID},
    {"upgrade-format-version", Privilege::kTABLE_UPGRADE_FORMAT_VERSION},
    {"add-schema", Privilege::kTABLE_ADD_SCHEMA},
    {"set-current-schema", Privilege::kTABLE_SET_CURRENT_SCHEMA},
    {"add-spec", Privilege::kTABLE_ADD_PARTITION_SPEC},
    {"set-default-spec", Privilege::kTABLE_WRITE_PROPERTIES},  // no finer privilege in Polaris
    {"add-sort-order", Privilege::kTABLE_ADD_SORT_ORDER},
    {"set-default-sort-order", Privilege::kTABLE_SET_DEFAULT_SORT_ORDER},
    {"add-snapshot", Privilege::kTABLE_ADD_SNAPSHOT},
    {"set-snapshot-ref", Privilege::kTABLE_SET_SNAPSHOT_REF},
    {"remove-snapshots", Privilege::kTABLE_REMOVE_SNAPSHOTS},
    {"remove-snapshot-ref", Privilege::kTABLE_REMOVE_SNAPSHOT_REF},
    {"set-location", Privilege::kTABLE_SET_LOCATION},
    {"set-properties", Privilege::kTABLE_SET_PROPERTIES},
    {"remove-properties", Privilege::kTABLE_REMOVE_PROPERTIES},
    {"set-statistics", Privilege::kTABLE_SET_STATISTICS},
    {"remove-statistics", Privilege::kTABLE_REMOVE_STATISTICS},
    {"remove-partition-specs", Privilege::kTABLE_REMOVE_PARTITION_SPECS},
    // Polaris maps these to UPDATE_TABLE (its default branch): TABLE_WRITE_PROPERTIES.
    {"set-partition-statistics", Privilege::kTABLE_WRITE_PROPERTIES},
    {"remove-partition-statistics", Privilege::kTABLE_WRITE_PROPERTIES},
    {"remove-schemas", Privilege::kTABLE_WRITE_PROPERTIES},
    {"add-encryption-key", Privilege::kTABLE_WRITE_PROPERTIES},
    {"remove-encryption-key", Privilege::kTABLE_WRITE_PROPERTIES},
};

// The row's privilege; nullopt for an action without a row.
constexpr std::optional<Privilege> FindUpdateActionPrivilege(std::string_view action) {
  for (const auto& row : kUpdateActionPrivileges) {
    if (row.action == action) return row.privilege;
  }
  return std::nullopt;
}

// For compile-time lookups: an action without a row is not a constant expression, so a
// constexpr variable initialised with it does not compile. (constexpr, not consteval: clang 16
// refuses a consteval call in a variable template's initialiser.)
constexpr Privilege UpdateActionPrivilegeOf(std::string_view action) {
  for (const auto& row : kUpdateActionPrivileges) {
    if (row.action == action) return row.privilege;
  }
  throw "table update action without a row in kUpdateActionPrivileges";
}

// What a change whose updates need `per_update` requires: their union; TABLE_WRITE_PROPERTIES
// for a change without updates (Polaris's UPDATE_TABLE).
PrivilegeSet UpdateTablePrivileges(std::span<const Privilege> per_update);

}  // namespace firn::auth
