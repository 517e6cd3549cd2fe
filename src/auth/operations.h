// Iceberg REST operation → required privileges, as data (following Polaris's
// PolarisAuthorizableOperation / RbacOperationSemantics and IcebergCatalogHandler).
//
// Contract: immutable static data; thread-safe. Every operationId of the Iceberg REST spec
// has at least the "" variant. Variants cover what changes the requirement: "vended-credentials"
// (X-Iceberg-Access-Delegation present), "purge" (dropTable purgeRequested), "staged"
// (createTable stage-create), "scan-report"/"commit-report" (reportMetrics body).
#pragma once

#include <span>
#include <string_view>

#include "auth/privilege.h"

namespace firn::auth {

// Which securable the privileges are checked on.
enum class AuthzTarget {
  kNone,             // authentication only (getConfig, getToken)
  kParentNamespace,  // the namespace that will contain the new/listed entity (catalog at top)
  kNamespace,        // the namespace itself
  kTable,
  kView,
};

struct OperationRule {
  std::string_view operation_id;  // the REST spec's operationId
  std::string_view variant;       // "" is the plain request
  AuthzTarget target;
  PrivilegeSet on_target;
  // Rename: privileges on the destination's parent namespace.
  AuthzTarget secondary = AuthzTarget::kNone;
  PrivilegeSet on_secondary = {};
  std::string_view polaris_operation = {};  // the Polaris operation this row follows
};

std::span<const OperationRule> OperationRules();
// nullptr when unknown.
const OperationRule* FindOperationRule(std::string_view operation_id,
                                       std::string_view variant = "");

// updateTable / each commitTransaction change: the privileges its updates need. Each
// spec action ("add-snapshot", "set-properties", ...) maps to its fine-grained privilege;
// an unknown action, or no updates at all, needs TABLE_WRITE_PROPERTIES (Polaris's fallback).
PrivilegeSet UpdateTablePrivileges(std::span<const std::string_view> update_actions);
Privilege UpdateActionPrivilege(std::string_view action);

}  // namespace firn::auth
