// Access records: the one place that encodes and decodes the JSON bodies and keys of
// store::AccessRecord rows (docs/auth-store.md describes every format).
//
// Contract: pure functions, thread-safe. Encode* returns a record with realm, kind, scope,
// name and body set (entity_version/timestamps are the store's). Decode* checks the kind,
// parses the body and fills entity_version and timestamps from the record; a body that does
// not parse is kIllegalArgument (the detail names the row, never a secret). Decoding ignores
// unknown body fields, so later versions may add some.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "access/access_snapshot.h"
#include "auth/key_encryption.h"
#include "auth/key_ring.h"
#include "auth/privilege.h"
#include "catalog/catalog_registry.h"
#include "common/result.h"
#include "store/access_store.h"

namespace firn::access {

// Separator inside composite record names (role assignments and grants).
inline constexpr char kNameSeparator = '\x1f';

// --- realm: name = realm; body {"created_ms":N}
store::AccessRecord EncodeRealm(std::string_view realm, int64_t created_ms);

// --- signing key: name = kid;
// body {"alg","kek_id","sealed_private_key","created_at","active","verify_until"}.
// The PKCS#8 PEM is sealed with keks.primary() (AES-256-GCM, auth/key_encryption.h); the
// associated data is the row's identity (realm, kid, alg), so a sealed key copied into another
// row does not open. Rows from before sealing hold "private_key_pem" in the clear instead:
// DecodeSigningKey still reads them and SealSigningKeys (bootstrap.h) rewrites them.
Result<store::AccessRecord> EncodeSigningKey(std::string_view realm, const auth::StoredKey& key,
                                             const auth::KeyEncryptionKeys& keks);
// A row read without opening it: the key's fields with private_key_pem empty, and the id of
// the KEK it is sealed with ("" for a plaintext row from an earlier version).
struct SigningKeyRow {
  auth::StoredKey key;
  std::string kek_id;
};
Result<SigningKeyRow> InspectSigningKey(const store::AccessRecord& record);
// Opens the row with its KEK from `keks`. kNotAuthorized when that KEK is not in `keks` or the
// row does not open under it (wrong KEK or a tampered row); the detail names the row and the
// KEK id, never key material.
Result<auth::StoredKey> DecodeSigningKey(const store::AccessRecord& record,
                                         const auth::KeyEncryptionKeys& keks);

// --- principal: name = principal name;
// body {"id","client_id","secret_hash","previous_secret_hash","credential_version","properties"}
store::AccessRecord EncodePrincipal(std::string_view realm, const PrincipalInfo& principal);
Result<PrincipalInfo> DecodePrincipal(const store::AccessRecord& record);

// --- principal role: name = role; body {"properties":{},"federated":false}
store::AccessRecord EncodePrincipalRole(std::string_view realm, const RoleInfo& role);
Result<RoleInfo> DecodePrincipalRole(const store::AccessRecord& record);

// --- catalog: name = catalog; body = the Polaris management Catalog JSON
// {"type":"INTERNAL","name":..,"properties":{"default-base-location":..,...},
//  "storageConfigInfo":{"storageType":"FILE","allowedLocations":[..],...}}.
// The body is kept as given (management GET returns it); CatalogInfo is derived from it.
store::AccessRecord EncodeCatalog(std::string_view realm, std::string_view name,
                                  std::string body_json);
// The Polaris Catalog JSON for a CatalogInfo (bootstrap, the configured catalog).
std::string CatalogBodyFromInfo(const catalog::CatalogInfo& info);
// Parses a Polaris Catalog JSON body into a CatalogInfo named `name`.
Result<catalog::CatalogInfo> CatalogInfoFromBody(std::string_view name, std::string_view body);
Result<CatalogEntry> DecodeCatalog(const store::AccessRecord& record);

// --- catalog role: scope = catalog; name = role; body {"properties":{}}
store::AccessRecord EncodeCatalogRole(std::string_view realm, const RoleInfo& role);
Result<RoleInfo> DecodeCatalogRole(const store::AccessRecord& record);

// --- principal holds principal role: name = "<principal>\x1f<principal role>"; body {}
struct PrincipalRoleAssignment {
  std::string principal;
  std::string principal_role;
};
store::AccessRecord EncodePrincipalRoleGrant(std::string_view realm,
                                             const PrincipalRoleAssignment& a);
Result<PrincipalRoleAssignment> DecodePrincipalRoleGrant(const store::AccessRecord& record);

// --- principal role holds catalog role: scope = catalog;
// name = "<principal role>\x1f<catalog role>"; body {}
struct CatalogRoleAssignment {
  std::string catalog;
  std::string principal_role;
  std::string catalog_role;
};
store::AccessRecord EncodeCatalogRoleGrant(std::string_view realm, const CatalogRoleAssignment& a);
Result<CatalogRoleAssignment> DecodeCatalogRoleGrant(const store::AccessRecord& record);

// --- privilege grant: scope = catalog ("" = the realm's root container);
// name = PrivilegeGrantName(grant); body
// {"grantee":..,"type":"root|catalog|namespace|table|view","namespace":[..],"name":..,
//  "privilege":"TABLE_READ_DATA"}
// The grantee is a principal role for root grants and a catalog role otherwise.
struct PrivilegeGrantInfo {
  std::string catalog;  // "" = root
  std::string grantee;
  auth::SecurableType type = auth::SecurableType::kCatalog;
  std::vector<std::string> namespace_levels;  // namespace / table / view parent
  std::string name;                           // table or view name
  auth::Privilege privilege = auth::Privilege::kCATALOG_MANAGE_CONTENT;

  bool operator==(const PrivilegeGrantInfo&) const = default;
};
// "root" | "catalog" | "namespace" | "table" | "view" and back.
std::string_view SecurableTypeKey(auth::SecurableType type);
std::optional<auth::SecurableType> ParseSecurableTypeKey(std::string_view key);
// Deterministic unique key: "<grantee>\x1f<securable JSON>\x1f<PRIVILEGE>".
std::string PrivilegeGrantName(const PrivilegeGrantInfo& grant);
// kIllegalArgument when the privilege is not grantable on that securable, a name is empty,
// or root/catalog scope does not match the type.
Status ValidatePrivilegeGrant(const PrivilegeGrantInfo& grant);
store::AccessRecord EncodePrivilegeGrant(std::string_view realm, const PrivilegeGrantInfo& grant);
Result<PrivilegeGrantInfo> DecodePrivilegeGrant(const store::AccessRecord& record);

// "<a>\x1f<b>" and back (nullopt-like error when the separator is missing).
std::string JoinName(std::string_view a, std::string_view b);
Result<std::pair<std::string, std::string>> SplitName(std::string_view name);

}  // namespace firn::access
