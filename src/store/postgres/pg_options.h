// Settings of the PostgreSQL CatalogStore (connection, pool, timeouts, retries).
//
// Thread-safety: a plain value. Ownership: copied into the store. The password is a Secret: it
// is handed to libpq only and never formatted into a URL, a message or a log line.
#pragma once

#include <chrono>
#include <string>

#include "common/secret.h"

namespace firn::store::postgres {

struct PostgresOptions {
  // Used when set; overrides a password in the URL. Empty = the URL's, PGPASSWORD or .pgpass.
  Secret password;
  // Tables live in this schema (created at open when missing). Empty = the role's search_path.
  std::string schema;
  std::string application_name = "firn";
  // Pool bound: at most this many server connections (each caches its prepared statements).
  int max_connections = 8;
  // libpq counts whole seconds (and treats 1 as 2).
  std::chrono::seconds connect_timeout{3};
  // Server-side cap on any one statement, including lock waits.
  std::chrono::milliseconds statement_timeout{5000};
  // How long a caller waits for a free pooled connection before kServiceUnavailable.
  std::chrono::milliseconds acquire_timeout{5000};
  // After a failed connect, callers fail fast (no new attempt) for this long.
  std::chrono::milliseconds reconnect_backoff{200};
  // Attempts for a transaction that hit a serialization failure, deadlock or a concurrent
  // insert of the same key, before kServiceUnavailable.
  int max_attempts = 5;
};

}  // namespace firn::store::postgres
