#include "store/postgres/postgres_catalog_store.h"

#include <random>
#include <thread>
#include <utility>

#include "common/macros.h"
#include "store/postgres/pg_connection_pool.h"
#include "store/postgres/pg_migrations.h"
#include "store/sql/sql_catalog_store.h"

namespace firn::store {
namespace {

using postgres::OnLoss;
using postgres::Param;
using postgres::PgConnection;
using postgres::PgConnectionPool;
using postgres::PgResult;
using postgres::PostgresOptions;

class PgRow final : public sql::Row {
 public:
  PgRow(const PgResult& res, int row) : res_(res), row_(row) {}
  std::string_view Text(int col) const override { return res_.Text(row_, col); }
  int64_t Int(int col) const override { return res_.Int(row_, col); }
  bool IsNull(int col) const override { return res_.IsNull(row_, col); }

 private:
  const PgResult& res_;
  int row_;
};

// One pooled connection for one Runner attempt. `write_loss` is what a lost connection means
// for a writing statement: outcome unknown when it runs in autocommit (it is its own commit).
class PgSession final : public sql::Session {
 public:
  PgSession(PgConnection& conn, OnLoss write_loss) : conn_(conn), write_loss_(write_loss) {}

  Status Query(std::string_view text, sql::Params params, sql::RowFn on_row) override {
    FIRN_ASSIGN_OR_RETURN(PgResult res,
                          conn_.Execute(text, ToParams(params), OnLoss::kNothingCommitted));
    return EachRow(res, on_row);
  }

  Result<int64_t> Exec(std::string_view text, sql::Params params, sql::RowFn on_row) override {
    FIRN_ASSIGN_OR_RETURN(PgResult res, conn_.Execute(text, ToParams(params), write_loss_));
    FIRN_RETURN_IF_ERROR(EachRow(res, on_row));
    return res.Affected();
  }

  bool HasRowLocks() const override { return true; }

 private:
  static std::vector<Param> ToParams(sql::Params params) {
    std::vector<Param> out;
    out.reserve(params.size());
    for (const sql::Value& v : params) {
      if (const auto* t = v.text()) {
        out.emplace_back(*t);
      } else if (const auto* n = v.number()) {
        out.emplace_back(*n);
      } else {
        out.emplace_back(std::nullopt);
      }
    }
    return out;
  }

  static Status EachRow(const PgResult& res, sql::RowFn on_row) {
    for (int row = 0; row < res.Rows(); ++row) FIRN_RETURN_IF_ERROR(on_row(PgRow(res, row)));
    return Ok();
  }

  PgConnection& conn_;
  OnLoss write_loss_;
};

// READ COMMITTED on a bounded pool. Reads and single-statement writes run in autocommit (one
// round trip); transactions are BEGIN … COMMIT. A body is rerun on a retryable race (bounded),
// and once more on a fresh connection when the connection was lost before anything could have
// committed.
class PgRunner final : public sql::Runner {
 public:
  PgRunner(std::string url, PostgresOptions options)
      : options_(options), pool_(std::move(url), std::move(options)) {}

  Status Read(sql::ReadMode, FunctionRef<Status(sql::Session&)> body) override {
    // Check-then-list needs no snapshot here: a namespace with children cannot be dropped
    // between the two statements, and each statement sees committed rows.
    return Run(/*transaction=*/false, OnLoss::kNothingCommitted, body);
  }

  Status Write(sql::WriteMode mode, FunctionRef<Status(sql::Session&)> body) override {
    switch (mode) {
      case sql::WriteMode::kSingle:
        return Run(/*transaction=*/false, OnLoss::kOutcomeUnknown, body);
      case sql::WriteMode::kIdempotent:
        return Run(/*transaction=*/false, OnLoss::kNothingCommitted, body);
      case sql::WriteMode::kTransaction:
        break;
    }
    return Run(/*transaction=*/true, OnLoss::kNothingCommitted, body);
  }

 private:
  Status Run(bool transaction, OnLoss write_loss, FunctionRef<Status(sql::Session&)> body) {
    for (int attempt = 1;; ++attempt) {
      auto lease = pool_.Acquire(/*check_alive=*/true);
      if (!lease) return Fail(std::move(lease).error());
      PgConnection& conn = **lease;
      PgSession session(conn, write_loss);
      Status result = Attempt(transaction, conn, session, body);
      if (result) return result;
      const bool retryable = conn.LastFailureIsRetryable();
      const bool lost = conn.IsBroken();
      if (transaction && !lost && conn.InTransaction()) {
        // A failed ROLLBACK leaves the connection in a transaction; the pool then drops it.
        (void)conn.ExecuteScript("ROLLBACK");
      }
      bool again = false;
      if (retryable) {
        again = attempt < options_.max_attempts;
      } else if (lost && result.error().kind == ErrorKind::kServiceUnavailable) {
        again = attempt == 1;  // nothing committed: a stale connection is worth one more try
      }
      if (!again) return result;
      Backoff(attempt);
    }
  }

  static Status Attempt(bool transaction, PgConnection& conn, PgSession& session,
                        FunctionRef<Status(sql::Session&)> body) {
    if (!transaction) return body(session);
    FIRN_RETURN_IF_ERROR(conn.ExecuteScript("BEGIN"));
    FIRN_RETURN_IF_ERROR(body(session));
    return conn.ExecuteScript("COMMIT", OnLoss::kOutcomeUnknown);
  }

  static void Backoff(int attempt) {
    thread_local std::minstd_rand rng(std::random_device{}());
    std::uniform_int_distribution<int> jitter(1, 5 * attempt);
    std::this_thread::sleep_for(std::chrono::milliseconds(jitter(rng)));
  }

  const PostgresOptions options_;
  PgConnectionPool pool_;
};

}  // namespace

Result<std::unique_ptr<CatalogStore>> OpenPostgresStore(const std::string& url,
                                                        const PostgresOptions& options) {
  if (options.max_connections < 1 || options.max_attempts < 1) {
    return Fail(ErrorKind::kIllegalArgument,
                "PostgreSQL pool size and attempts must be at least 1");
  }
  {
    FIRN_ASSIGN_OR_RETURN(auto conn, PgConnection::Open(url, options));
    FIRN_RETURN_IF_ERROR(postgres::Migrate(*conn, options.schema));
  }
  return NewSqlCatalogStore(std::make_unique<PgRunner>(url, options));
}

}  // namespace firn::store
