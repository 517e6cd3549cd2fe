// SqliteReaderPool: hands out read-only connections, one per concurrent reader, so loads run in
// parallel with each other and with the single writer (WAL readers never block on it).
//
// Thread-safety: Acquire() is safe from any thread; a Lease is used by one thread.
// Ownership: the pool owns idle connections; a Lease owns its connection until it is
// destroyed, then gives it back (or closes it when max_idle_readers are already idle).
// The pool must outlive every Lease.
// Errors: Acquire() fails only when a new connection cannot be opened (SqliteError kinds).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "store/pool_lease.h"
#include "store/pool_metrics.h"
#include "store/sqlite/sqlite_connection.h"

namespace firn::store::sqlite {

class SqliteReaderPool {
 public:
  using Lease = PoolLease<SqliteReaderPool, SqliteConnection>;

  SqliteReaderPool(std::string path, SqliteOptions options)
      : path_(std::move(path)), options_(options) {}
  ~SqliteReaderPool();  // its idle connections leave firn_db_connections

  Result<Lease> Acquire();

 private:
  friend Lease;
  void Release(std::unique_ptr<SqliteConnection> conn);

  const std::string path_;
  const SqliteOptions options_;
  std::mutex mu_;
  std::vector<std::unique_ptr<SqliteConnection>> idle_;  // guarded by mu_
  const PoolMetrics& metrics_ = PoolMetricsFor("sqlite");
};

}  // namespace firn::store::sqlite
