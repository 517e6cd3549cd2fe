#include "auth/operations.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace firn::auth {
namespace {

using O = Operation;
using P = Privilege;
using T = AuthzTarget;

// Every operationId of rest-catalog-open-api 1.11.0.
constexpr std::string_view kSpecOperations[] = {
    "getConfig",     "getToken",        "listNamespaces",      "createNamespace",
    "loadNamespaceMetadata", "namespaceExists", "dropNamespace", "updateProperties",
    "listTables",    "createTable",     "planTableScan",       "fetchPlanningResult",
    "cancelPlanning", "fetchScanTasks", "registerTable",       "loadTable",
    "updateTable",   "dropTable",       "tableExists",         "loadCredentials",
    "signRequest",   "renameTable",     "reportMetrics",       "commitTransaction",
    "listViews",     "createView",      "loadView",            "replaceView",
    "dropView",      "viewExists",      "renameView",          "registerView"};

// Every operationId of polaris-management-service.yml, plus Firn's audit listing.
constexpr std::string_view kManagementOperations[] = {
    "listCatalogs", "createCatalog", "getCatalog", "updateCatalog", "deleteCatalog",
    "listPrincipals", "createPrincipal", "getPrincipal", "updatePrincipal", "deletePrincipal",
    "rotateCredentials", "resetCredentials", "listPrincipalRolesAssigned",
    "assignPrincipalRole", "revokePrincipalRole", "listPrincipalRoles", "createPrincipalRole",
    "getPrincipalRole", "updatePrincipalRole", "deletePrincipalRole",
    "listAssigneePrincipalsForPrincipalRole", "listCatalogRolesForPrincipalRole",
    "assignCatalogRoleToPrincipalRole", "revokeCatalogRoleFromPrincipalRole",
    "listCatalogRoles", "createCatalogRole", "getCatalogRole", "updateCatalogRole",
    "deleteCatalogRole", "listAssigneePrincipalRolesForCatalogRole",
    "listGrantsForCatalogRole", "addGrantToCatalogRole", "revokeGrantFromCatalogRole",
    "listAuditEntries", "listTasks",
    // Firn's catalog-side routes beside the management API, authorised by CatalogService.
    "listDroppedObjects", "undropObject", "expungeDroppedObject", "maintainTable",
    "moveTableOut", "cancelTableMove", "moveTable", "moveView", "listMetricsReports",
    "listEvents", "createEventSink", "listEventSinks", "getEventSink", "deleteEventSink"};
// Of those, the ones CatalogService checks on a catalog's own securables (the catalog's root
// namespace, a table) rather than ManagementService on the realm's entities.
constexpr std::string_view kCatalogSideManagementOperations[] = {
    "listDroppedObjects", "undropObject", "expungeDroppedObject", "maintainTable",
    "moveTableOut", "cancelTableMove", "moveTable", "moveView", "listMetricsReports"};

template <size_t N>
bool Contains(const std::string_view (&list)[N], std::string_view id) {
  return std::find(std::begin(list), std::end(list), id) != std::end(list);
}

std::vector<Operation> AllOperations() {
  std::vector<Operation> out;
  for (int i = 0; i < kOperationCount; ++i) out.push_back(static_cast<Operation>(i));
  return out;
}

// Some row (some variant) for every operation of each API.
bool HasRule(std::string_view id, Api api) {
  return std::ranges::any_of(OperationRules(), [&](const OperationRule& r) {
    return r.operation_id == id && r.api == api;
  });
}

TEST(OperationsTest, EverySpecOperationHasARule) {
  for (auto id : kSpecOperations) {
    EXPECT_TRUE(HasRule(id, Api::kIcebergRest)) << id;
    EXPECT_TRUE(FindOperation(id)) << id << " has no plain variant";
  }
  for (auto id : kManagementOperations) EXPECT_TRUE(HasRule(id, Api::kManagement)) << id;
}

TEST(OperationsTest, EveryRuleNamesAnOperationOfItsApi) {
  for (const auto& r : OperationRules()) {
    if (r.api == Api::kIcebergRest) {
      EXPECT_TRUE(Contains(kSpecOperations, r.operation_id)) << r.operation_id;
    } else {
      EXPECT_TRUE(Contains(kManagementOperations, r.operation_id)) << r.operation_id;
    }
  }
}

// The table is indexed by enumerator; its rows are checked at compile time, and this walks
// every enumerator to prove the lookup returns its own row.
TEST(OperationsTest, EveryEnumeratorHasItsOwnRow) {
  ASSERT_EQ(OperationRules().size(), static_cast<size_t>(kOperationCount));
  std::set<std::pair<std::string_view, std::string_view>> seen;
  for (Operation op : AllOperations()) {
    const OperationRule& rule = RuleOf(op);
    EXPECT_EQ(rule.op, op);
    EXPECT_FALSE(rule.operation_id.empty());
    EXPECT_TRUE(seen.insert({rule.operation_id, rule.variant}).second) << rule.operation_id;
    EXPECT_EQ(FindOperation(rule.operation_id, rule.variant), op) << rule.operation_id;
  }
}

// Each catalog operation targets a securable CatalogService checks (catalog/authorization.h);
// each management operation one ManagementService checks. Every checked target has privileges.
TEST(OperationsTest, EveryEnumeratorTargetsASecurableItsApiChecks) {
  for (Operation op : AllOperations()) {
    const OperationRule& r = RuleOf(op);
    SCOPED_TRACE(std::string(r.operation_id) + "/" + std::string(r.variant));
    if (r.api == Api::kIcebergRest) {
      EXPECT_NE(r.target, T::kRoot);
      EXPECT_NE(r.target, T::kCatalog);
      if (r.target == T::kNone) {
        EXPECT_TRUE(op == O::kGetConfig || op == O::kGetToken);
      }
    } else {
      EXPECT_NE(r.target, T::kNone);
      EXPECT_NE(r.target, T::kParentNamespace);
      // Only a grant names a namespace, table or view in the management API, besides Firn's
      // catalog-side operations (which CatalogService checks like catalog operations).
      if (r.target == T::kNamespace || r.target == T::kTable || r.target == T::kView) {
        EXPECT_TRUE(r.operation_id == "addGrantToCatalogRole" ||
                    r.operation_id == "revokeGrantFromCatalogRole" ||
                    Contains(kCatalogSideManagementOperations, r.operation_id));
      }
    }
    EXPECT_EQ(r.target == T::kNone, r.on_target.empty());
    const bool rename = op == O::kRenameTable || op == O::kRenameView;
    EXPECT_EQ(r.secondary != T::kNone, rename);
    EXPECT_EQ(r.on_secondary.empty(), !rename);
  }
}

// Audit rows and `firn admin audit --operation` filters rely on these texts, byte for byte.
TEST(OperationsTest, AuditNamesAreTheOperationIdsExceptPurge) {
  for (Operation op : AllOperations()) {
    if (op == O::kDropTablePurge) continue;
    EXPECT_EQ(AuditName(op), RuleOf(op).operation_id);
  }
  EXPECT_EQ(AuditName(O::kDropTablePurge), "dropTable(purge)");
  EXPECT_EQ(AuditName(O::kDropTable), "dropTable");
  EXPECT_EQ(AuditName(O::kUpdateTableStagedCreate), "updateTable");
  EXPECT_EQ(AuditName(O::kUpdateCatalogStorage), "updateCatalog");
  EXPECT_EQ(AuditName(O::kAddGrantOnTable), "addGrantToCatalogRole");
  EXPECT_EQ(AuditName(O::kRevokeGrantOnNamespace), "revokeGrantFromCatalogRole");
  EXPECT_EQ(AuditName(O::kAssignCatalogRoleToPrincipalRole), "assignCatalogRoleToPrincipalRole");
}

TEST(OperationsTest, FollowsPolarisForTheCommonOperations) {
  EXPECT_EQ(RuleOf(O::kListNamespaces).on_target, PrivilegeSet{P::kNAMESPACE_LIST});
  EXPECT_EQ(RuleOf(O::kLoadTable).on_target, PrivilegeSet{P::kTABLE_READ_PROPERTIES});
  EXPECT_EQ(RuleOf(O::kLoadTableVended).on_target, PrivilegeSet{P::kTABLE_READ_DATA});
  EXPECT_EQ(RuleOf(O::kUpdateTable).on_target, PrivilegeSet{P::kTABLE_WRITE_PROPERTIES});
  EXPECT_EQ(RuleOf(O::kDropTablePurge).on_target,
            (PrivilegeSet{P::kTABLE_DROP, P::kTABLE_WRITE_DATA}));
  const OperationRule& rename = RuleOf(O::kRenameTable);
  EXPECT_EQ(rename.on_target, PrivilegeSet{P::kTABLE_DROP});
  EXPECT_EQ(rename.secondary, T::kParentNamespace);
  EXPECT_EQ(rename.on_secondary, (PrivilegeSet{P::kTABLE_LIST, P::kTABLE_CREATE}));
  EXPECT_EQ(RuleOf(O::kCreateTable).target, T::kParentNamespace);
  EXPECT_EQ(RuleOf(O::kGetConfig).target, T::kNone);
  EXPECT_EQ(FindOperation("loadTable", "no-such-variant"), std::nullopt);
  EXPECT_EQ(FindOperation("loadTabel"), std::nullopt);
  EXPECT_EQ(FindOperation("dropTable", "purge"), O::kDropTablePurge);
}

TEST(OperationsTest, ManagementRulesNameTheirPrivilegeAndSecurable) {
  EXPECT_EQ(RuleOf(O::kCreateCatalog).target, T::kRoot);
  EXPECT_EQ(RuleOf(O::kCreateCatalog).on_target, PrivilegeSet{P::kCATALOG_CREATE});
  EXPECT_EQ(RuleOf(O::kUpdateCatalog).target, T::kCatalog);
  EXPECT_EQ(RuleOf(O::kUpdateCatalogStorage).target, T::kRoot);
  EXPECT_EQ(RuleOf(O::kUpdateCatalogStorage).on_target, PrivilegeSet{P::kSERVICE_MANAGE_ACCESS});
  EXPECT_EQ(RuleOf(O::kCreateCatalogRole).target, T::kCatalog);
  EXPECT_EQ(RuleOf(O::kAddGrantOnNamespace).on_target,
            PrivilegeSet{P::kNAMESPACE_MANAGE_GRANTS_ON_SECURABLE});
  EXPECT_EQ(RuleOf(O::kRevokeGrantOnView).on_target,
            PrivilegeSet{P::kVIEW_MANAGE_GRANTS_ON_SECURABLE});
  EXPECT_EQ(RuleOf(O::kListAuditEntries).on_target, PrivilegeSet{P::kSERVICE_MANAGE_ACCESS});
}

TEST(OperationsTest, UpdateActionsMapToFineGrainedPrivileges) {
  EXPECT_EQ(FindUpdateActionPrivilege("add-snapshot"), P::kTABLE_ADD_SNAPSHOT);
  EXPECT_EQ(FindUpdateActionPrivilege("set-snapshot-ref"), P::kTABLE_SET_SNAPSHOT_REF);
  EXPECT_EQ(FindUpdateActionPrivilege("remove-partition-specs"),
            P::kTABLE_REMOVE_PARTITION_SPECS);
  // Written in the table, not a fallback: Polaris has no finer privilege for these.
  for (std::string_view action : {"set-default-spec", "set-partition-statistics",
                                  "remove-partition-statistics", "remove-schemas",
                                  "add-encryption-key", "remove-encryption-key"}) {
    EXPECT_EQ(FindUpdateActionPrivilege(action), P::kTABLE_WRITE_PROPERTIES) << action;
  }
  // No silent fallback for an action without a row.
  EXPECT_EQ(FindUpdateActionPrivilege("something-new"), std::nullopt);
  static_assert(UpdateActionPrivilegeOf("add-schema") == P::kTABLE_ADD_SCHEMA);

  P snapshot_commit[] = {P::kTABLE_ADD_SNAPSHOT, P::kTABLE_SET_SNAPSHOT_REF};
  EXPECT_EQ(UpdateTablePrivileges(snapshot_commit),
            (PrivilegeSet{P::kTABLE_ADD_SNAPSHOT, P::kTABLE_SET_SNAPSHOT_REF}));
  EXPECT_EQ(UpdateTablePrivileges({}), PrivilegeSet{P::kTABLE_WRITE_PROPERTIES});
}

TEST(OperationsTest, EveryUpdateActionHasOneRow) {
  std::set<std::string_view> actions;
  for (const auto& row : kUpdateActionPrivileges) {
    EXPECT_TRUE(actions.insert(row.action).second) << row.action;
  }
}

TEST(OperationsTest, WriteDataSatisfiesEverySnapshotCommitPrivilege) {
  for (std::string_view action : {"add-snapshot", "set-snapshot-ref", "remove-snapshots",
                                  "set-statistics", "set-properties"}) {
    auto p = FindUpdateActionPrivilege(action);
    ASSERT_TRUE(p) << action;
    EXPECT_TRUE(Satisfies(P::kTABLE_WRITE_DATA, *p)) << PrivilegeName(*p);
  }
}

}  // namespace
}  // namespace firn::auth
