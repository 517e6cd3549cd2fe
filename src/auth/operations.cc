#include "auth/operations.h"

namespace firn::auth {
namespace {

using A = Api;
using O = Operation;
using P = Privilege;
using T = AuthzTarget;

constexpr OperationRule kRules[] = {
    // --- Iceberg REST catalog API
    {O::kGetConfig, A::kIcebergRest, "getConfig", "", T::kNone, {}, T::kNone, {},
     "(authenticated; catalog must exist)"},
    {O::kGetToken, A::kIcebergRest, "getToken", "", T::kNone, {}, T::kNone, {},
     "(token endpoint; client credentials)"},
    {O::kListNamespaces, A::kIcebergRest, "listNamespaces", "", T::kParentNamespace,
     {P::kNAMESPACE_LIST}, T::kNone, {}, "LIST_NAMESPACES"},
    {O::kCreateNamespace, A::kIcebergRest, "createNamespace", "", T::kParentNamespace,
     {P::kNAMESPACE_CREATE}, T::kNone, {}, "CREATE_NAMESPACE"},
    {O::kLoadNamespaceMetadata, A::kIcebergRest, "loadNamespaceMetadata", "", T::kNamespace,
     {P::kNAMESPACE_READ_PROPERTIES}, T::kNone, {}, "LOAD_NAMESPACE_METADATA"},
    {O::kNamespaceExists, A::kIcebergRest, "namespaceExists", "", T::kNamespace,
     {P::kNAMESPACE_LIST}, T::kNone, {}, "NAMESPACE_EXISTS"},
    {O::kDropNamespace, A::kIcebergRest, "dropNamespace", "", T::kNamespace,
     {P::kNAMESPACE_DROP}, T::kNone, {}, "DROP_NAMESPACE"},
    {O::kUpdateProperties, A::kIcebergRest, "updateProperties", "", T::kNamespace,
     {P::kNAMESPACE_WRITE_PROPERTIES}, T::kNone, {}, "UPDATE_NAMESPACE_PROPERTIES"},
    {O::kListTables, A::kIcebergRest, "listTables", "", T::kNamespace, {P::kTABLE_LIST},
     T::kNone, {}, "LIST_TABLES"},
    {O::kCreateTable, A::kIcebergRest, "createTable", "", T::kParentNamespace,
     {P::kTABLE_CREATE}, T::kNone, {}, "CREATE_TABLE_DIRECT"},
    {O::kCreateTableVended, A::kIcebergRest, "createTable", "vended-credentials",
     T::kParentNamespace, {P::kTABLE_CREATE, P::kTABLE_WRITE_DATA}, T::kNone, {},
     "CREATE_TABLE_DIRECT_WITH_WRITE_DELEGATION"},
    {O::kCreateTableStaged, A::kIcebergRest, "createTable", "staged", T::kParentNamespace,
     {P::kTABLE_CREATE}, T::kNone, {}, "CREATE_TABLE_STAGED"},
    {O::kCreateTableStagedVended, A::kIcebergRest, "createTable", "staged+vended-credentials",
     T::kParentNamespace, {P::kTABLE_CREATE, P::kTABLE_WRITE_DATA}, T::kNone, {},
     "CREATE_TABLE_STAGED_WITH_WRITE_DELEGATION"},
    {O::kRegisterTable, A::kIcebergRest, "registerTable", "", T::kParentNamespace,
     {P::kTABLE_CREATE}, T::kNone, {}, "REGISTER_TABLE"},
    {O::kLoadTable, A::kIcebergRest, "loadTable", "", T::kTable, {P::kTABLE_READ_PROPERTIES},
     T::kNone, {}, "LOAD_TABLE"},
    // Polaris first tries write delegation (TABLE_WRITE_DATA) and falls back to read; the
    // floor is TABLE_READ_DATA and the caller vends write credentials only if it also holds
    // TABLE_WRITE_DATA.
    {O::kLoadTableVended, A::kIcebergRest, "loadTable", "vended-credentials", T::kTable,
     {P::kTABLE_READ_DATA}, T::kNone, {}, "LOAD_TABLE_WITH_READ_DELEGATION"},
    {O::kLoadCredentials, A::kIcebergRest, "loadCredentials", "", T::kTable,
     {P::kTABLE_READ_DATA}, T::kNone, {}, "LOAD_TABLE_WITH_READ_DELEGATION"},
    // The rule's set is the floor; a commit checks the fine-grained set of its updates
    // (catalog/authorization.h UpdatePrivileges) instead.
    {O::kUpdateTable, A::kIcebergRest, "updateTable", "", T::kTable,
     {P::kTABLE_WRITE_PROPERTIES}, T::kNone, {}, "UPDATE_TABLE (fine-grained per update)"},
    {O::kUpdateTableStagedCreate, A::kIcebergRest, "updateTable", "staged-create",
     T::kParentNamespace, {P::kTABLE_CREATE}, T::kNone, {}, "UPDATE_TABLE_FOR_STAGED_CREATE"},
    {O::kDropTable, A::kIcebergRest, "dropTable", "", T::kTable, {P::kTABLE_DROP}, T::kNone, {},
     "DROP_TABLE_WITHOUT_PURGE"},
    {O::kDropTablePurge, A::kIcebergRest, "dropTable", "purge", T::kTable,
     {P::kTABLE_DROP, P::kTABLE_WRITE_DATA}, T::kNone, {}, "DROP_TABLE_WITH_PURGE",
     "dropTable(purge)"},
    {O::kTableExists, A::kIcebergRest, "tableExists", "", T::kTable, {P::kTABLE_LIST},
     T::kNone, {}, "TABLE_EXISTS"},
    {O::kRenameTable, A::kIcebergRest, "renameTable", "", T::kTable, {P::kTABLE_DROP},
     T::kParentNamespace, {P::kTABLE_LIST, P::kTABLE_CREATE}, "RENAME_TABLE"},
    {O::kReportMetrics, A::kIcebergRest, "reportMetrics", "", T::kTable, {P::kTABLE_READ_DATA},
     T::kNone, {}, "REPORT_READ_METRICS"},
    {O::kReportCommitMetrics, A::kIcebergRest, "reportMetrics", "commit-report", T::kTable,
     {P::kTABLE_WRITE_DATA}, T::kNone, {}, "REPORT_WRITE_METRICS"},
    // Applied per table in the transaction; fine-grained updates as for updateTable.
    {O::kCommitTransaction, A::kIcebergRest, "commitTransaction", "", T::kTable,
     {P::kTABLE_WRITE_PROPERTIES, P::kTABLE_CREATE}, T::kNone, {}, "COMMIT_TRANSACTION"},
    // Scan planning is absent from Polaris (#966); Firn treats it as reading data.
    {O::kPlanTableScan, A::kIcebergRest, "planTableScan", "", T::kTable, {P::kTABLE_READ_DATA},
     T::kNone, {}, "(Firn)"},
    {O::kFetchPlanningResult, A::kIcebergRest, "fetchPlanningResult", "", T::kTable,
     {P::kTABLE_READ_DATA}, T::kNone, {}, "(Firn)"},
    {O::kCancelPlanning, A::kIcebergRest, "cancelPlanning", "", T::kTable,
     {P::kTABLE_READ_DATA}, T::kNone, {}, "(Firn)"},
    {O::kFetchScanTasks, A::kIcebergRest, "fetchScanTasks", "", T::kTable,
     {P::kTABLE_READ_DATA}, T::kNone, {}, "(Firn)"},
    // Remote signing is absent from Polaris (#32); signing a request for a table's objects
    // is data access, so writes need TABLE_WRITE_DATA (Firn).
    {O::kSignRequest, A::kIcebergRest, "signRequest", "", T::kTable, {P::kTABLE_READ_DATA},
     T::kNone, {}, "(Firn)"},
    {O::kSignWriteRequest, A::kIcebergRest, "signRequest", "write", T::kTable,
     {P::kTABLE_WRITE_DATA}, T::kNone, {}, "(Firn)"},
    {O::kListViews, A::kIcebergRest, "listViews", "", T::kNamespace, {P::kVIEW_LIST}, T::kNone,
     {}, "LIST_VIEWS"},
    {O::kCreateView, A::kIcebergRest, "createView", "", T::kParentNamespace, {P::kVIEW_CREATE},
     T::kNone, {}, "CREATE_VIEW"},
    {O::kRegisterView, A::kIcebergRest, "registerView", "", T::kParentNamespace,
     {P::kVIEW_CREATE}, T::kNone, {}, "REGISTER_VIEW"},
    {O::kLoadView, A::kIcebergRest, "loadView", "", T::kView, {P::kVIEW_READ_PROPERTIES},
     T::kNone, {}, "LOAD_VIEW"},
    {O::kReplaceView, A::kIcebergRest, "replaceView", "", T::kView, {P::kVIEW_WRITE_PROPERTIES},
     T::kNone, {}, "REPLACE_VIEW"},
    {O::kDropView, A::kIcebergRest, "dropView", "", T::kView, {P::kVIEW_DROP}, T::kNone, {},
     "DROP_VIEW"},
    {O::kViewExists, A::kIcebergRest, "viewExists", "", T::kView, {P::kVIEW_LIST}, T::kNone, {},
     "VIEW_EXISTS"},
    {O::kRenameView, A::kIcebergRest, "renameView", "", T::kView, {P::kVIEW_DROP},
     T::kParentNamespace, {P::kVIEW_LIST, P::kVIEW_CREATE}, "RENAME_VIEW"},

    // --- Polaris management API ("service" = kRoot). Grants: <TYPE>_MANAGE_GRANTS_ON_SECURABLE
    // on the securable the grant is on; CATALOG_MANAGE_ACCESS on the catalog satisfies all four.
    // listCatalogs shows everything with this row's privilege, else the catalogs the caller
    // holds CATALOG_LIST-satisfying privileges or a role in (management_service_catalogs.cc).
    {O::kListCatalogs, A::kManagement, "listCatalogs", "", T::kRoot, {P::kCATALOG_LIST}},
    {O::kCreateCatalog, A::kManagement, "createCatalog", "", T::kRoot, {P::kCATALOG_CREATE}},
    {O::kGetCatalog, A::kManagement, "getCatalog", "", T::kCatalog,
     {P::kCATALOG_READ_PROPERTIES}},
    {O::kUpdateCatalog, A::kManagement, "updateCatalog", "", T::kCatalog,
     {P::kCATALOG_WRITE_PROPERTIES}},
    // An update that moves the catalog's base or allowed locations (Firn): where data may go
    // is the service's to decide, so a catalog's own managers cannot widen it.
    {O::kUpdateCatalogStorage, A::kManagement, "updateCatalog", "storage", T::kRoot,
     {P::kSERVICE_MANAGE_ACCESS}},
    {O::kDeleteCatalog, A::kManagement, "deleteCatalog", "", T::kCatalog, {P::kCATALOG_DROP}},
    {O::kListPrincipals, A::kManagement, "listPrincipals", "", T::kRoot, {P::kPRINCIPAL_LIST}},
    {O::kCreatePrincipal, A::kManagement, "createPrincipal", "", T::kRoot,
     {P::kPRINCIPAL_CREATE}},
    {O::kGetPrincipal, A::kManagement, "getPrincipal", "", T::kRoot,
     {P::kPRINCIPAL_READ_PROPERTIES}},
    {O::kUpdatePrincipal, A::kManagement, "updatePrincipal", "", T::kRoot,
     {P::kPRINCIPAL_WRITE_PROPERTIES}},
    {O::kDeletePrincipal, A::kManagement, "deletePrincipal", "", T::kRoot,
     {P::kPRINCIPAL_DROP}},
    // The principal itself, or SERVICE_MANAGE_ACCESS, also may (management_service_principals).
    {O::kRotateCredentials, A::kManagement, "rotateCredentials", "", T::kRoot,
     {P::kPRINCIPAL_ROTATE_CREDENTIALS}},
    {O::kResetCredentials, A::kManagement, "resetCredentials", "", T::kRoot,
     {P::kPRINCIPAL_RESET_CREDENTIALS}},
    {O::kListPrincipalRolesAssigned, A::kManagement, "listPrincipalRolesAssigned", "", T::kRoot,
     {P::kPRINCIPAL_LIST_GRANTS}},
    {O::kAssignPrincipalRole, A::kManagement, "assignPrincipalRole", "", T::kRoot,
     {P::kPRINCIPAL_ROLE_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kRevokePrincipalRole, A::kManagement, "revokePrincipalRole", "", T::kRoot,
     {P::kPRINCIPAL_ROLE_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kListPrincipalRoles, A::kManagement, "listPrincipalRoles", "", T::kRoot,
     {P::kPRINCIPAL_ROLE_LIST}},
    {O::kCreatePrincipalRole, A::kManagement, "createPrincipalRole", "", T::kRoot,
     {P::kPRINCIPAL_ROLE_CREATE}},
    {O::kGetPrincipalRole, A::kManagement, "getPrincipalRole", "", T::kRoot,
     {P::kPRINCIPAL_ROLE_READ_PROPERTIES}},
    {O::kUpdatePrincipalRole, A::kManagement, "updatePrincipalRole", "", T::kRoot,
     {P::kPRINCIPAL_ROLE_WRITE_PROPERTIES}},
    {O::kDeletePrincipalRole, A::kManagement, "deletePrincipalRole", "", T::kRoot,
     {P::kPRINCIPAL_ROLE_DROP}},
    {O::kListAssigneePrincipalsForPrincipalRole, A::kManagement,
     "listAssigneePrincipalsForPrincipalRole", "", T::kRoot, {P::kPRINCIPAL_ROLE_LIST_GRANTS}},
    {O::kListCatalogRolesForPrincipalRole, A::kManagement, "listCatalogRolesForPrincipalRole",
     "", T::kRoot, {P::kPRINCIPAL_ROLE_LIST_GRANTS}},
    {O::kAssignCatalogRoleToPrincipalRole, A::kManagement, "assignCatalogRoleToPrincipalRole",
     "", T::kCatalog, {P::kCATALOG_ROLE_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kRevokeCatalogRoleFromPrincipalRole, A::kManagement,
     "revokeCatalogRoleFromPrincipalRole", "", T::kCatalog,
     {P::kCATALOG_ROLE_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kListCatalogRoles, A::kManagement, "listCatalogRoles", "", T::kCatalog,
     {P::kCATALOG_ROLE_LIST}},
    {O::kCreateCatalogRole, A::kManagement, "createCatalogRole", "", T::kCatalog,
     {P::kCATALOG_ROLE_CREATE}},
    {O::kGetCatalogRole, A::kManagement, "getCatalogRole", "", T::kCatalog,
     {P::kCATALOG_ROLE_READ_PROPERTIES}},
    {O::kUpdateCatalogRole, A::kManagement, "updateCatalogRole", "", T::kCatalog,
     {P::kCATALOG_ROLE_WRITE_PROPERTIES}},
    {O::kDeleteCatalogRole, A::kManagement, "deleteCatalogRole", "", T::kCatalog,
     {P::kCATALOG_ROLE_DROP}},
    {O::kListAssigneePrincipalRolesForCatalogRole, A::kManagement,
     "listAssigneePrincipalRolesForCatalogRole", "", T::kCatalog,
     {P::kCATALOG_ROLE_LIST_GRANTS}},
    {O::kListGrantsForCatalogRole, A::kManagement, "listGrantsForCatalogRole", "", T::kCatalog,
     {P::kCATALOG_ROLE_LIST_GRANTS}},
    {O::kAddGrantOnCatalog, A::kManagement, "addGrantToCatalogRole", "catalog", T::kCatalog,
     {P::kCATALOG_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kAddGrantOnNamespace, A::kManagement, "addGrantToCatalogRole", "namespace",
     T::kNamespace, {P::kNAMESPACE_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kAddGrantOnTable, A::kManagement, "addGrantToCatalogRole", "table", T::kTable,
     {P::kTABLE_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kAddGrantOnView, A::kManagement, "addGrantToCatalogRole", "view", T::kView,
     {P::kVIEW_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kRevokeGrantOnCatalog, A::kManagement, "revokeGrantFromCatalogRole", "catalog",
     T::kCatalog, {P::kCATALOG_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kRevokeGrantOnNamespace, A::kManagement, "revokeGrantFromCatalogRole", "namespace",
     T::kNamespace, {P::kNAMESPACE_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kRevokeGrantOnTable, A::kManagement, "revokeGrantFromCatalogRole", "table", T::kTable,
     {P::kTABLE_MANAGE_GRANTS_ON_SECURABLE}},
    {O::kRevokeGrantOnView, A::kManagement, "revokeGrantFromCatalogRole", "view", T::kView,
     {P::kVIEW_MANAGE_GRANTS_ON_SECURABLE}},
    // Firn's audit listing (GET /api/management/v1/audit).
    {O::kListAuditEntries, A::kManagement, "listAuditEntries", "", T::kRoot,
     {P::kSERVICE_MANAGE_ACCESS}, T::kNone, {}, "(Firn)"},
    // Firn's durable tasks (GET /api/management/v1/tasks): purges and maintenance.
    {O::kListTasks, A::kManagement, "listTasks", "", T::kRoot, {P::kSERVICE_MANAGE_ACCESS},
     T::kNone, {}, "(Firn)"},
    // Firn's soft delete: dropped tables and views of a catalog, kept for its retention. The
    // securable is the catalog (the namespace rule at the catalog's root).
    {O::kListDroppedObjects, A::kManagement, "listDroppedObjects", "", T::kNamespace,
     {P::kCATALOG_MANAGE_CONTENT}, T::kNone, {}, "(Firn)"},
    {O::kUndropObject, A::kManagement, "undropObject", "", T::kNamespace,
     {P::kCATALOG_MANAGE_CONTENT}, T::kNone, {}, "(Firn)"},
    {O::kExpungeDroppedObject, A::kManagement, "expungeDroppedObject", "", T::kNamespace,
     {P::kCATALOG_MANAGE_CONTENT}, T::kNone, {}, "(Firn)"},
    // Firn's maintenance of one table: it rewrites metadata and deletes files.
    {O::kMaintainTable, A::kManagement, "maintainTable", "", T::kTable,
     {P::kTABLE_FULL_METADATA, P::kTABLE_WRITE_DATA}, T::kNone, {}, "(Firn)"},
    // Firn's moves: giving a table to another catalog is a drop in slow motion.
    {O::kMoveTableOut, A::kManagement, "moveTableOut", "", T::kTable,
     {P::kTABLE_DROP, P::kTABLE_FULL_METADATA}, T::kNone, {}, "(Firn)"},
    {O::kCancelTableMove, A::kManagement, "cancelTableMove", "", T::kTable,
     {P::kTABLE_DROP, P::kTABLE_FULL_METADATA}, T::kNone, {}, "(Firn)"},
    // Firn's move to another catalog of the deployment: it takes an object out of one
    // catalog's care and hands its files to another's, so it is checked on both catalogs.
    {O::kMoveTable, A::kManagement, "moveTable", "", T::kNamespace,
     {P::kCATALOG_MANAGE_CONTENT}, T::kNone, {}, "(Firn)"},
    {O::kMoveView, A::kManagement, "moveView", "", T::kNamespace,
     {P::kCATALOG_MANAGE_CONTENT}, T::kNone, {}, "(Firn)"},
    // Firn's stored metrics reports: what the table's readers posted (scan filters, file
    // counts), so the privilege that lets one post a scan report and read the data.
    {O::kListMetricsReports, A::kManagement, "listMetricsReports", "", T::kTable,
     {P::kTABLE_READ_DATA}, T::kNone, {}, "(Firn)"},
    // Firn's change events: every change of the realm with who made it, as the audit trail
    // shows them, so the audit trail's privilege; a webhook sends them out of the deployment.
    {O::kListEvents, A::kManagement, "listEvents", "", T::kRoot, {P::kSERVICE_MANAGE_ACCESS},
     T::kNone, {}, "(Firn)"},
    {O::kCreateEventSink, A::kManagement, "createEventSink", "", T::kRoot,
     {P::kSERVICE_MANAGE_ACCESS}, T::kNone, {}, "(Firn)"},
    {O::kListEventSinks, A::kManagement, "listEventSinks", "", T::kRoot,
     {P::kSERVICE_MANAGE_ACCESS}, T::kNone, {}, "(Firn)"},
    {O::kGetEventSink, A::kManagement, "getEventSink", "", T::kRoot,
     {P::kSERVICE_MANAGE_ACCESS}, T::kNone, {}, "(Firn)"},
    {O::kDeleteEventSink, A::kManagement, "deleteEventSink", "", T::kRoot,
     {P::kSERVICE_MANAGE_ACCESS}, T::kNone, {}, "(Firn)"},
};

// One row per enumerator, at the enumerator's index: RuleOf is an array index, and an
// operation added to the enum without its row (or a row out of place) does not compile.
constexpr bool RowsInEnumeratorOrder() {
  for (size_t i = 0; i < std::size(kRules); ++i) {
    if (static_cast<size_t>(kRules[i].op) != i) return false;
  }
  return true;
}
static_assert(std::size(kRules) == kOperationCount,
              "every auth::Operation needs exactly one row in kRules");
static_assert(RowsInEnumeratorOrder(), "kRules rows must follow auth::Operation's order");

// Each (operationId, variant) names one enumerator, and every row has some text to audit.
constexpr bool RowsDistinctAndNamed() {
  for (size_t i = 0; i < std::size(kRules); ++i) {
    if (kRules[i].operation_id.empty()) return false;
    for (size_t j = i + 1; j < std::size(kRules); ++j) {
      if (kRules[i].operation_id == kRules[j].operation_id &&
          kRules[i].variant == kRules[j].variant) {
        return false;
      }
    }
  }
  return true;
}
static_assert(RowsDistinctAndNamed(), "an (operationId, variant) pair appears twice in kRules");

}  // namespace

std::span<const OperationRule> OperationRules() { return kRules; }

const OperationRule& RuleOf(Operation op) { return kRules[static_cast<size_t>(op)]; }

std::string_view AuditName(Operation op) {
  const OperationRule& rule = RuleOf(op);
  return rule.audit_name.empty() ? rule.operation_id : rule.audit_name;
}

std::optional<Operation> FindOperation(std::string_view operation_id, std::string_view variant) {
  for (const auto& r : kRules) {
    if (r.operation_id == operation_id && r.variant == variant) return r.op;
  }
  return std::nullopt;
}

PrivilegeSet UpdateTablePrivileges(std::span<const Privilege> per_update) {
  PrivilegeSet out;
  for (Privilege p : per_update) out.Add(p);
  if (out.empty()) out.Add(P::kTABLE_WRITE_PROPERTIES);
  return out;
}

}  // namespace firn::auth
