#include "store/sqlite/sqlite_connection_pool.h"

#include "common/macros.h"

namespace firn::store::sqlite {

Result<SqliteReaderPool::Lease> SqliteReaderPool::Acquire() {
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      auto conn = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(conn));
    }
  }
  // Opening happens outside the lock: it touches the file system.
  FIRN_ASSIGN_OR_RETURN(auto conn, SqliteConnection::Open(path_, options_));
  // Readers never write; query_only turns a bug into an error instead of a stray write.
  FIRN_RETURN_IF_ERROR(conn->ExecScript("PRAGMA query_only=ON"));
  return Lease(this, std::move(conn));
}

void SqliteReaderPool::Release(std::unique_ptr<SqliteConnection> conn) {
  std::lock_guard lock(mu_);
  if (static_cast<int>(idle_.size()) < options_.max_idle_readers) {
    idle_.push_back(std::move(conn));
  }
  // Otherwise `conn` closes here.
}

}  // namespace firn::store::sqlite
