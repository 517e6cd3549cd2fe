// PgConnection: one libpq connection with a per-connection cache of prepared statements, and
// the mapping of libpq/SQLSTATE failures onto the CatalogStore error contract.
//
// Thread-safety: none; one thread at a time (the pool hands out exclusive leases).
// Ownership: owns the PGconn. Errors (see MapFailure):
//   connection refused / lost, server shutting down, too many connections, statement timeout
//       → kServiceUnavailable "Catalog database is unavailable" (nothing was changed)
//   connection lost while a statement that may commit was in flight (COMMIT, or a write in
//       autocommit) → kCommitStateUnknown
//   serialization failure, deadlock, unique/foreign-key race → kServiceUnavailable, and
//       LastFailureIsRetryable() is true so the store can rerun the transaction
//   anything else → kInternal "Catalog database error"
// The server's own text goes to Error::detail only.
#pragma once

#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "common/result.h"
#include "store/postgres/pg_options.h"

namespace firn::store::postgres {

inline constexpr std::string_view kUnavailableMessage = "Catalog database is unavailable";
inline constexpr std::string_view kBusyMessage = "The catalog database is busy; retry later";

// What a lost connection means for the statement being sent.
enum class OnLoss {
  kNothingCommitted,  // a read, or a statement inside an open transaction before COMMIT
  kOutcomeUnknown,    // COMMIT, or a write in autocommit: it may have committed
};

// One text-format statement parameter (NULL when empty).
class Param {
 public:
  Param(std::nullopt_t) {}  // NOLINT: implicit by design, like the other alternatives
  Param(std::string_view v) : value_(std::string(v)) {}  // NOLINT
  Param(const std::string& v) : value_(v) {}             // NOLINT
  Param(const char* v) : value_(std::string(v)) {}       // NOLINT
  template <typename T>
    requires std::is_integral_v<T>
  Param(T v) : value_(std::to_string(v)) {}  // NOLINT
  const std::optional<std::string>& value() const { return value_; }

 private:
  std::optional<std::string> value_;
};

class PgResult {
 public:
  explicit PgResult(PGresult* res) : res_(res) {}
  PgResult(PgResult&& other) noexcept : res_(other.res_) { other.res_ = nullptr; }
  PgResult& operator=(PgResult&& other) noexcept;
  PgResult(const PgResult&) = delete;
  PgResult& operator=(const PgResult&) = delete;
  ~PgResult() { PQclear(res_); }

  int Rows() const { return PQntuples(res_); }
  bool IsNull(int row, int col) const { return PQgetisnull(res_, row, col) != 0; }
  std::string_view Text(int row, int col) const;
  int64_t Int(int row, int col) const;
  // Rows changed by INSERT/UPDATE/DELETE.
  int64_t Affected() const;

 private:
  PGresult* res_;
};

// SQLSTATE classes the store treats specially (pure; exposed for tests).
enum class SqlStateClass { kRetryable, kUnavailable, kTimeout, kOther };
SqlStateClass ClassifySqlState(std::string_view sqlstate);

// The Error for a failed statement: `lost` = the connection is gone.
Error MapFailure(std::string_view sqlstate, bool lost, OnLoss on_loss, std::string detail);

class PgConnection {
 public:
  // Connects and applies the session settings (timeouts, search_path).
  // kServiceUnavailable "Catalog database is unavailable" when the server cannot be reached or
  // refuses the login (libpq's reason in detail).
  static Result<std::unique_ptr<PgConnection>> Open(const std::string& url,
                                                    const PostgresOptions& options);

  // Runs `sql` as a prepared statement (prepared once per connection, on first use).
  Result<PgResult> Execute(std::string_view sql, const std::vector<Param>& params,
                           OnLoss on_loss = OnLoss::kNothingCommitted);
  // Runs `sql` (may hold several statements) with the simple query protocol, unprepared.
  Status ExecuteScript(std::string_view sql, OnLoss on_loss = OnLoss::kNothingCommitted);

  // True once the connection is unusable; the pool then discards it.
  bool IsBroken() const { return PQstatus(conn_.get()) != CONNECTION_OK; }
  // True when the last failure was a race the store should retry (serialization, deadlock,
  // unique or foreign-key violation from a concurrent writer).
  bool LastFailureIsRetryable() const { return last_retryable_; }
  // Idle inside a transaction or not idle at all (then not reusable as is).
  bool InTransaction() const { return PQtransactionStatus(conn_.get()) != PQTRANS_IDLE; }
  // Non-blocking: false if the server already closed this idle connection (restart, admin
  // termination). Reads what is buffered on the socket; never sends anything.
  bool LooksAlive();
  int BackendPid() const { return PQbackendPID(conn_.get()); }

 private:
  explicit PgConnection(PGconn* conn) : conn_(conn) {}
  Result<PgResult> Check(PGresult* res, OnLoss on_loss);

  // Owning the handle closes it with the connection and makes the connection non-copyable.
  struct Finish {
    void operator()(PGconn* conn) const { PQfinish(conn); }
  };
  std::unique_ptr<PGconn, Finish> conn_;
  std::unordered_map<std::string, std::string> prepared_;  // SQL text → statement name
  bool last_retryable_ = false;
};

}  // namespace firn::store::postgres
