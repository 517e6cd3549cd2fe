// PgConnectionPool: a bounded set of PgConnections shared by all threads of one store.
//
// Connections are opened lazily, up to options.max_connections, and reused most-recent-first
// (warm statement caches). A connection returned broken, or still inside a transaction, is
// discarded; the next Acquire opens a fresh one, so the store recovers from a database restart
// by itself. After a failed connect, Acquire fails fast for options.reconnect_backoff instead
// of hammering a server that is down.
//
// Thread-safety: Acquire and lease destruction are safe from any thread.
// Errors: kServiceUnavailable when no connection can be opened, or none frees up within
// options.acquire_timeout. Ownership: the pool owns every connection; a Lease borrows one and
// must not outlive the pool.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "store/pool_lease.h"
#include "store/pool_metrics.h"
#include "store/postgres/pg_connection.h"
#include "store/postgres/pg_options.h"

namespace firn::store::postgres {

class PgConnectionPool {
 public:
  using Lease = PoolLease<PgConnectionPool, PgConnection>;

  PgConnectionPool(std::string url, PostgresOptions options)
      : url_(std::move(url)), options_(std::move(options)) {}
  ~PgConnectionPool();  // its open connections leave firn_db_connections

  // `check_alive`: drop idle connections the server already closed before handing one out
  // (writes use it so a stale socket is not mistaken for a lost commit).
  Result<Lease> Acquire(bool check_alive);

  // Connections currently open (idle + leased).
  int OpenCount();

 private:
  friend Lease;
  void Release(std::unique_ptr<PgConnection> conn);

  const std::string url_;
  const PostgresOptions options_;
  std::mutex mu_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<PgConnection>> idle_;  // guarded by mu_
  int open_ = 0;                                     // guarded by mu_: idle + leased
  std::chrono::steady_clock::time_point connect_failed_at_{};  // guarded by mu_
  Error last_connect_error_;                                   // guarded by mu_
  const PoolMetrics& metrics_ = PoolMetricsFor("postgres");
};

}  // namespace firn::store::postgres
