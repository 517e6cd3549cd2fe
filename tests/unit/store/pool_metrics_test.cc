// Connection-pool figures (store/pool_metrics.h) on a real PostgreSQL pool: a connection lent
// out counts as in use and open; a second acquisition on a full pool counts as a wait, and as a
// timeout when nothing is freed in time; handing it back returns the gauges. On a real SQLite
// store, a write queued behind another counts as a wait.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "postgres_test_support.h"
#include "store/pool_metrics.h"
#include "store/postgres/pg_connection_pool.h"

namespace firn::store::testing {
namespace {

TEST(PoolMetricsTest, PostgresPoolCountsLoansWaitsAndTimeouts) {
  const std::string url = TestPgUrl();
  if (url.empty()) GTEST_SKIP() << kNoPgMessage;
  const PoolMetrics& m = PoolMetricsFor("postgres");
  postgres::PostgresOptions options;
  options.max_connections = 1;
  options.acquire_timeout = std::chrono::milliseconds(200);
  const int64_t in_use = m.in_use.Value();
  const int64_t open = m.open.Value();
  const uint64_t waits = m.waits.Value();
  const uint64_t timeouts = m.timeouts.Value();
  {
    postgres::PgConnectionPool pool(url, options);
    {
      auto first = pool.Acquire(false);
      ASSERT_TRUE(first) << first.error().message;
      EXPECT_EQ(m.in_use.Value(), in_use + 1);
      EXPECT_EQ(m.open.Value(), open + 1);
      // The pool is full: this one waits, then gives up.
      auto second = pool.Acquire(false);
      ASSERT_FALSE(second);
      EXPECT_EQ(second.error().kind, ErrorKind::kServiceUnavailable);
      EXPECT_EQ(m.waits.Value(), waits + 1);
      EXPECT_EQ(m.timeouts.Value(), timeouts + 1);
      // Freed while another waits: a wait, no timeout.
      std::thread late([&] {
        auto third = pool.Acquire(false);
        EXPECT_TRUE(third);
      });
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      { auto done = std::move(*first); }  // handed back
      late.join();
      EXPECT_EQ(m.waits.Value(), waits + 2);
      EXPECT_EQ(m.timeouts.Value(), timeouts + 1);
    }
    EXPECT_EQ(m.in_use.Value(), in_use);
    EXPECT_EQ(m.open.Value(), open + 1);  // idle in the pool
  }
  EXPECT_EQ(m.open.Value(), open);  // closed with the pool
}

}  // namespace
}  // namespace firn::store::testing
