// Helpers for the PostgreSQL store tests: the server comes from FIRN_TEST_PG_URL (start one
// with `eval "$(scripts/pg.sh start)"`); without it the PostgreSQL tests skip.
// Every backend gets its own schema (dropped afterwards), so tests can run in parallel
// against one server.
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>

#include "catalog_store_contract.h"
#include "store/postgres/postgres_catalog_store.h"

namespace firn::store::testing {

inline constexpr const char* kNoPgMessage =
    "FIRN_TEST_PG_URL is unset: PostgreSQL store tests need a server. Start one with "
    "`eval \"$(scripts/pg.sh start)\"` (then `scripts/pg.sh destroy` to remove it).";

inline std::string TestPgUrl() {
  const char* url = std::getenv("FIRN_TEST_PG_URL");
  return url != nullptr ? url : "";
}

// A plain libpq connection for test set-up and inspection (not the code under test).
class PgAdmin {
 public:
  explicit PgAdmin(const std::string& url, const std::string& schema = "") {
    conn_ = PQconnectdb(url.c_str());
    EXPECT_EQ(PQstatus(conn_), CONNECTION_OK) << PQerrorMessage(conn_);
    if (!schema.empty()) Exec("SET search_path = \"" + schema + "\"");
  }
  ~PgAdmin() { PQfinish(conn_); }
  // Runs `sql`; returns the first column of the first row ("" when none). Fails the test on
  // error unless `may_fail`.
  std::string Exec(const std::string& sql, bool may_fail = false) {
    PGresult* res = PQexec(conn_, sql.c_str());
    std::string out;
    ExecStatusType status = PQresultStatus(res);
    if (status == PGRES_TUPLES_OK && PQntuples(res) > 0 && !PQgetisnull(res, 0, 0)) {
      out = PQgetvalue(res, 0, 0);
    } else if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK && !may_fail) {
      ADD_FAILURE() << sql << ": " << PQresultErrorMessage(res);
    }
    PQclear(res);
    return out;
  }

 private:
  PGconn* conn_;
};

class PostgresBackend : public StoreBackend {
 public:
  explicit PostgresBackend(postgres::PostgresOptions options = {})
      : url_(TestPgUrl()), options_(std::move(options)) {
    static std::atomic<int> counter{0};
    schema_ = "firn_t_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    options_.schema = schema_;
    options_.application_name = schema_;  // lets tests find this store's server sessions
  }
  ~PostgresBackend() override {
    PgAdmin admin(url_);
    admin.Exec("DROP SCHEMA IF EXISTS \"" + schema_ + "\" CASCADE", true);
  }
  Result<std::unique_ptr<CatalogStore>> Open() override {
    return OpenPostgresStore(url_, options_);
  }
  const std::string& url() const { return url_; }
  const std::string& schema() const { return schema_; }
  postgres::PostgresOptions& options() { return options_; }

 private:
  std::string url_;
  postgres::PostgresOptions options_;
  std::string schema_;
};

}  // namespace firn::store::testing
