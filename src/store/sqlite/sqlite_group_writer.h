// SqliteGroupWriter: runs write transactions on the single writer connection and commits
// concurrent writers together (group commit), so N waiting commits share one WAL fsync
// instead of paying N. Durability is unchanged: synchronous=FULL, and nobody is told
// "committed" before the COMMIT that holds their change has returned.
//
// How: writers queue up; the writer at the head becomes the leader, takes up to kMaxBatch
// queued writes, runs them in one BEGIN IMMEDIATE transaction — each inside its own SAVEPOINT,
// so a write that fails (lost CAS, name taken) is rolled back alone — commits once, and wakes
// the others with their own outcome. Writes apply in queue order, exactly as if run one by one.
//
// Thread-safety: Run() is safe from any thread. Ownership: owns the writer connection.
// Errors: a write's own error is returned as is. If the shared BEGIN fails, or SQLite aborts
// the whole transaction, every write of the batch gets kServiceUnavailable (nothing changed).
// If COMMIT fails, writes that had succeeded get kCommitStateUnknown (kServiceUnavailable when
// SQLite reports busy: then nothing was written).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "common/result.h"
#include "store/sqlite/sqlite_connection.h"

namespace firn::store::sqlite {

class SqliteGroupWriter {
 public:
  static constexpr size_t kMaxBatch = 64;

  explicit SqliteGroupWriter(std::unique_ptr<SqliteConnection> conn) : conn_(std::move(conn)) {}

  // Runs `body` inside a write transaction; returns once its outcome is durable or failed.
  // `body` runs on some writer's thread (maybe not the caller's) with exclusive use of the
  // connection; it must not block on other writers.
  Status Run(const std::function<Status(SqliteConnection&)>& body);

 private:
  struct Pending {
    const std::function<Status(SqliteConnection&)>* body;
    Status status;
    bool done = false;
    std::condition_variable cv;
  };

  void ExecuteBatch(const std::vector<Pending*>& batch);

  std::mutex mu_;
  std::deque<Pending*> queue_;                  // guarded by mu_; front = current leader
  std::unique_ptr<SqliteConnection> conn_;      // used only by the current leader
};

}  // namespace firn::store::sqlite
