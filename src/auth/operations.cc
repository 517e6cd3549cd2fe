#include "auth/operations.h"

#include <vector>

namespace firn::auth {
namespace {

using P = Privilege;
using T = AuthzTarget;

const std::vector<OperationRule>& Rules() {
  static const std::vector<OperationRule> rules = {
      {"getConfig", "", T::kNone, {}, T::kNone, {}, "(authenticated; catalog must exist)"},
      {"getToken", "", T::kNone, {}, T::kNone, {}, "(token endpoint; client credentials)"},
      {"listNamespaces", "", T::kParentNamespace, {P::kNAMESPACE_LIST}, T::kNone, {},
       "LIST_NAMESPACES"},
      {"createNamespace", "", T::kParentNamespace, {P::kNAMESPACE_CREATE}, T::kNone, {},
       "CREATE_NAMESPACE"},
      {"loadNamespaceMetadata", "", T::kNamespace, {P::kNAMESPACE_READ_PROPERTIES}, T::kNone,
       {}, "LOAD_NAMESPACE_METADATA"},
      {"namespaceExists", "", T::kNamespace, {P::kNAMESPACE_LIST}, T::kNone, {},
       "NAMESPACE_EXISTS"},
      {"dropNamespace", "", T::kNamespace, {P::kNAMESPACE_DROP}, T::kNone, {},
       "DROP_NAMESPACE"},
      {"updateProperties", "", T::kNamespace, {P::kNAMESPACE_WRITE_PROPERTIES}, T::kNone, {},
       "UPDATE_NAMESPACE_PROPERTIES"},
      {"listTables", "", T::kNamespace, {P::kTABLE_LIST}, T::kNone, {}, "LIST_TABLES"},
      {"createTable", "", T::kParentNamespace, {P::kTABLE_CREATE}, T::kNone, {},
       "CREATE_TABLE_DIRECT"},
      {"createTable", "vended-credentials", T::kParentNamespace,
       {P::kTABLE_CREATE, P::kTABLE_WRITE_DATA}, T::kNone, {},
       "CREATE_TABLE_DIRECT_WITH_WRITE_DELEGATION"},
      {"createTable", "staged", T::kParentNamespace, {P::kTABLE_CREATE}, T::kNone, {},
       "CREATE_TABLE_STAGED"},
      {"createTable", "staged+vended-credentials", T::kParentNamespace,
       {P::kTABLE_CREATE, P::kTABLE_WRITE_DATA}, T::kNone, {},
       "CREATE_TABLE_STAGED_WITH_WRITE_DELEGATION"},
      {"registerTable", "", T::kParentNamespace, {P::kTABLE_CREATE}, T::kNone, {},
       "REGISTER_TABLE"},
      {"loadTable", "", T::kTable, {P::kTABLE_READ_PROPERTIES}, T::kNone, {}, "LOAD_TABLE"},
      // Polaris first tries write delegation (TABLE_WRITE_DATA) and falls back to read; the
      // floor is TABLE_READ_DATA and the caller vends write credentials only if it also holds
      // TABLE_WRITE_DATA.
      {"loadTable", "vended-credentials", T::kTable, {P::kTABLE_READ_DATA}, T::kNone, {},
       "LOAD_TABLE_WITH_READ_DELEGATION"},
      {"loadCredentials", "", T::kTable, {P::kTABLE_READ_DATA}, T::kNone, {},
       "LOAD_TABLE_WITH_READ_DELEGATION"},
      {"updateTable", "", T::kTable, {P::kTABLE_WRITE_PROPERTIES}, T::kNone, {},
       "UPDATE_TABLE (fine-grained: UpdateTablePrivileges)"},
      {"updateTable", "staged-create", T::kParentNamespace, {P::kTABLE_CREATE}, T::kNone, {},
       "UPDATE_TABLE_FOR_STAGED_CREATE"},
      {"dropTable", "", T::kTable, {P::kTABLE_DROP}, T::kNone, {}, "DROP_TABLE_WITHOUT_PURGE"},
      {"dropTable", "purge", T::kTable, {P::kTABLE_DROP, P::kTABLE_WRITE_DATA}, T::kNone, {},
       "DROP_TABLE_WITH_PURGE"},
      {"tableExists", "", T::kTable, {P::kTABLE_LIST}, T::kNone, {}, "TABLE_EXISTS"},
      {"renameTable", "", T::kTable, {P::kTABLE_DROP}, T::kParentNamespace,
       {P::kTABLE_LIST, P::kTABLE_CREATE}, "RENAME_TABLE"},
      {"reportMetrics", "", T::kTable, {P::kTABLE_READ_DATA}, T::kNone, {},
       "REPORT_READ_METRICS"},
      {"reportMetrics", "commit-report", T::kTable, {P::kTABLE_WRITE_DATA}, T::kNone, {},
       "REPORT_WRITE_METRICS"},
      // Applied per table in the transaction; fine-grained updates as for updateTable.
      {"commitTransaction", "", T::kTable, {P::kTABLE_WRITE_PROPERTIES, P::kTABLE_CREATE},
       T::kNone, {}, "COMMIT_TRANSACTION"},
      // Scan planning is absent from Polaris (#966); Firn treats it as reading data.
      {"planTableScan", "", T::kTable, {P::kTABLE_READ_DATA}, T::kNone, {}, "(Firn)"},
      {"fetchPlanningResult", "", T::kTable, {P::kTABLE_READ_DATA}, T::kNone, {}, "(Firn)"},
      {"cancelPlanning", "", T::kTable, {P::kTABLE_READ_DATA}, T::kNone, {}, "(Firn)"},
      {"fetchScanTasks", "", T::kTable, {P::kTABLE_READ_DATA}, T::kNone, {}, "(Firn)"},
      // Remote signing is absent from Polaris (#32); signing a request for a table's objects
      // is data access, so writes need TABLE_WRITE_DATA (Firn).
      {"signRequest", "", T::kTable, {P::kTABLE_READ_DATA}, T::kNone, {}, "(Firn)"},
      {"signRequest", "write", T::kTable, {P::kTABLE_WRITE_DATA}, T::kNone, {}, "(Firn)"},
      {"listViews", "", T::kNamespace, {P::kVIEW_LIST}, T::kNone, {}, "LIST_VIEWS"},
      {"createView", "", T::kParentNamespace, {P::kVIEW_CREATE}, T::kNone, {}, "CREATE_VIEW"},
      {"registerView", "", T::kParentNamespace, {P::kVIEW_CREATE}, T::kNone, {},
       "REGISTER_VIEW"},
      {"loadView", "", T::kView, {P::kVIEW_READ_PROPERTIES}, T::kNone, {}, "LOAD_VIEW"},
      {"replaceView", "", T::kView, {P::kVIEW_WRITE_PROPERTIES}, T::kNone, {}, "REPLACE_VIEW"},
      {"dropView", "", T::kView, {P::kVIEW_DROP}, T::kNone, {}, "DROP_VIEW"},
      {"viewExists", "", T::kView, {P::kVIEW_LIST}, T::kNone, {}, "VIEW_EXISTS"},
      {"renameView", "", T::kView, {P::kVIEW_DROP}, T::kParentNamespace,
       {P::kVIEW_LIST, P::kVIEW_CREATE}, "RENAME_VIEW"},
  };
  return rules;
}

struct ActionPrivilege {
  std::string_view action;
  Privilege privilege;
};

// Spec update actions (rest-catalog-open-api TableUpdate) → Polaris fine-grained privileges.
constexpr ActionPrivilege kActions[] = {
    {"assign-uuid", P::kTABLE_ASSIGN_UUID},
    {"upgrade-format-version", P::kTABLE_UPGRADE_FORMAT_VERSION},
    {"add-schema", P::kTABLE_ADD_SCHEMA},
    {"set-current-schema", P::kTABLE_SET_CURRENT_SCHEMA},
    {"add-spec", P::kTABLE_ADD_PARTITION_SPEC},
    {"set-default-spec", P::kTABLE_WRITE_PROPERTIES},  // no fine-grained privilege in Polaris
    {"add-sort-order", P::kTABLE_ADD_SORT_ORDER},
    {"set-default-sort-order", P::kTABLE_SET_DEFAULT_SORT_ORDER},
    {"add-snapshot", P::kTABLE_ADD_SNAPSHOT},
    {"set-snapshot-ref", P::kTABLE_SET_SNAPSHOT_REF},
    {"remove-snapshots", P::kTABLE_REMOVE_SNAPSHOTS},
    {"remove-snapshot-ref", P::kTABLE_REMOVE_SNAPSHOT_REF},
    {"set-location", P::kTABLE_SET_LOCATION},
    {"set-properties", P::kTABLE_SET_PROPERTIES},
    {"remove-properties", P::kTABLE_REMOVE_PROPERTIES},
    {"set-statistics", P::kTABLE_SET_STATISTICS},
    {"remove-statistics", P::kTABLE_REMOVE_STATISTICS},
    {"remove-partition-specs", P::kTABLE_REMOVE_PARTITION_SPECS},
};

}  // namespace

std::span<const OperationRule> OperationRules() { return Rules(); }

const OperationRule* FindOperationRule(std::string_view operation_id, std::string_view variant) {
  for (const auto& r : Rules()) {
    if (r.operation_id == operation_id && r.variant == variant) return &r;
  }
  return nullptr;
}

Privilege UpdateActionPrivilege(std::string_view action) {
  for (const auto& a : kActions) {
    if (a.action == action) return a.privilege;
  }
  return P::kTABLE_WRITE_PROPERTIES;
}

PrivilegeSet UpdateTablePrivileges(std::span<const std::string_view> update_actions) {
  PrivilegeSet out;
  for (auto action : update_actions) out.Add(UpdateActionPrivilege(action));
  if (out.empty()) out.Add(P::kTABLE_WRITE_PROPERTIES);
  return out;
}

}  // namespace firn::auth
