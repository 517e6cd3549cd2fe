// Bootstrap: creates a realm with its signing key, an admin principal holding the
// `service_admin` principal role (SERVICE_MANAGE_ACCESS on the root container) and, when
// given, a catalog with a `catalog_admin` catalog role (CATALOG_MANAGE_ACCESS +
// CATALOG_MANAGE_CONTENT) assigned to service_admin. Also signing-key rotation and the sealing
// of stored signing keys with a key-encryption key.
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
#include <vector>
#include <string_view>

#include "auth/key_encryption.h"
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

// The realm's signing key is sealed with keks.primary().
Result<BootstrapResult> Bootstrap(store::AccessStore& store, const BootstrapOptions& options,
                                  const auth::KeyEncryptionKeys& keks, int64_t now_ms);

// Creates the catalog entity (and its catalog_admin role, granted to service_admin when that
// exists) unless a catalog of that name exists. Returns the new access version, 0 if nothing
// was written.
Result<int64_t> EnsureCatalog(store::AccessStore& store, std::string_view realm,
                              const catalog::CatalogInfo& info, int64_t now_ms);

// Makes a new Ed25519 key active; the previous active key keeps verifying for
// `overlap_seconds` (≥ the token lifetime). Retired keys past their window are deleted. Every
// kept key is opened with `keks` and written back sealed with keks.primary(), so a wrong KEK
// fails here before anything is written. kNotFound when the realm has no signing key; the
// KEK errors of DecodeSigningKey. Returns the new access version.
Result<int64_t> RotateSigningKeys(store::AccessStore& store, std::string_view realm,
                                  const auth::KeyEncryptionKeys& keks, int64_t overlap_seconds,
                                  int64_t now_seconds);

// Sealing the stored signing keys of every realm (docs/auth.md, "Signing keys at rest").
enum class SealMode {
  kPlaintextOnly,  // start-up: seal rows an earlier version wrote in the clear
  kAll,            // KEK rotation: also move rows off every KEK but keks.primary()
};
struct SealResult {
  int64_t sealed = 0;    // plaintext rows now sealed with the primary KEK
  int64_t resealed = 0;  // rows moved from another KEK to the primary
  int64_t kept = 0;      // rows left as they were
  int64_t access_version = 0;  // after the write (0 = nothing written)
};
// Opens every signing-key row with `keks` — the check that this process holds the KEK the
// database was sealed with — then rewrites the rows `mode` selects in one atomic write.
// kIllegalArgument (naming realm, kid and KEK ids, never key material) when a row is sealed
// with a KEK not in `keks` or does not open under it; nothing is written then. A concurrent
// writer (kCommitFailed) makes it re-read and retry.
Result<SealResult> SealSigningKeys(store::AccessStore& store, const auth::KeyEncryptionKeys& keks,
                                   SealMode mode, int64_t now_ms);

// Parses FIRN_BOOTSTRAP_CREDENTIALS text: "<realm>,<client-id>,<secret>" entries separated by
// ';' (or newlines). Returns the entry for `realm`, nullopt when there is none.
Result<std::optional<BootstrapCredentials>> ParseBootstrapCredentials(std::string_view text,
                                                                      std::string_view realm);
// From FIRN_BOOTSTRAP_CREDENTIALS, else the file named by FIRN_BOOTSTRAP_CREDENTIALS_FILE.
Result<std::optional<BootstrapCredentials>> BootstrapCredentialsFromEnv(std::string_view realm);
// Every realm those name, in order (each once: its first entry).
Result<std::vector<std::string>> BootstrapRealmsFromEnv();

}  // namespace firn::access
