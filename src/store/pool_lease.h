// PoolLease: one connection borrowed from a backend's connection pool, handed back when the
// lease ends (both backends' pools lend connections this way).
//
// Contract: `Pool` has a `Release(std::unique_ptr<Connection>)` the lease may call (make the
// lease a friend when Release is private); the pool decides there whether to keep or close the
// connection. A lease is moved, never copied or assigned; a moved-from lease gives nothing back.
// Thread-safety: a lease is used by one thread at a time; Release must be safe from any thread.
// Ownership: the lease owns its connection until it ends; the pool must outlive every lease.
#pragma once

#include <memory>
#include <utility>

namespace firn::store {

template <typename Pool, typename Connection>
class PoolLease {
 public:
  PoolLease(Pool* pool, std::unique_ptr<Connection> conn)
      : pool_(pool), conn_(std::move(conn)) {}
  PoolLease(PoolLease&&) noexcept = default;
  PoolLease& operator=(PoolLease&&) = delete;
  ~PoolLease() {
    if (conn_) pool_->Release(std::move(conn_));
  }
  Connection& operator*() const { return *conn_; }
  Connection* operator->() const { return conn_.get(); }

 private:
  Pool* pool_;
  std::unique_ptr<Connection> conn_;
};

}  // namespace firn::store
