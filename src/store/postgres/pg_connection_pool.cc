#include "store/postgres/pg_connection_pool.h"

namespace firn::store::postgres {

Result<PgConnectionPool::Lease> PgConnectionPool::Acquire(bool check_alive) {
  const auto deadline = std::chrono::steady_clock::now() + options_.acquire_timeout;
  std::unique_lock lock(mu_);
  while (true) {
    while (!idle_.empty()) {
      std::unique_ptr<PgConnection> conn = std::move(idle_.back());
      idle_.pop_back();
      if (!check_alive || conn->LooksAlive()) return Lease(this, std::move(conn));
      --open_;  // the server closed it; forget it and look further
    }
    if (open_ < options_.max_connections) break;
    if (freed_.wait_until(lock, deadline) == std::cv_status::timeout && idle_.empty() &&
        open_ >= options_.max_connections) {
      return Fail(ErrorKind::kServiceUnavailable, "The catalog database is busy; retry later",
                  "no pooled PostgreSQL connection freed up within the acquire timeout");
    }
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - connect_failed_at_ < options_.reconnect_backoff) return Fail(last_connect_error_);
  ++open_;
  lock.unlock();
  auto opened = PgConnection::Open(url_, options_);
  lock.lock();
  if (!opened) {
    --open_;
    connect_failed_at_ = std::chrono::steady_clock::now();
    last_connect_error_ = opened.error();
    freed_.notify_one();
    return std::unexpected(opened.error());
  }
  connect_failed_at_ = {};
  return Lease(this, std::move(*opened));
}

void PgConnectionPool::Release(std::unique_ptr<PgConnection> conn) {
  std::unique_ptr<PgConnection> discard;
  {
    std::lock_guard lock(mu_);
    if (conn->IsBroken() || conn->InTransaction()) {
      --open_;
      discard = std::move(conn);
    } else {
      idle_.push_back(std::move(conn));
    }
  }
  freed_.notify_one();
  // Closed outside the lock: PQfinish may still write a goodbye to the socket.
}

int PgConnectionPool::OpenCount() {
  std::lock_guard lock(mu_);
  return open_;
}

}  // namespace firn::store::postgres
