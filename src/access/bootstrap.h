// Bootstrap: creates a realm with its signing key, an admin principal holding the
// `service_admin` principal role (SERVICE_MANAGE_ACCESS on the root container) and, when
// given, a catalog with a `catalog_admin` catalog role (CATALOG_MANAGE_ACCESS +
// CATALOG_MANAGE_CONTENT) assigned to service_admin. Also signing-key rotation.
//
// Contract: idempotent and safe to race — the realm record is created in the same atomic write
// as everything else, so of two concurrent bootstraps exactly one creates and the other reports
// "already bootstrapped". A bootstrapped realm is never changed except that the given catalog is
// created when it is missing. Errors: the store's (kServiceUnavailable ...), kIllegalArgument
// for empty names or malformed credentials. The generated secret is returned once, never
// logged; only its scrypt hash is stored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "catalog/catalog_registry.h"
#include "common/result.h"
#include "common/secret.h"
#include "store/access_store.h"

namespace firn::access {

inline constexpr std::string_view kServiceAdminRole = "service_admin";
inline constexpr std::string_view kCatalogAdminRole = "catalog_admin";

struct BootstrapCredentials {
  std::string client_id;
  Secret secret;
};

struct BootstrapOptions {
  std::string realm;
  std::string admin_name;
  std::optional<BootstrapCredentials> credentials;  // nullopt = generate
  std::optional<catalog::CatalogInfo> catalog;      // ensured on every run
};

struct BootstrapResult {
  bool created = false;          // false: the realm was already bootstrapped
  bool catalog_created = false;  // the given catalog was created by this run
  std::string admin_name;        // set when created
  BootstrapCredentials credentials;  // set only when created
  int64_t access_version = 0;        // version after the last write (0 = nothing written)
};

Result<BootstrapResult> Bootstrap(store::AccessStore& store, const BootstrapOptions& options,
                                  int64_t now_ms);

// Creates the catalog entity (and its catalog_admin role, granted to service_admin when that
// exists) unless a catalog of that name exists. Returns the new access version, 0 if nothing
// was written.
Result<int64_t> EnsureCatalog(store::AccessStore& store, std::string_view realm,
                              const catalog::CatalogInfo& info, int64_t now_ms);

// Makes a new Ed25519 key active; the previous active key keeps verifying for
// `overlap_seconds` (≥ the token lifetime). Retired keys past their window are deleted.
// kNotFound when the realm has no signing key. Returns the new access version.
Result<int64_t> RotateSigningKeys(store::AccessStore& store, std::string_view realm,
                                  int64_t overlap_seconds, int64_t now_seconds);

// Parses FIRN_BOOTSTRAP_CREDENTIALS text: "<realm>,<client-id>,<secret>" entries separated by
// ';' (or newlines). Returns the entry for `realm`, nullopt when there is none.
Result<std::optional<BootstrapCredentials>> ParseBootstrapCredentials(std::string_view text,
                                                                      std::string_view realm);
// From FIRN_BOOTSTRAP_CREDENTIALS, else the file named by FIRN_BOOTSTRAP_CREDENTIALS_FILE.
Result<std::optional<BootstrapCredentials>> BootstrapCredentialsFromEnv(std::string_view realm);

}  // namespace firn::access
