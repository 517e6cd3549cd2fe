#include "store/sqlite/sqlite_group_writer.h"

#include <algorithm>

#include "common/macros.h"
#include "store/pool_metrics.h"

namespace firn::store::sqlite {
namespace {

Status RunCached(SqliteConnection& conn, std::string_view sql) {
  FIRN_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql));
  return stmt.Run();
}

bool InTransaction(SqliteConnection& conn) { return sqlite3_get_autocommit(conn.handle()) == 0; }

void RollbackAll(SqliteConnection& conn) {
  if (InTransaction(conn)) (void)RunCached(conn, "ROLLBACK");
}

Error Aborted(const Error& cause) {
  return Error(ErrorKind::kServiceUnavailable, "The catalog database is unavailable",
               "transaction aborted: " + cause.detail);
}

}  // namespace

Status SqliteGroupWriter::Run(const std::function<Status(SqliteConnection&)>& body) {
  Pending self;
  self.body = &body;
  std::unique_lock lock(mu_);
  queue_.push_back(&self);
  if (queue_.front() != &self) {
    const PoolMetrics& metrics = PoolMetricsFor("sqlite");
    metrics.waits.Inc();
    const auto since = std::chrono::steady_clock::now();
    while (!self.done && queue_.front() != &self) self.cv.wait(lock);
    metrics.wait_seconds.Observe(std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - since));
  }
  if (self.done) return std::move(self.status);

  // Leader: take a prefix of the queue and run it while others queue up behind.
  size_t n = std::min(queue_.size(), kMaxBatch);
  std::vector<Pending*> batch(queue_.begin(), queue_.begin() + static_cast<ptrdiff_t>(n));
  lock.unlock();
  ExecuteBatch(batch);
  lock.lock();
  for (size_t i = 0; i < n; ++i) {
    Pending* p = queue_.front();
    queue_.pop_front();
    p->done = true;
    if (p != &self) p->cv.notify_one();
  }
  if (!queue_.empty()) queue_.front()->cv.notify_one();  // the next leader
  return std::move(self.status);
}

void SqliteGroupWriter::ExecuteBatch(const std::vector<Pending*>& batch) {
  SqliteConnection& conn = *conn_;
  if (Status begin = RunCached(conn, "BEGIN IMMEDIATE"); !begin) {
    for (Pending* p : batch) p->status = Fail(begin.error());
    return;
  }
  if (batch.size() == 1) {
    // The common uncontended case: no savepoint needed.
    Pending* p = batch.front();
    p->status = (*p->body)(conn);
    if (!p->status) {
      RollbackAll(conn);
      return;
    }
  } else {
    for (size_t i = 0; i < batch.size(); ++i) {
      Pending* p = batch[i];
      Status sp = RunCached(conn, "SAVEPOINT firn_write");
      if (sp) {
        p->status = (*p->body)(conn);
        if (!p->status && InTransaction(conn)) sp = RunCached(conn, "ROLLBACK TO firn_write");
        if (sp && InTransaction(conn)) sp = RunCached(conn, "RELEASE firn_write");
      }
      if (!sp || !InTransaction(conn)) {
        // SQLite abandoned the transaction (I/O error, full disk...): nothing of this batch
        // is committed. Writes that failed on their own keep their error.
        Error cause = !sp ? sp.error()
                      : !p->status ? p->status.error()
                                   : Error(ErrorKind::kInternal, "", "transaction ended early");
        RollbackAll(conn);
        for (Pending* q : batch) {
          if (q->status) q->status = Fail(Aborted(cause));  // succeeded or never ran
        }
        return;
      }
    }
  }
  Status commit = RunCached(conn, "COMMIT");
  if (commit) return;
  Error error = std::move(commit).error();
  RollbackAll(conn);
  // Busy on COMMIT means nothing reached the WAL; anything else may have.
  Error outcome = error.message == kBusyMessage
                      ? error
                      : Error(ErrorKind::kCommitStateUnknown,
                              "The catalog database failed while committing; the outcome is "
                              "unknown",
                              error.detail);
  for (Pending* p : batch) {
    if (p->status) p->status = Fail(outcome);
  }
}

}  // namespace firn::store::sqlite
