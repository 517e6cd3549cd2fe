#include "auth/privilege.h"

#include <array>

namespace firn::auth {
namespace {

using P = Privilege;

constexpr std::string_view kNames[] = {
#define FIRN_PRIVILEGE_NAME(name) #name,
    FIRN_PRIVILEGES(FIRN_PRIVILEGE_NAME)
#undef FIRN_PRIVILEGE_NAME
};
static_assert(std::size(kNames) == kPrivilegeCount);

// Polaris's SUPER_PRIVILEGES, row by row: desired → privileges whose grant satisfies it.
// (PolarisAuthorizerImpl.java / DefaultPolarisAuthorizer.java; fine-grained table-update rows
// from IcebergCatalogHandler's fine-grained checks and their authz tests, see docs/auth.md.)
std::array<PrivilegeSet, kPrivilegeCount> BuildSatisfiedBy() {
  std::array<PrivilegeSet, kPrivilegeCount> t{};
  auto row = [&t](P desired, PrivilegeSet supers) {
    supers.Add(desired);
    t[static_cast<int>(desired)] = supers;
  };
  // Anything without an explicit row is satisfied by itself only.
  for (int i = 0; i < kPrivilegeCount; ++i) row(static_cast<P>(i), {});

  const P cmc = P::kCATALOG_MANAGE_CONTENT;
  const P cmm = P::kCATALOG_MANAGE_METADATA;
  const P sma = P::kSERVICE_MANAGE_ACCESS;
  const P cma = P::kCATALOG_MANAGE_ACCESS;

  // Namespace, table, view.
  row(P::kNAMESPACE_CREATE, {cmc, cmm, P::kNAMESPACE_FULL_METADATA});
  row(P::kTABLE_CREATE, {cmc, cmm, P::kTABLE_FULL_METADATA});
  row(P::kVIEW_CREATE, {cmc, cmm, P::kVIEW_FULL_METADATA});
  row(P::kNAMESPACE_DROP, {cmc, cmm, P::kNAMESPACE_FULL_METADATA});
  row(P::kTABLE_DROP, {cmc, cmm, P::kTABLE_FULL_METADATA});
  row(P::kVIEW_DROP, {cmc, cmm, P::kVIEW_FULL_METADATA});
  row(P::kNAMESPACE_LIST, {cmc, cmm, P::kNAMESPACE_CREATE, P::kNAMESPACE_FULL_METADATA,
                           P::kNAMESPACE_READ_PROPERTIES, P::kNAMESPACE_WRITE_PROPERTIES});
  row(P::kTABLE_LIST, {cmc, cmm, P::kTABLE_CREATE, P::kTABLE_FULL_METADATA, P::kTABLE_READ_DATA,
                       P::kTABLE_READ_PROPERTIES, P::kTABLE_WRITE_DATA,
                       P::kTABLE_WRITE_PROPERTIES});
  row(P::kVIEW_LIST, {cmc, cmm, P::kVIEW_CREATE, P::kVIEW_FULL_METADATA,
                      P::kVIEW_READ_PROPERTIES, P::kVIEW_WRITE_PROPERTIES});
  row(P::kNAMESPACE_READ_PROPERTIES,
      {cmc, cmm, P::kNAMESPACE_FULL_METADATA, P::kNAMESPACE_WRITE_PROPERTIES});
  row(P::kTABLE_READ_PROPERTIES, {cmc, cmm, P::kTABLE_FULL_METADATA, P::kTABLE_READ_DATA,
                                  P::kTABLE_WRITE_DATA, P::kTABLE_WRITE_PROPERTIES});
  row(P::kVIEW_READ_PROPERTIES,
      {cmc, cmm, P::kVIEW_FULL_METADATA, P::kVIEW_WRITE_PROPERTIES});
  row(P::kNAMESPACE_WRITE_PROPERTIES, {cmc, cmm, P::kNAMESPACE_FULL_METADATA});
  const PrivilegeSet table_write_props{cmc, cmm, P::kTABLE_FULL_METADATA, P::kTABLE_WRITE_DATA};
  row(P::kTABLE_WRITE_PROPERTIES, table_write_props);
  row(P::kVIEW_WRITE_PROPERTIES, {cmc, cmm, P::kVIEW_FULL_METADATA});
  // Data access: only CATALOG_MANAGE_CONTENT, never CATALOG_MANAGE_METADATA (Polaris #4407).
  row(P::kTABLE_READ_DATA, {cmc, P::kTABLE_WRITE_DATA});
  row(P::kTABLE_WRITE_DATA, {cmc});
  row(P::kNAMESPACE_FULL_METADATA, {cmc, cmm});
  row(P::kTABLE_FULL_METADATA, {cmc, cmm});
  row(P::kVIEW_FULL_METADATA, {cmc, cmm});

  // Fine-grained table updates: each is satisfied by TABLE_WRITE_PROPERTIES (and whatever
  // satisfies that) and, except for the snapshot-writing two, by TABLE_MANAGE_STRUCTURE.
  PrivilegeSet fine = table_write_props;
  fine.Add(P::kTABLE_WRITE_PROPERTIES);
  PrivilegeSet structural = fine;
  structural.Add(P::kTABLE_MANAGE_STRUCTURE);
  for (P p : {P::kTABLE_ASSIGN_UUID, P::kTABLE_UPGRADE_FORMAT_VERSION, P::kTABLE_ADD_SCHEMA,
              P::kTABLE_SET_CURRENT_SCHEMA, P::kTABLE_ADD_PARTITION_SPEC,
              P::kTABLE_ADD_SORT_ORDER, P::kTABLE_SET_DEFAULT_SORT_ORDER,
              P::kTABLE_REMOVE_SNAPSHOTS, P::kTABLE_REMOVE_SNAPSHOT_REF, P::kTABLE_SET_LOCATION,
              P::kTABLE_SET_PROPERTIES, P::kTABLE_REMOVE_PROPERTIES, P::kTABLE_SET_STATISTICS,
              P::kTABLE_REMOVE_STATISTICS, P::kTABLE_REMOVE_PARTITION_SPECS}) {
    row(p, structural);
  }
  row(P::kTABLE_ADD_SNAPSHOT, fine);
  row(P::kTABLE_SET_SNAPSHOT_REF, fine);
  row(P::kTABLE_MANAGE_STRUCTURE, {cmc, cmm, P::kTABLE_FULL_METADATA});

  // Policies (Firn's reading; Polaris policies are not served by Firn yet).
  for (P p : {P::kPOLICY_CREATE, P::kPOLICY_READ, P::kPOLICY_DROP, P::kPOLICY_WRITE,
              P::kPOLICY_LIST}) {
    row(p, {cmc, P::kPOLICY_FULL_METADATA});
  }
  row(P::kPOLICY_FULL_METADATA, {cmc});

  // Catalog.
  row(cmm, {cmc});
  row(P::kCATALOG_CREATE, {P::kCATALOG_FULL_METADATA, sma});
  row(P::kCATALOG_DROP, {P::kCATALOG_FULL_METADATA, sma});
  row(P::kCATALOG_LIST, {P::kCATALOG_CREATE, P::kCATALOG_FULL_METADATA, cmc, cmm,
                         P::kCATALOG_READ_PROPERTIES, P::kCATALOG_WRITE_PROPERTIES, sma});
  row(P::kCATALOG_READ_PROPERTIES,
      {P::kCATALOG_FULL_METADATA, cmc, cmm, P::kCATALOG_WRITE_PROPERTIES, sma});
  row(P::kCATALOG_WRITE_PROPERTIES, {P::kCATALOG_FULL_METADATA, cmc, cmm, sma});
  row(P::kCATALOG_FULL_METADATA, {sma});

  // *_LIST_GRANTS.
  row(P::kPRINCIPAL_LIST_GRANTS, {P::kPRINCIPAL_MANAGE_GRANTS_ON_SECURABLE,
                                  P::kPRINCIPAL_MANAGE_GRANTS_FOR_GRANTEE, sma});
  row(P::kPRINCIPAL_ROLE_LIST_GRANTS, {P::kPRINCIPAL_ROLE_MANAGE_GRANTS_ON_SECURABLE,
                                       P::kPRINCIPAL_ROLE_MANAGE_GRANTS_FOR_GRANTEE, sma});
  row(P::kCATALOG_ROLE_LIST_GRANTS, {P::kCATALOG_ROLE_MANAGE_GRANTS_ON_SECURABLE,
                                     P::kCATALOG_ROLE_MANAGE_GRANTS_FOR_GRANTEE, cma});
  row(P::kCATALOG_LIST_GRANTS, {P::kCATALOG_MANAGE_GRANTS_ON_SECURABLE, cma});
  row(P::kNAMESPACE_LIST_GRANTS, {P::kNAMESPACE_MANAGE_GRANTS_ON_SECURABLE, cma});
  row(P::kTABLE_LIST_GRANTS, {P::kTABLE_MANAGE_GRANTS_ON_SECURABLE, cma});
  row(P::kVIEW_LIST_GRANTS, {P::kVIEW_MANAGE_GRANTS_ON_SECURABLE, cma});
  row(P::kCATALOG_MANAGE_GRANTS_ON_SECURABLE, {cma});
  row(P::kNAMESPACE_MANAGE_GRANTS_ON_SECURABLE, {cma});
  row(P::kTABLE_MANAGE_GRANTS_ON_SECURABLE, {cma});
  row(P::kVIEW_MANAGE_GRANTS_ON_SECURABLE, {cma});

  // Principals.
  row(P::kPRINCIPAL_CREATE, {P::kPRINCIPAL_FULL_METADATA, sma});
  row(P::kPRINCIPAL_DROP, {P::kPRINCIPAL_FULL_METADATA, sma});
  row(P::kPRINCIPAL_LIST, {P::kPRINCIPAL_CREATE, P::kPRINCIPAL_READ_PROPERTIES,
                           P::kPRINCIPAL_WRITE_PROPERTIES, P::kPRINCIPAL_FULL_METADATA, sma});
  row(P::kPRINCIPAL_READ_PROPERTIES,
      {P::kPRINCIPAL_WRITE_PROPERTIES, P::kPRINCIPAL_FULL_METADATA, sma});
  row(P::kPRINCIPAL_WRITE_PROPERTIES, {P::kPRINCIPAL_FULL_METADATA, sma});
  row(P::kPRINCIPAL_FULL_METADATA, {sma});
  row(P::kPRINCIPAL_MANAGE_GRANTS_ON_SECURABLE, {sma});
  row(P::kPRINCIPAL_MANAGE_GRANTS_FOR_GRANTEE, {sma});
  row(P::kPRINCIPAL_ROTATE_CREDENTIALS, {});  // only the principal's own grant
  row(P::kPRINCIPAL_RESET_CREDENTIALS, {sma});

  // Principal roles.
  row(P::kPRINCIPAL_ROLE_CREATE, {P::kPRINCIPAL_ROLE_FULL_METADATA, sma});
  row(P::kPRINCIPAL_ROLE_DROP, {P::kPRINCIPAL_ROLE_FULL_METADATA, sma});
  row(P::kPRINCIPAL_ROLE_LIST,
      {P::kPRINCIPAL_ROLE_CREATE, P::kPRINCIPAL_ROLE_READ_PROPERTIES,
       P::kPRINCIPAL_ROLE_WRITE_PROPERTIES, P::kPRINCIPAL_ROLE_FULL_METADATA, sma});
  row(P::kPRINCIPAL_ROLE_READ_PROPERTIES,
      {P::kPRINCIPAL_ROLE_WRITE_PROPERTIES, P::kPRINCIPAL_ROLE_FULL_METADATA, sma});
  row(P::kPRINCIPAL_ROLE_WRITE_PROPERTIES, {P::kPRINCIPAL_ROLE_FULL_METADATA, sma});
  row(P::kPRINCIPAL_ROLE_FULL_METADATA, {sma});
  row(P::kPRINCIPAL_ROLE_MANAGE_GRANTS_ON_SECURABLE, {sma});
  row(P::kPRINCIPAL_ROLE_MANAGE_GRANTS_FOR_GRANTEE, {sma});

  // Catalog roles.
  row(P::kCATALOG_ROLE_CREATE, {P::kCATALOG_ROLE_FULL_METADATA, cma});
  row(P::kCATALOG_ROLE_DROP, {P::kCATALOG_ROLE_FULL_METADATA, cma});
  row(P::kCATALOG_ROLE_LIST, {P::kCATALOG_ROLE_CREATE, P::kCATALOG_ROLE_READ_PROPERTIES,
                              P::kCATALOG_ROLE_WRITE_PROPERTIES, P::kCATALOG_ROLE_FULL_METADATA,
                              cma});
  row(P::kCATALOG_ROLE_READ_PROPERTIES,
      {P::kCATALOG_ROLE_WRITE_PROPERTIES, P::kCATALOG_ROLE_FULL_METADATA, cma});
  row(P::kCATALOG_ROLE_WRITE_PROPERTIES, {P::kCATALOG_ROLE_FULL_METADATA, cma});
  row(P::kCATALOG_ROLE_FULL_METADATA, {cma});
  row(P::kCATALOG_ROLE_MANAGE_GRANTS_ON_SECURABLE, {cma});
  row(P::kCATALOG_ROLE_MANAGE_GRANTS_FOR_GRANTEE, {cma});
  return t;
}

const std::array<PrivilegeSet, kPrivilegeCount>& SatisfiedByTable() {
  static const auto table = BuildSatisfiedBy();
  return table;
}

// The management spec's grantable enums.
const PrivilegeSet& TableGrantable() {
  static const PrivilegeSet s = [] {
    PrivilegeSet s{P::kCATALOG_MANAGE_ACCESS, P::kTABLE_DROP, P::kTABLE_LIST,
                   P::kTABLE_READ_PROPERTIES, P::kTABLE_WRITE_PROPERTIES, P::kTABLE_READ_DATA,
                   P::kTABLE_WRITE_DATA, P::kTABLE_FULL_METADATA, P::kTABLE_ATTACH_POLICY,
                   P::kTABLE_DETACH_POLICY};
    for (int i = static_cast<int>(P::kTABLE_ASSIGN_UUID);
         i <= static_cast<int>(P::kTABLE_MANAGE_STRUCTURE); ++i) {
      s.Add(static_cast<P>(i));
    }
    return s;
  }();
  return s;
}

const PrivilegeSet& ViewGrantable() {
  static const PrivilegeSet s{P::kCATALOG_MANAGE_ACCESS, P::kVIEW_DROP, P::kVIEW_LIST,
                              P::kVIEW_READ_PROPERTIES, P::kVIEW_WRITE_PROPERTIES,
                              P::kVIEW_FULL_METADATA};
  return s;
}

PrivilegeSet ContainerCommon() {
  PrivilegeSet s{P::kCATALOG_MANAGE_ACCESS, P::kCATALOG_MANAGE_CONTENT,
                 P::kCATALOG_MANAGE_METADATA};
  for (int i = static_cast<int>(P::kNAMESPACE_CREATE);
       i <= static_cast<int>(P::kVIEW_FULL_METADATA); ++i) {
    s.Add(static_cast<P>(i));
  }
  for (P p : {P::kPOLICY_CREATE, P::kPOLICY_WRITE, P::kPOLICY_READ, P::kPOLICY_DROP,
              P::kPOLICY_LIST, P::kPOLICY_FULL_METADATA}) {
    s.Add(p);
  }
  for (int i = static_cast<int>(P::kTABLE_ASSIGN_UUID);
       i <= static_cast<int>(P::kTABLE_MANAGE_STRUCTURE); ++i) {
    s.Add(static_cast<P>(i));
  }
  return s;
}

const PrivilegeSet& NamespaceGrantable() {
  static const PrivilegeSet s = [] {
    PrivilegeSet s = ContainerCommon();
    s.Add(P::kNAMESPACE_ATTACH_POLICY);
    s.Add(P::kNAMESPACE_DETACH_POLICY);
    return s;
  }();
  return s;
}

const PrivilegeSet& CatalogGrantable() {
  static const PrivilegeSet s = [] {
    PrivilegeSet s = ContainerCommon();
    s |= PrivilegeSet{P::kCATALOG_READ_PROPERTIES, P::kCATALOG_WRITE_PROPERTIES,
                      P::kCATALOG_ATTACH_POLICY, P::kCATALOG_DETACH_POLICY};
    return s;
  }();
  return s;
}

// Root-container grants go to principal roles and cover service administration.
const PrivilegeSet& RootGrantable() {
  static const PrivilegeSet s = [] {
    PrivilegeSet s{P::kSERVICE_MANAGE_ACCESS, P::kCATALOG_CREATE, P::kCATALOG_DROP,
                   P::kCATALOG_LIST, P::kCATALOG_FULL_METADATA};
    for (int i = static_cast<int>(P::kPRINCIPAL_LIST_GRANTS);
         i <= static_cast<int>(P::kPRINCIPAL_ROLE_MANAGE_GRANTS_FOR_GRANTEE); ++i) {
      s.Add(static_cast<P>(i));
    }
    return s;
  }();
  return s;
}

}  // namespace

std::string_view PrivilegeName(Privilege p) { return kNames[static_cast<int>(p)]; }

std::optional<Privilege> ParsePrivilege(std::string_view name) {
  for (int i = 0; i < kPrivilegeCount; ++i) {
    if (kNames[i] == name) return static_cast<Privilege>(i);
  }
  return std::nullopt;
}

const PrivilegeSet& SatisfiedBy(Privilege desired) {
  return SatisfiedByTable()[static_cast<int>(desired)];
}

std::string_view SecurableTypeName(SecurableType t) {
  switch (t) {
    case SecurableType::kRoot: return "root";
    case SecurableType::kCatalog: return "catalog";
    case SecurableType::kNamespace: return "namespace";
    case SecurableType::kTable: return "table";
    case SecurableType::kView: return "view";
  }
  return "?";
}

bool GrantableOn(Privilege p, SecurableType t) {
  switch (t) {
    case SecurableType::kRoot: return RootGrantable().Contains(p);
    case SecurableType::kCatalog: return CatalogGrantable().Contains(p);
    case SecurableType::kNamespace: return NamespaceGrantable().Contains(p);
    case SecurableType::kTable: return TableGrantable().Contains(p);
    case SecurableType::kView: return ViewGrantable().Contains(p);
  }
  return false;
}

}  // namespace firn::auth
