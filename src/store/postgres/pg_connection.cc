#include "store/postgres/pg_connection.h"

#include <poll.h>

#include <charconv>

#include "common/macros.h"
#include "common/strings.h"

namespace firn::store::postgres {
namespace {

std::string ResultDetail(PGresult* res, PGconn* conn) {
  const char* text = res != nullptr ? PQresultErrorMessage(res) : nullptr;
  const std::string_view detail = text != nullptr && *text != '\0' ? text : PQerrorMessage(conn);
  return std::string(TrimEnd(detail, "\n "));
}

}  // namespace

PgResult& PgResult::operator=(PgResult&& other) noexcept {
  if (this != &other) {
    PQclear(res_);
    res_ = other.res_;
    other.res_ = nullptr;
  }
  return *this;
}

std::string_view PgResult::Text(int row, int col) const {
  return std::string_view(PQgetvalue(res_, row, col),
                          static_cast<size_t>(PQgetlength(res_, row, col)));
}

int64_t PgResult::Int(int row, int col) const {
  std::string_view text = Text(row, col);
  int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

int64_t PgResult::Affected() const {
  const char* text = PQcmdTuples(res_);
  int64_t value = 0;
  if (text != nullptr) std::from_chars(text, text + std::char_traits<char>::length(text), value);
  return value;
}

SqlStateClass ClassifySqlState(std::string_view s) {
  // 40001 serialization_failure, 40P01 deadlock_detected: the transaction can simply rerun.
  // 23505 unique_violation / 23503 foreign_key_violation: a concurrent writer won a
  // check-then-insert race; rerunning re-checks and answers with the proper contract error.
  if (s == "40001" || s == "40P01" || s == "23505" || s == "23503") {
    return SqlStateClass::kRetryable;
  }
  if (s == "57014" || s == "55P03") return SqlStateClass::kTimeout;  // statement/lock timeout
  // 08 connection exception, 53 insufficient resources (too many connections, disk full),
  // 57P01-03 admin/crash shutdown or cannot connect now, 25006 read-only (standby).
  if (s.starts_with("08") || s.starts_with("53") || s.starts_with("57P") || s == "25006") {
    return SqlStateClass::kUnavailable;
  }
  return SqlStateClass::kOther;
}

Error MapFailure(std::string_view sqlstate, bool lost, OnLoss on_loss, std::string detail) {
  if (lost) {
    if (on_loss == OnLoss::kOutcomeUnknown) {
      return Error(ErrorKind::kCommitStateUnknown,
                   "The connection to the catalog database was lost while committing; the "
                   "outcome is unknown",
                   std::move(detail));
    }
    return Error(ErrorKind::kServiceUnavailable, std::string(kUnavailableMessage),
                 std::move(detail));
  }
  switch (ClassifySqlState(sqlstate)) {
    case SqlStateClass::kRetryable:
      return Error(ErrorKind::kServiceUnavailable, std::string(kBusyMessage), std::move(detail));
    case SqlStateClass::kTimeout:
      return Error(ErrorKind::kServiceUnavailable,
                   "The catalog database did not answer in time; retry later", std::move(detail));
    case SqlStateClass::kUnavailable:
      return Error(ErrorKind::kServiceUnavailable, std::string(kUnavailableMessage),
                   std::move(detail));
    case SqlStateClass::kOther:
      break;
  }
  if (sqlstate == "22021") {  // character_not_in_repertoire: bytes that are not valid UTF-8
    return Error(ErrorKind::kIllegalArgument, "Names and values must be valid UTF-8",
                 std::move(detail));
  }
  return Error(ErrorKind::kInternal, "Catalog database error",
               "SQLSTATE " + std::string(sqlstate) + ": " + detail);
}

Result<std::unique_ptr<PgConnection>> PgConnection::Open(const std::string& url,
                                                         const PostgresOptions& options) {
  const std::string connect_timeout = std::to_string(options.connect_timeout.count());
  // Defaults come before dbname so a URL may override them; the password comes after so the
  // configured secret wins over one in the URL.
  std::vector<const char*> keys = {"connect_timeout", "application_name", "keepalives",
                                   "keepalives_idle", "keepalives_interval", "keepalives_count",
                                   "tcp_user_timeout", "dbname"};
  std::vector<const char*> values = {connect_timeout.c_str(), options.application_name.c_str(),
                                     "1", "10", "5", "3", "15000", url.c_str()};
  if (!options.password.empty()) {
    keys.push_back("password");
    values.push_back(options.password.Reveal().c_str());
  }
  keys.push_back(nullptr);
  values.push_back(nullptr);
  PGconn* raw = PQconnectdbParams(keys.data(), values.data(), /*expand_dbname=*/1);
  if (raw == nullptr) {
    return Fail(ErrorKind::kServiceUnavailable, std::string(kUnavailableMessage),
                "libpq could not allocate a connection");
  }
  std::unique_ptr<PgConnection> conn(new PgConnection(raw));
  if (PQstatus(raw) != CONNECTION_OK) {
    return Fail(ErrorKind::kServiceUnavailable, std::string(kUnavailableMessage),
                ResultDetail(nullptr, raw));
  }
  std::string session =
      "SET statement_timeout = " + std::to_string(options.statement_timeout.count()) +
      "; SET idle_in_transaction_session_timeout = " +
      std::to_string(options.statement_timeout.count() * 4);
  if (!options.schema.empty()) {
    char* ident = PQescapeIdentifier(raw, options.schema.data(), options.schema.size());
    if (ident == nullptr) {
      return Fail(ErrorKind::kIllegalArgument, "Invalid PostgreSQL schema name",
                  ResultDetail(nullptr, raw));
    }
    session += "; SET search_path = " + std::string(ident);
    PQfreemem(ident);
  }
  FIRN_RETURN_IF_ERROR(conn->ExecuteScript(session));
  return conn;
}

Result<PgResult> PgConnection::Check(PGresult* res, OnLoss on_loss) {
  ExecStatusType status = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
  if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) return PgResult(res);
  const char* state = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  std::string sqlstate = state != nullptr ? state : "";
  std::string detail = ResultDetail(res, conn_.get());
  PQclear(res);
  bool lost = IsBroken();
  last_retryable_ = !lost && ClassifySqlState(sqlstate) == SqlStateClass::kRetryable;
  return std::unexpected(MapFailure(sqlstate, lost, on_loss, std::move(detail)));
}

Result<PgResult> PgConnection::Execute(std::string_view sql, const std::vector<Param>& params,
                                       OnLoss on_loss) {
  last_retryable_ = false;
  auto it = prepared_.find(std::string(sql));
  if (it == prepared_.end()) {
    std::string name = "firn_" + std::to_string(prepared_.size() + 1);
    // Preparing changes nothing: a lost connection here never leaves an unknown outcome.
    auto prepared =
        Check(PQprepare(conn_.get(), name.c_str(), std::string(sql).c_str(), 0, nullptr),
              OnLoss::kNothingCommitted);
    if (!prepared) return std::unexpected(prepared.error());
    it = prepared_.emplace(std::string(sql), std::move(name)).first;
  }
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p.value() ? p.value()->c_str() : nullptr);
  PGresult* res = PQexecPrepared(conn_.get(), it->second.c_str(), static_cast<int>(values.size()),
                                 values.data(), nullptr, nullptr, 0);
  return Check(res, on_loss);
}

Status PgConnection::ExecuteScript(std::string_view sql, OnLoss on_loss) {
  last_retryable_ = false;
  auto result = Check(PQexec(conn_.get(), std::string(sql).c_str()), on_loss);
  if (!result) return std::unexpected(result.error());
  return Ok();
}

bool PgConnection::LooksAlive() {
  if (IsBroken()) return false;
  // An idle connection has nothing to read unless the server said goodbye (or sent a notice).
  for (int i = 0; i < 4; ++i) {
    pollfd fd{PQsocket(conn_.get()), POLLIN, 0};
    if (poll(&fd, 1, 0) <= 0) break;
    if (PQconsumeInput(conn_.get()) == 0 || IsBroken()) return false;
  }
  return !IsBroken();
}

}  // namespace firn::store::postgres
