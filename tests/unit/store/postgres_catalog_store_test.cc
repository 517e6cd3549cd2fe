// PostgreSQL backend: runs the shared contract suite, then what only PostgreSQL has: schema
// versioning under an advisory lock, the connection pool, timeouts, lost connections,
// deadlock retries, and recovery from an outage. Needs FIRN_TEST_PG_URL (scripts/pg.sh).
#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "postgres_test_support.h"
#include "store/postgres/pg_migrations.h"
#include "store/sqlite/sqlite_catalog_store.h"

namespace firn::store::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const ObjectKind kTable = ObjectKind::kTable;

Identifier Id(Namespace ns, std::string name) { return Identifier{std::move(ns), std::move(name)}; }

// Without a server the contract tests must skip, not fail. The shared fixture calls the
// factory in SetUp and needs an open store; gtest runs no test body once a skip is recorded,
// so this placeholder (an SQLite file) only satisfies SetUp and is never exercised.
class SkippedBackend : public StoreBackend {
 public:
  SkippedBackend() {
    std::string pattern = (fs::temp_directory_path() / "firn-pg-skip-XXXXXX").string();
    dir_ = mkdtemp(pattern.data());
  }
  ~SkippedBackend() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  Result<std::unique_ptr<CatalogStore>> Open() override {
    return OpenSqliteStore((dir_ / "placeholder.db").string());
  }

 private:
  fs::path dir_;
};

std::unique_ptr<StoreBackend> MakePostgresBackend() {
  if (TestPgUrl().empty()) {
    [] { GTEST_SKIP() << kNoPgMessage; }();
    return std::make_unique<SkippedBackend>();
  }
  return std::make_unique<PostgresBackend>();
}

INSTANTIATE_TEST_SUITE_P(Postgres, CatalogStoreContractTest,
                         ::testing::Values(BackendFactory{"postgres", MakePostgresBackend}),
                         BackendName);

class PostgresStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (TestPgUrl().empty()) GTEST_SKIP() << kNoPgMessage;
  }

  // Opens a store on a fresh schema with `options`.
  std::unique_ptr<CatalogStore> OpenFresh(postgres::PostgresOptions options = {}) {
    backend_ = std::make_unique<PostgresBackend>(std::move(options));
    auto store = backend_->Open();
    EXPECT_TRUE(store) << store.error().message << " / " << store.error().detail;
    return store ? std::move(*store) : nullptr;
  }

  // Terminates the store's server session once one is running `query_fragment` and sleeping
  // (our test triggers call pg_sleep). Runs on its own thread; returns when done.
  std::thread KillWhenSleeping(const std::string& query_fragment) {
    return std::thread([this, query_fragment] {
      PgAdmin admin(backend_->url());
      for (int i = 0; i < 200; ++i) {
        std::string killed = admin.Exec(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '" +
            backend_->schema() + "' AND wait_event = 'PgSleep' AND query LIKE '%" +
            query_fragment + "%'");
        if (killed == "t") return;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      ADD_FAILURE() << "no sleeping session running " << query_fragment << " to terminate";
    });
  }

  std::unique_ptr<PostgresBackend> backend_;
};

TEST_F(PostgresStoreTest, SchemaVersionIsRecordedInItsTable) {
  auto store = OpenFresh();
  ASSERT_TRUE(store);
  PgAdmin admin(backend_->url(), backend_->schema());
  EXPECT_EQ(admin.Exec("SELECT version FROM schema_version WHERE id = 1"),
            std::to_string(postgres::LatestSchemaVersion()));
  EXPECT_EQ(admin.Exec("SELECT count(*) FROM schema_version"), "1");
}

// The audit row shares the commit's transaction: when it cannot be written, the swap (an
// autocommit UPDATE without audit) is rolled back too. A trigger makes audit inserts fail.
TEST_F(PostgresStoreTest, FailingAuditInsertRollsBackTheCommit) {
  auto store = OpenFresh();
  ASSERT_TRUE(store);
  const Identifier t = Id({"db"}, "t");
  ASSERT_TRUE(store->CreateNamespace({}, {"db"}, {}));
  ASSERT_TRUE(store->CreateObject({}, t, kTable, "m1"));
  {
    PgAdmin admin(backend_->url(), backend_->schema());
    admin.Exec(
        "CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'audit refused'; END $$");
    admin.Exec(
        "CREATE TRIGGER no_audit BEFORE INSERT ON audit_log "
        "FOR EACH ROW EXECUTE FUNCTION refuse_audit()");
  }
  AuditEntry audit;
  audit.operation = "updateTable";
  EXPECT_FALSE(store->SwapPointer({}, t, kTable, "m1", "m2", &audit));
  EXPECT_FALSE(store->DropObject({}, t, kTable, &audit));
  EXPECT_FALSE(store->ApplyAccessWrites(
      {AccessWrite{AccessWrite::Op::kUpsert, AccessRecord{.realm = "r", .name = "r"}}}, &audit,
      1));
  EXPECT_EQ(store->LoadPointer({}, t, kTable)->metadata_location, "m1");
  EXPECT_EQ(*store->AccessVersion(), 0);
  EXPECT_TRUE(store->LoadAccess()->records.empty());
}

// The change feed shows only transactions that have ended (store/event_store.h). A transaction
// still writing in this database holds it back, and the event behind it appears once it ends,
// never skipped; a long writer in another database of the cluster cannot write here and does
// not hold it back (the snapshot's xmin alone is cluster-wide and would).
TEST_F(PostgresStoreTest, AnOpenWriterHoldsTheFeedBackOnlyInItsOwnDatabase) {
  auto store = OpenFresh();
  ASSERT_TRUE(store);
  auto events = [&] {
    EventFilter f;
    f.realm = "default";
    auto page = store->ListEvents(f);
    EXPECT_TRUE(page) << page.error().message << " / " << page.error().detail;
    std::vector<std::string> objects;
    for (const auto& e : page ? *page : std::vector<ChangeEvent>{}) {
      objects.push_back(e.entry.object);
    }
    return objects;
  };
  auto settled = [&](size_t n) {
    std::vector<std::string> got;
    for (int i = 0; i < 250 && (got = events()).size() < n; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return got;
  };
  auto change = [&](const std::string& ns) {
    AuditEntry a;
    a.realm = "default";
    a.operation = "createNamespace";
    a.object = "namespace " + ns;
    a.outcome = "success";
    ASSERT_TRUE(store->CreateNamespace({}, {ns}, {}, &a));
  };
  // A writer in the server's `postgres` database, open for the whole test.
  std::string other_url = backend_->url();
  other_url = other_url.substr(0, other_url.rfind('/')) + "/postgres";
  PgAdmin other(other_url);
  other.Exec("BEGIN");
  ASSERT_FALSE(other.Exec("SELECT pg_current_xact_id()").empty());
  change("a");
  EXPECT_EQ(settled(1), std::vector<std::string>{"namespace a"})
      << "a writer in another database held the feed back";
  // A writer in this database: the event committed after it started waits for it.
  PgAdmin same(backend_->url(), backend_->schema());
  same.Exec("BEGIN");
  ASSERT_FALSE(same.Exec("SELECT pg_current_xact_id()").empty());
  change("b");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(events(), std::vector<std::string>{"namespace a"}) << "shown before it was safe";
  same.Exec("COMMIT");
  EXPECT_EQ(settled(2), (std::vector<std::string>{"namespace a", "namespace b"}));
  other.Exec("ROLLBACK");
}

TEST_F(PostgresStoreTest, RefusesNewerSchemaVersionAndLeavesItUntouched) {
  ASSERT_TRUE(OpenFresh());
  {
    PgAdmin admin(backend_->url(), backend_->schema());
    admin.Exec("UPDATE schema_version SET version = 99");
  }
  auto store = backend_->Open();
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().kind, ErrorKind::kInternal);
  EXPECT_NE(store.error().message.find("newer than this binary supports"), std::string::npos)
      << store.error().message;
  PgAdmin admin(backend_->url(), backend_->schema());
  EXPECT_EQ(admin.Exec("SELECT version FROM schema_version"), "99");
}

TEST_F(PostgresStoreTest, ConcurrentOpensMigrateExactlyOnce) {
  backend_ = std::make_unique<PostgresBackend>();
  constexpr int kOpeners = 6;
  std::atomic<int> opened{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kOpeners; ++i) {
    threads.emplace_back([&] {
      auto store = backend_->Open();
      if (store) {
        opened++;
      } else {
        ADD_FAILURE() << store.error().message << " / " << store.error().detail;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(opened.load(), kOpeners);
  PgAdmin admin(backend_->url(), backend_->schema());
  EXPECT_EQ(admin.Exec("SELECT version FROM schema_version"),
            std::to_string(postgres::LatestSchemaVersion()));
}

TEST_F(PostgresStoreTest, PasswordMayComeFromOptionsAndAWrongOneIsUnavailable) {
  Secret password;
  const std::string bare_url = TakePasswordFromUrl(TestPgUrl(), password);
  if (password.empty()) GTEST_SKIP() << "FIRN_TEST_PG_URL carries no password";
  ASSERT_EQ(bare_url.find(password.Reveal()), std::string::npos);

  postgres::PostgresOptions options;
  options.password = password;
  options.schema = "firn_pw_" + std::to_string(getpid());
  auto store = OpenPostgresStore(bare_url, options);
  ASSERT_TRUE(store) << store.error().detail;
  EXPECT_TRUE((*store)->CreateNamespace({}, {"a"}, {}));

  options.password = Secret("definitely-wrong");
  auto refused = OpenPostgresStore(bare_url, options);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kServiceUnavailable);
  EXPECT_EQ(refused.error().message, "Catalog database is unavailable");
  EXPECT_EQ(refused.error().detail.find("definitely-wrong"), std::string::npos);
  PgAdmin(TestPgUrl()).Exec("DROP SCHEMA \"" + options.schema + "\" CASCADE");
}

TEST_F(PostgresStoreTest, KilledConnectionsAreReplacedWithoutErrors) {
  auto store = OpenFresh();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE(store->CreateObject({}, Id({"a"}, "t"), kTable, "file:/0"));
  PgAdmin admin(backend_->url());
  const std::string kill = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                           "WHERE application_name = '" + backend_->schema() + "'";
  for (int round = 0; round < 3; ++round) {
    EXPECT_NE(admin.Exec(kill), "0");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto swap = store->SwapPointer({}, Id({"a"}, "t"), kTable, "file:/" + std::to_string(round),
                                   "file:/" + std::to_string(round + 1));
    ASSERT_TRUE(swap) << swap.error().message << " / " << swap.error().detail;
    EXPECT_EQ(admin.Exec(kill), "1");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto load = store->LoadPointer({}, Id({"a"}, "t"), kTable);
    ASSERT_TRUE(load) << load.error().detail;
    EXPECT_EQ(load->metadata_location, "file:/" + std::to_string(round + 1));
  }
}

TEST_F(PostgresStoreTest, StatementTimeoutIsServiceUnavailableAndChangesNothing) {
  postgres::PostgresOptions options;
  options.statement_timeout = std::chrono::milliseconds(300);
  auto store = OpenFresh(options);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE(store->CreateObject({}, Id({"a"}, "t"), kTable, "file:/m1"));
  PgAdmin admin(backend_->url(), backend_->schema());
  admin.Exec("CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS "
             "$$ BEGIN PERFORM pg_sleep(3); RETURN NEW; END $$");
  admin.Exec("CREATE TRIGGER slow BEFORE UPDATE ON objects FOR EACH ROW EXECUTE FUNCTION slow()");
  auto start = Clock::now();
  auto swap = store->SwapPointer({}, Id({"a"}, "t"), kTable, "file:/m1", "file:/m2");
  auto elapsed = Clock::now() - start;
  ASSERT_FALSE(swap);
  EXPECT_EQ(swap.error().kind, ErrorKind::kServiceUnavailable) << swap.error().message;
  EXPECT_LT(elapsed, std::chrono::seconds(2));
  EXPECT_EQ(store->LoadPointer({}, Id({"a"}, "t"), kTable)->metadata_location, "file:/m1");
}

TEST_F(PostgresStoreTest, LostConnectionDuringAutocommitSwapIsCommitStateUnknown) {
  auto store = OpenFresh();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE(store->CreateObject({}, Id({"a"}, "t"), kTable, "file:/m1"));
  PgAdmin admin(backend_->url(), backend_->schema());
  admin.Exec("CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS "
             "$$ BEGIN PERFORM pg_sleep(3); RETURN NEW; END $$");
  admin.Exec("CREATE TRIGGER slow BEFORE UPDATE ON objects FOR EACH ROW EXECUTE FUNCTION slow()");
  std::thread killer = KillWhenSleeping("UPDATE objects");
  auto swap = store->SwapPointer({}, Id({"a"}, "t"), kTable, "file:/m1", "file:/m2");
  killer.join();
  ASSERT_FALSE(swap);
  EXPECT_EQ(ErrorKindName(swap.error().kind), ErrorKindName(ErrorKind::kCommitStateUnknown))
      << swap.error().message << " / " << swap.error().detail;
  admin.Exec("DROP TRIGGER slow ON objects");
  // The store carries on with a fresh connection.
  EXPECT_TRUE(store->LoadPointer({}, Id({"a"}, "t"), kTable));
}

TEST_F(PostgresStoreTest, LostConnectionDuringCommitIsCommitStateUnknown) {
  auto store = OpenFresh();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE(store->CreateObject({}, Id({"a"}, "t1"), kTable, "file:/1"));
  ASSERT_TRUE(store->CreateObject({}, Id({"a"}, "t2"), kTable, "file:/2"));
  PgAdmin admin(backend_->url(), backend_->schema());
  // A deferred constraint trigger runs inside COMMIT: killing the session then loses the
  // connection after COMMIT was sent.
  admin.Exec("CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS "
             "$$ BEGIN PERFORM pg_sleep(3); RETURN NULL; END $$");
  admin.Exec("CREATE CONSTRAINT TRIGGER slow AFTER UPDATE ON objects DEFERRABLE INITIALLY "
             "DEFERRED FOR EACH ROW EXECUTE FUNCTION slow()");
  std::thread killer = KillWhenSleeping("COMMIT");
  auto status = store->CommitTransaction(
      {}, {PointerSwap{Id({"a"}, "t1"), kTable, "file:/1", "file:/1b"},
           PointerSwap{Id({"a"}, "t2"), kTable, "file:/2", "file:/2b"}});
  killer.join();
  ASSERT_FALSE(status);
  EXPECT_EQ(ErrorKindName(status.error().kind), ErrorKindName(ErrorKind::kCommitStateUnknown))
      << status.error().message << " / " << status.error().detail;
}

TEST_F(PostgresStoreTest, DeadlockIsRetriedInsideTheStore) {
  auto store = OpenFresh();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE(store->CreateObject({}, Id({"a"}, "x"), kTable, "file:/x0"));
  ASSERT_TRUE(store->CreateObject({}, Id({"a"}, "y"), kTable, "file:/y0"));
  PgAdmin admin(backend_->url(), backend_->schema());
  const std::string deadlocks_sql =
      "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()";
  admin.Exec("SELECT pg_stat_force_next_flush()");
  const long before = std::stol(admin.Exec(deadlocks_sql));
  // Each row update holds its lock while sleeping, so opposite orders deadlock for sure.
  admin.Exec("CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS "
             "$$ BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$");
  admin.Exec("CREATE TRIGGER slow BEFORE UPDATE ON objects FOR EACH ROW EXECUTE FUNCTION slow()");
  std::barrier sync(2);
  Status results[2];
  std::thread first([&] {
    sync.arrive_and_wait();
    results[0] = store->CommitTransaction(
        {}, {PointerSwap{Id({"a"}, "x"), kTable, "file:/x0", "file:/x1"},
             PointerSwap{Id({"a"}, "y"), kTable, "file:/y0", "file:/y1"}});
  });
  std::thread second([&] {
    sync.arrive_and_wait();
    results[1] = store->CommitTransaction(
        {}, {PointerSwap{Id({"a"}, "y"), kTable, "file:/y0", "file:/y2"},
             PointerSwap{Id({"a"}, "x"), kTable, "file:/x0", "file:/x2"}});
  });
  first.join();
  second.join();
  // One wins; the deadlock victim reruns and then loses the compare-and-swap cleanly.
  const int winners = (results[0] ? 1 : 0) + (results[1] ? 1 : 0);
  EXPECT_EQ(winners, 1);
  for (const auto& r : results) {
    if (!r) {
      EXPECT_EQ(ErrorKindName(r.error().kind), ErrorKindName(ErrorKind::kCommitFailed))
          << r.error().message << " / " << r.error().detail;
    }
  }
  long after = before;
  for (int i = 0; i < 50 && after == before; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    admin.Exec("SELECT pg_stat_clear_snapshot()");
    after = std::stol(admin.Exec(deadlocks_sql));
  }
  EXPECT_GT(after, before) << "the server saw no deadlock, so nothing was retried";
}

TEST_F(PostgresStoreTest, PoolNeverExceedsItsBound) {
  postgres::PostgresOptions options;
  options.max_connections = 2;
  auto store = OpenFresh(options);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE(store->CreateObject({}, Id({"a"}, "t"), kTable, "file:/0"));
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::atomic<int> max_sessions{0};
  std::atomic<int> samples{0};
  std::thread watcher([&] {
    PgAdmin admin(backend_->url());
    while (!done) {
      int n = std::stoi(admin.Exec("SELECT count(*) FROM pg_stat_activity WHERE "
                                   "application_name = '" + backend_->schema() + "'"));
      max_sessions = std::max(max_sessions.load(), n);
      ++samples;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      // Keep loading until the watcher has sampled several times while the pool is busy (on a
      // loaded machine 100 loads can finish before its first sample).
      for (int i = 0; i < 100 || samples.load() < 3; ++i) {
        if (!store->LoadPointer({}, Id({"a"}, "t"), kTable)) failures++;
      }
    });
  }
  for (auto& t : threads) t.join();
  done = true;
  watcher.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LE(max_sessions.load(), 2);
  EXPECT_GE(max_sessions.load(), 1);
}

// The hot path: LoadPointer is one prepared primary-key SELECT on a pooled connection.
TEST_F(PostgresStoreTest, LoadPointerAndCommitCostIsReported) {
  auto store = OpenFresh();
  ASSERT_TRUE(store);
  Identifier id = Id({"a"}, "t");
  ASSERT_TRUE(store->CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE(store->CreateObject({}, id, kTable, "file:/0"));
  auto pct = [](std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[static_cast<size_t>(p * (v.size() - 1))];
  };
  std::vector<double> commit_us;
  for (int i = 0; i < 300; ++i) {
    auto start = Clock::now();
    auto r = store->SwapPointer({}, id, kTable, "file:/" + std::to_string(i),
                                "file:/" + std::to_string(i + 1));
    commit_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    ASSERT_TRUE(r);
    ASSERT_EQ(r->version, i + 2);
  }
  std::vector<double> load_us;
  for (int i = 0; i < 3000; ++i) {
    auto start = Clock::now();
    auto r = store->LoadPointer({}, id, kTable);
    load_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    ASSERT_TRUE(r);
  }
  std::printf("[ cost ] PostgreSQL LoadPointer p50 %.0f us, p99 %.0f us; SwapPointer p50 %.0f us, "
              "p99 %.0f us\n",
              pct(load_us, 0.5), pct(load_us, 0.99), pct(commit_us, 0.5), pct(commit_us, 0.99));
  RecordProperty("load_p50_us", static_cast<int>(pct(load_us, 0.5)));
  RecordProperty("commit_p50_us", static_cast<int>(pct(commit_us, 0.5)));
}

TEST_F(PostgresStoreTest, ConcurrentCommitsToDifferentTablesAllLand) {
  auto store = OpenFresh();
  ASSERT_TRUE(store);
  constexpr int kThreads = 8;
  constexpr int kCommits = 50;
  ASSERT_TRUE(store->CreateNamespace({}, {"a"}, {}));
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(store->CreateObject({}, Id({"a"}, "t" + std::to_string(t)), kTable, "file:/0"));
  }
  std::atomic<int> failures{0};
  auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCommits; ++i) {
        if (!store->SwapPointer({}, Id({"a"}, "t" + std::to_string(t)), kTable,
                                "file:/" + std::to_string(i), "file:/" + std::to_string(i + 1))) {
          failures++;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(failures.load(), 0);
  for (int t = 0; t < kThreads; ++t) {
    auto p = store->LoadPointer({}, Id({"a"}, "t" + std::to_string(t)), kTable);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->version, kCommits + 1);
  }
  std::printf("[ cost ] PostgreSQL: %d concurrent commits from %d threads: %.0f commits/s\n",
              kThreads * kCommits, kThreads, kThreads * kCommits / seconds);
}

}  // namespace
}  // namespace firn::store::testing
