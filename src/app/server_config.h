// ServerConfig: everything `firn serve` needs, from (lowest to highest precedence) defaults,
// a config file, FIRN_* environment variables and command-line flags.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/input_rules.h"
#include "common/result.h"
#include "common/secret.h"

namespace firn::app {

struct ServerConfig {
  std::string data_dir = ".firn";
  std::string listen = "127.0.0.1:8181";
  std::string db_url;     // "sqlite:///abs/path" or "postgresql://user@host/db"; default
                          // sqlite://<data-dir>/firn.db. Never holds a password (see Finalize).
  Secret db_password;     // PostgreSQL password: db_password_file or FIRN_DB_PASSWORD
  std::string warehouse;  // default file://<abs data-dir>/warehouse
  // Where catalogs may keep data (docs/storage.md): comma-separated locations; default the
  // warehouse. No catalog's base or allowed location, and no file Firn writes, leaves them.
  std::string storage_roots;
  std::string catalog_name = "default";
  std::string log_level = "info";
  uint64_t max_body_bytes = 16u << 20;
  // Open connections at once; one more is answered 503 and closed at accept.
  int max_connections = 1024;
  // Request bodies being read or handled, all connections together (>= max_body_bytes);
  // a body that does not fit is answered 503 + Retry-After without being read.
  uint64_t max_inflight_body_bytes = 256u << 20;
  int io_threads = 2;
  int worker_threads = 16;
  int max_queued = 1024;

  // Input limits (docs/limits.md); the defaults are catalog::InputLimits'.
  uint64_t max_property_key_bytes = catalog::InputLimits{}.properties.max_key_bytes;
  uint64_t max_property_value_bytes = catalog::InputLimits{}.properties.max_value_bytes;
  uint64_t max_properties_bytes = catalog::InputLimits{}.properties.max_total_bytes;
  uint64_t max_properties = catalog::InputLimits{}.properties.max_count;
  uint64_t max_metadata_file_bytes = catalog::InputLimits{}.max_metadata_file_bytes;

  // S3-compatible storage for s3:// warehouses (unset endpoint and keys = file: only).
  std::string s3_endpoint;
  std::string s3_region = "us-east-1";
  std::string s3_access_key_id;
  Secret s3_secret_access_key;  // or s3_secret_access_key_file
  Secret s3_session_token;
  bool s3_path_style_access = true;
  // Credential vending (docs/vending.md): the fallbacks for an S3 catalog's storage profile
  // fields it leaves empty. The server's own keys above sign the STS calls.
  std::string s3_role_arn;         // role vended credentials are assumed from
  std::string s3_client_endpoint;  // endpoint clients are given; empty: s3_endpoint
  std::string s3_sts_endpoint;     // STS endpoint; empty: s3_endpoint
  bool s3_sts_unavailable = false;  // the store has no STS: never vend, sign instead
  int64_t vended_credentials_seconds = 3600;  // 900 .. 43200
  // A client that asked for vended credentials where none can be vended gets 400 (Polaris's
  // answer) instead of its table without credentials and a warning header.
  bool vending_strict = false;
  // Named server-side S3 key sets a catalog's storage profile refers to by `storageName`
  // (docs/vending.md, "Server-side keys"): "name=/path/to/keys,name2=/path2", each file holding
  // `access_key_id = …`, `secret_access_key = …` and optionally `session_token = …`. The keys
  // never enter the database or the API; every instance must configure the same names.
  std::string s3_key_sets;

  // Soft delete (docs/soft-delete.md): how long a dropped table or view is kept, restorable,
  // unless its catalog's firn.drop.retention says otherwise. "7d", "12h", "3600"; "0" = off.
  std::string drop_retention = "7d";
  // How long engines' metrics reports are kept, listable (docs/operations.md); "0" = they are
  // accepted and not stored.
  std::string metrics_report_retention = "7d";
  // How often a loaded table version is checked, off the request, for another catalog's
  // metadata files (docs/ownership-claims.md). "5s", "1m", "0" = only commits check.
  std::string load_check_interval = "5s";

  // Identity (docs/auth.md). auth: "on" (default) or "off" (FIRN_AUTH=off: no checks at all).
  bool auth = true;
  // GET /metrics and the request counters (docs/operations.md): "on" (default) or "off".
  bool metrics = true;
  // HOST:PORT of a separate listener for /health, /ready and /metrics (docs/operations.md);
  // when set they leave the API listener. "" = served beside the API.
  std::string ops_listen;
  // Where event sinks may point: comma-separated URL prefixes (docs/events.md, "Where sinks may
  // point"). "" = any http(s) URL.
  std::string event_sink_urls;
  std::string realm_header = "Polaris-Realm";
  std::string default_realm = "default";
  int64_t token_lifetime = 3600;  // seconds, >= kMinTokenLifetimeSeconds outside test mode
  std::string bootstrap_admin = "admin";  // admin principal of the first-start bootstrap
  // Key-encryption key sealing the signing keys (docs/auth.md, "Signing keys at rest"): kek
  // (FIRN_KEK) or kek_file (FIRN_KEK_FILE, --kek-file). Required for PostgreSQL; for SQLite the
  // default is the file DefaultKekPath names, generated on first start. previous_kek(_file)
  // only opens keys (during a KEK rotation).
  Secret kek;
  Secret previous_kek;
  // One external OIDC issuer (empty oidc_issuer = none).
  std::string oidc_issuer;
  std::string oidc_jwks_file;
  std::string oidc_jwks_url;
  std::string oidc_audience;
  std::string oidc_subject_claim = "sub";
  std::string oidc_roles_claim = "roles";
  std::string oidc_role_prefix;
  std::string oidc_realm;  // default: default_realm

  // The web console at /ui (docs/console.md): on (default) or off.
  bool console = true;

  // Test mode: FIRN_TEST_MODE=on in the environment only (no flag, no config-file key). It
  // admits a token_lifetime down to kTestModeMinTokenLifetimeSeconds so expiry tests wait
  // seconds instead of minutes; `firn serve` logs a warning when it is on. Not for production.
  bool test_mode = false;
};

// The shortest token_lifetime a deployment may configure, and the shortest in test mode.
inline constexpr int64_t kMinTokenLifetimeSeconds = 60;
inline constexpr int64_t kTestModeMinTokenLifetimeSeconds = 1;

// Reads `key = value` lines (TOML subset: strings in double quotes, integers, # comments).
// Keys match the field names above with '-' or '_' (e.g. data-dir). Unknown keys are errors.
Status ApplyConfigFile(const std::string& path, ServerConfig& config);
// FIRN_DATA_DIR, FIRN_LISTEN, FIRN_DB, FIRN_WAREHOUSE, FIRN_CATALOG_NAME, FIRN_LOG_LEVEL,
// FIRN_S3_ENDPOINT, FIRN_S3_SECRET_ACCESS_KEY(_FILE), ... (each setting's name, upper-cased),
// and FIRN_TEST_MODE (on|off), which only the environment sets.
Status ApplyEnvironment(ServerConfig& config);
// Applies one setting by its name (as in the config file).
Status ApplySetting(const std::string& key, const std::string& value, ServerConfig& config);
// The storage roots, normalised (Finalize must have run: empty means the warehouse).
// kIllegalArgument for a root that is not an absolute location.
Result<std::vector<std::string>> StorageRootsOf(const ServerConfig& config);
// The default catalog's base location on a new deployment: a folder named after the catalog
// inside the warehouse, so further catalogs fit beside it. An existing deployment keeps the
// base its catalog was created with.
// A realm other than the default one keeps its catalogs under `<warehouse>/<realm>/`.
std::string DefaultCatalogBase(const ServerConfig& config, const std::string& realm = "");

// Fills derived defaults (db_url, warehouse) and checks values (token_lifetime below
// kMinTokenLifetimeSeconds is refused unless test_mode). A password inside a
// postgresql:// db_url is moved into db_password (unless one is set) so the URL can be logged.
// Creates the data directory owner-only (0700) and tightens an existing looser one (logged).
Status Finalize(ServerConfig& config);

// A secret file's content without trailing newlines; kIllegalArgument when unreadable (the
// message names the path, never the content).
Result<Secret> ReadSecretFile(const std::string& path);

}  // namespace firn::app
