#include "auth/operations.h"

#include <gtest/gtest.h>

namespace firn::auth {
namespace {

using P = Privilege;

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

TEST(OperationsTest, EverySpecOperationHasARule) {
  for (auto op : kSpecOperations) EXPECT_NE(FindOperationRule(op), nullptr) << op;
}

TEST(OperationsTest, EveryRuleNamesASpecOperation) {
  for (const auto& r : OperationRules()) {
    EXPECT_NE(std::find(std::begin(kSpecOperations), std::end(kSpecOperations), r.operation_id),
              std::end(kSpecOperations))
        << r.operation_id;
  }
}

TEST(OperationsTest, FollowsPolarisForTheCommonOperations) {
  EXPECT_EQ(FindOperationRule("listNamespaces")->on_target, PrivilegeSet{P::kNAMESPACE_LIST});
  EXPECT_EQ(FindOperationRule("loadTable")->on_target, PrivilegeSet{P::kTABLE_READ_PROPERTIES});
  EXPECT_EQ(FindOperationRule("loadTable", "vended-credentials")->on_target,
            PrivilegeSet{P::kTABLE_READ_DATA});
  EXPECT_EQ(FindOperationRule("updateTable")->on_target,
            PrivilegeSet{P::kTABLE_WRITE_PROPERTIES});
  EXPECT_EQ(FindOperationRule("dropTable", "purge")->on_target,
            (PrivilegeSet{P::kTABLE_DROP, P::kTABLE_WRITE_DATA}));
  const auto* rename = FindOperationRule("renameTable");
  EXPECT_EQ(rename->on_target, PrivilegeSet{P::kTABLE_DROP});
  EXPECT_EQ(rename->secondary, AuthzTarget::kParentNamespace);
  EXPECT_EQ(rename->on_secondary, (PrivilegeSet{P::kTABLE_LIST, P::kTABLE_CREATE}));
  EXPECT_EQ(FindOperationRule("createTable")->target, AuthzTarget::kParentNamespace);
  EXPECT_EQ(FindOperationRule("getConfig")->target, AuthzTarget::kNone);
  EXPECT_EQ(FindOperationRule("loadTable", "no-such-variant"), nullptr);
}

TEST(OperationsTest, UpdateActionsMapToFineGrainedPrivileges) {
  std::string_view snapshot_commit[] = {"add-snapshot", "set-snapshot-ref"};
  EXPECT_EQ(UpdateTablePrivileges(snapshot_commit),
            (PrivilegeSet{P::kTABLE_ADD_SNAPSHOT, P::kTABLE_SET_SNAPSHOT_REF}));
  std::string_view evolve[] = {"add-schema", "set-current-schema", "set-properties"};
  EXPECT_EQ(UpdateTablePrivileges(evolve),
            (PrivilegeSet{P::kTABLE_ADD_SCHEMA, P::kTABLE_SET_CURRENT_SCHEMA,
                          P::kTABLE_SET_PROPERTIES}));
  EXPECT_EQ(UpdateTablePrivileges({}), PrivilegeSet{P::kTABLE_WRITE_PROPERTIES});
  EXPECT_EQ(UpdateActionPrivilege("set-default-spec"), P::kTABLE_WRITE_PROPERTIES);
  EXPECT_EQ(UpdateActionPrivilege("something-new"), P::kTABLE_WRITE_PROPERTIES);
}

TEST(OperationsTest, WriteDataSatisfiesEverySnapshotCommitPrivilege) {
  std::string_view actions[] = {"add-snapshot", "set-snapshot-ref", "remove-snapshots",
                                "set-statistics", "set-properties"};
  UpdateTablePrivileges(actions).ForEach(
      [](P p) { EXPECT_TRUE(Satisfies(P::kTABLE_WRITE_DATA, p)) << PrivilegeName(p); });
}

}  // namespace
}  // namespace firn::auth
