#include "store/sqlite/sqlite_connection_pool.h"

#include "common/macros.h"

namespace firn::store::sqlite {

SqliteReaderPool::~SqliteReaderPool() {
  metrics_.open.Add(-static_cast<int64_t>(idle_.size()));
}

Result<SqliteReaderPool::Lease> SqliteReaderPool::Acquire() {
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      auto conn = std::move(idle_.back());
      idle_.pop_back();
      metrics_.in_use.Add(1);
      return Lease(this, std::move(conn));
    }
  }
  // Opening happens outside the lock: it touches the file system.
  auto conn = SqliteConnection::Open(path_, options_);
  // Readers never write; query_only turns a bug into an error instead of a stray write.
  Status ready = conn ? (*conn)->ExecScript("PRAGMA query_only=ON") : Status(Fail(conn.error()));
  if (!ready) {
    metrics_.connect_errors.Inc();
    return std::unexpected(ready.error());
  }
  metrics_.open.Add(1);
  metrics_.in_use.Add(1);
  return Lease(this, std::move(*conn));
}

void SqliteReaderPool::Release(std::unique_ptr<SqliteConnection> conn) {
  metrics_.in_use.Add(-1);
  std::lock_guard lock(mu_);
  if (static_cast<int>(idle_.size()) < options_.max_idle_readers) {
    idle_.push_back(std::move(conn));
  } else {
    metrics_.open.Add(-1);  // `conn` closes here
  }
}

}  // namespace firn::store::sqlite
