#include "store/postgres/pg_connection_pool.h"

#include <optional>

namespace firn::store::postgres {

PgConnectionPool::~PgConnectionPool() { metrics_.open.Add(-open_); }

Result<PgConnectionPool::Lease> PgConnectionPool::Acquire(bool check_alive) {
  const auto deadline = std::chrono::steady_clock::now() + options_.acquire_timeout;
  std::optional<std::chrono::steady_clock::time_point> waited_since;
  auto lend = [&](std::unique_ptr<PgConnection> conn) {
    metrics_.in_use.Add(1);
    if (waited_since) {
      metrics_.wait_seconds.Observe(std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::steady_clock::now() - *waited_since));
    }
    return Lease(this, std::move(conn));
  };
  std::unique_lock lock(mu_);
  while (true) {
    while (!idle_.empty()) {
      std::unique_ptr<PgConnection> conn = std::move(idle_.back());
      idle_.pop_back();
      if (!check_alive || conn->LooksAlive()) return lend(std::move(conn));
      --open_;  // the server closed it; forget it and look further
      metrics_.open.Add(-1);
      metrics_.discarded.Inc();
    }
    if (open_ < options_.max_connections) break;
    if (!waited_since) {
      waited_since = std::chrono::steady_clock::now();
      metrics_.waits.Inc();
    }
    if (freed_.wait_until(lock, deadline) == std::cv_status::timeout && idle_.empty() &&
        open_ >= options_.max_connections) {
      metrics_.timeouts.Inc();
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
    metrics_.connect_errors.Inc();
    return std::unexpected(opened.error());
  }
  connect_failed_at_ = {};
  metrics_.open.Add(1);
  return lend(std::move(*opened));
}

void PgConnectionPool::Release(std::unique_ptr<PgConnection> conn) {
  std::unique_ptr<PgConnection> discard;
  metrics_.in_use.Add(-1);
  {
    std::lock_guard lock(mu_);
    if (conn->IsBroken() || conn->InTransaction()) {
      --open_;
      discard = std::move(conn);
      metrics_.open.Add(-1);
      metrics_.discarded.Inc();
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
