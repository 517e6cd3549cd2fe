// ServerConfig: everything `firn serve` needs, from (lowest to highest precedence) defaults,
// a config file, FIRN_* environment variables and command-line flags.
#pragma once

#include <cstdint>
#include <string>

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
  std::string catalog_name = "default";
  std::string log_level = "info";
  uint64_t max_body_bytes = 16u << 20;
  int io_threads = 2;
  int worker_threads = 16;
  int max_queued = 1024;

  // S3-compatible storage for s3:// warehouses (unset endpoint and keys = file: only).
  std::string s3_endpoint;
  std::string s3_region = "us-east-1";
  std::string s3_access_key_id;
  Secret s3_secret_access_key;  // or s3_secret_access_key_file
  Secret s3_session_token;
  bool s3_path_style_access = true;

  // Identity (docs/auth.md). auth: "on" (default) or "off" (FIRN_AUTH=off: no checks at all).
  bool auth = true;
  std::string realm_header = "Polaris-Realm";
  std::string default_realm = "default";
  int64_t token_lifetime = 3600;  // seconds
  std::string bootstrap_admin = "admin";  // admin principal of the first-start bootstrap
  // One external OIDC issuer (empty oidc_issuer = none).
  std::string oidc_issuer;
  std::string oidc_jwks_file;
  std::string oidc_jwks_url;
  std::string oidc_audience;
  std::string oidc_subject_claim = "sub";
  std::string oidc_roles_claim = "roles";
  std::string oidc_role_prefix;
  std::string oidc_realm;  // default: default_realm
};

// Reads `key = value` lines (TOML subset: strings in double quotes, integers, # comments).
// Keys match the field names above with '-' or '_' (e.g. data-dir). Unknown keys are errors.
Status ApplyConfigFile(const std::string& path, ServerConfig& config);
// FIRN_DATA_DIR, FIRN_LISTEN, FIRN_DB, FIRN_WAREHOUSE, FIRN_CATALOG_NAME, FIRN_LOG_LEVEL,
// FIRN_S3_ENDPOINT, FIRN_S3_SECRET_ACCESS_KEY(_FILE), ... (each setting's name, upper-cased).
Status ApplyEnvironment(ServerConfig& config);
// Applies one setting by its name (as in the config file).
Status ApplySetting(const std::string& key, const std::string& value, ServerConfig& config);
// Fills derived defaults (db_url, warehouse) and checks values. A password inside a
// postgresql:// db_url is moved into db_password (unless one is set) so the URL can be logged.
Status Finalize(ServerConfig& config);

}  // namespace firn::app
