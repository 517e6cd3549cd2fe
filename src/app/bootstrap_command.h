// `firn bootstrap`, `firn admin rotate-keys`, `rotate-kek` and `generate-kek`: argument
// handling is the CLI's; these open the database like `firn serve` (same defaults: --data-dir,
// FIRN_DB, the key-encryption key of app/kek_setup.h, ...), do the work, print a short result
// to stdout (errors to stderr) and return the exit code (0 done, 1 failed, 2 bad arguments).
// bootstrap and rotate-keys prepare the stored keys exactly as serve does (a wrong KEK is
// refused before anything is written; keys stored in the clear are sealed).
//
// bootstrap prints the admin credentials exactly once, as one JSON line
// {"realm","principal","client_id","client_secret"} — the secret only when Firn generated it
// (credentials from FIRN_BOOTSTRAP_CREDENTIALS[_FILE] are not echoed). A second run prints
// {"realm":..,"bootstrapped":false,...} and changes nothing except creating the configured
// catalog if it is missing. Thread-safety: run once, from main.
#pragma once

#include <cstdint>
#include <string>

#include "app/server_config.h"

namespace firn::app {

// Where the database is, as for serve: empty fields fall back to FIRN_* and then defaults.
struct StoreFlags {
  std::string db_url;
  std::string data_dir;
  std::string password_file;  // PostgreSQL (else FIRN_DB_PASSWORD)
  std::string kek_file;           // else FIRN_KEK[_FILE], else the SQLite default file
  std::string previous_kek_file;  // also opens keys (during a KEK rotation)
  std::string catalog_name;
  std::string warehouse;
  std::string storage_roots;
  std::string config_file;  // `key = value` settings, as `firn serve --config`
};
// The config file, then FIRN_* environment, then the flags (as `firn serve` reads them), then
// Finalize (derived defaults).
Result<ServerConfig> ConfigFromFlags(const StoreFlags& flags);

struct BootstrapArgs {
  StoreFlags store;
  std::string realm = "default";
  std::string admin;    // required: no fixed admin name
  bool no_catalog = false;  // do not create the configured catalog
};

int RunBootstrap(const BootstrapArgs& args);

struct RotateKeysArgs {
  StoreFlags store;
  std::string realm = "default";
  int64_t overlap_seconds = 3900;  // ≥ token lifetime (1 h) + leeway
};

int RunRotateKeys(const RotateKeysArgs& args);

struct RotateKekArgs {
  StoreFlags store;
  std::string new_kek_file;  // required when the KEK is configured; else generated
};

// Re-seals every stored signing key under a new KEK (app/kek_setup.h RotateKek) and prints
// {"rotated":true,"previous_kek_id","kek_id","resealed",...}. Never prints a KEK.
int RunRotateKek(const RotateKekArgs& args);

// Prints a new KEK (32 random bytes, base64url) on stdout, or writes it to `to` (mode 0600,
// never replacing a file) and prints its id.
int RunGenerateKek(const std::string& to);

}  // namespace firn::app
