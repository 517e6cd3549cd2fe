// AccessSnapshot: everything the hot path needs to authenticate and authorise a request,
// decoded once from the AccessStore rows and then shared read-only.
//
// Contract: immutable after BuildAccessSnapshot; share as shared_ptr<const AccessSnapshot>.
// Lookups are hash-map finds with string_view keys; nothing here touches the database.
// A newer snapshot replaces an older one whole (AccessState), so a request sees one
// consistent version of keys, principals, catalogs and grants.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "auth/authorizer.h"
#include "auth/jws_key.h"
#include "auth/key_encryption.h"
#include "auth/key_ring.h"
#include "catalog/catalog_registry.h"
#include "common/result.h"
#include "store/access_store.h"

namespace firn::access {

using Properties = std::map<std::string, std::string>;

struct PrincipalInfo {
  std::string id;                    // random, stable; the token's "sub"
  std::string name;
  std::string client_id;
  std::string secret_hash;           // current secret (encoded scrypt)
  std::string previous_secret_hash;  // still accepted until the next rotation ("" = none)
  int64_t credential_version = 1;    // tokens with a lower "ver" are refused
  Properties properties;
  int64_t entity_version = 0;
  int64_t created_ms = 0;
  int64_t updated_ms = 0;
};

struct RoleInfo {  // principal role or catalog role
  std::string name;
  std::string catalog;  // "" for principal roles
  Properties properties;
  bool federated = false;  // principal roles only (Polaris "federated")
  int64_t entity_version = 0;
  int64_t created_ms = 0;
  int64_t updated_ms = 0;
};

struct CatalogEntry {
  std::shared_ptr<const catalog::CatalogInfo> info;
  std::string body;  // the stored Polaris Catalog JSON (management GET returns it, updated)
  int64_t entity_version = 0;
  int64_t created_ms = 0;
  int64_t updated_ms = 0;
};

struct StrHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <typename V>
using StrMap = std::unordered_map<std::string, V, StrHash, std::equal_to<>>;

struct RealmState {
  std::string name;
  std::shared_ptr<const auth::KeyRing> keys;              // null until bootstrapped
  std::vector<auth::VerificationKey> verification_keys;  // keys usable at build time
  StrMap<PrincipalInfo> principals;          // by name
  StrMap<std::string> principal_by_id;       // id → name
  StrMap<std::string> principal_by_client;   // client id → name
  StrMap<RoleInfo> principal_roles;          // by name
  StrMap<CatalogEntry> catalogs;             // by name
  StrMap<StrMap<RoleInfo>> catalog_roles;    // catalog → name → role
  // Raw link rows for management listings (kPrincipalRoleGrant, kCatalogRoleGrant,
  // kPrivilegeGrant), in name order.
  std::vector<store::AccessRecord> links;
};

struct AccessSnapshot {
  int64_t version = 0;
  StrMap<RealmState> realms;
  std::shared_ptr<const auth::GrantSnapshot> grants;  // all realms

  const RealmState* FindRealm(std::string_view realm) const;
  const PrincipalInfo* FindPrincipal(std::string_view realm, std::string_view name) const;
  std::shared_ptr<const catalog::CatalogInfo> FindCatalog(std::string_view realm,
                                                          std::string_view name) const;
};

// Decodes rows into a snapshot. Rows that do not decode are skipped and logged (never fatal:
// one bad row must not lock every user out); links to missing entities are ignored.
// Signing keys are opened with `keks`. A key row sealed with a KEK this process does not hold
// (another process re-sealed it: `firn admin rotate-kek`) keeps the key `previous` already
// holds under that realm and kid, with a warning, so a running instance keeps signing and
// verifying until it is restarted with the new KEK.
Result<std::shared_ptr<const AccessSnapshot>> BuildAccessSnapshot(
    const store::AccessRows& rows, int64_t now_seconds, const auth::KeyEncryptionKeys& keks,
    const AccessSnapshot* previous = nullptr);

}  // namespace firn::access
