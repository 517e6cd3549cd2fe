// SQLite backend: runs the contract suite and checks what only SQLite has (WAL, schema
// versioning, lock timeouts), and reports the cost of a durable commit.
#include "store/sqlite/sqlite_catalog_store.h"
#include "store/sqlite/sqlite_migrations.h"

#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "catalog_store_contract.h"

namespace firn::store::testing {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "firn-store-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

class SqliteBackend : public StoreBackend {
 public:
  explicit SqliteBackend(sqlite::SqliteOptions options = {}) : options_(options) {}
  Result<std::unique_ptr<CatalogStore>> Open() override {
    return OpenSqliteStore(db_path(), options_);
  }
  std::string db_path() const { return (dir_.path() / "catalog.db").string(); }

 private:
  TempDir dir_;
  sqlite::SqliteOptions options_;
};

INSTANTIATE_TEST_SUITE_P(Sqlite, CatalogStoreContractTest,
                         ::testing::Values(BackendFactory{
                             "sqlite", [] { return std::make_unique<SqliteBackend>(); }}),
                         BackendName);

// Runs one SQL statement on a separate raw connection, returning the first column of the first
// row (or "").
std::string RawQuery(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sql;
  std::string out;
  int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW && sqlite3_column_text(stmt, 0) != nullptr) {
    out = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  } else {
    EXPECT_TRUE(rc == SQLITE_ROW || rc == SQLITE_DONE) << sql << ": " << sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  return out;
}

struct RawDb {
  explicit RawDb(const std::string& path) { sqlite3_open(path.c_str(), &db); }
  ~RawDb() { sqlite3_close(db); }
  sqlite3* db = nullptr;
};

TEST(SqliteCatalogStoreTest, DatabaseIsInWalModeWithSchemaVersion) {
  SqliteBackend backend;
  auto store = backend.Open();
  ASSERT_TRUE(store);
  RawDb raw(backend.db_path());
  EXPECT_EQ(RawQuery(raw.db, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(RawQuery(raw.db, "PRAGMA user_version"),
            std::to_string(sqlite::LatestSchemaVersion()));
}

// The audit row shares the commit's transaction: when it cannot be written, the swap it
// describes is rolled back too (a trigger makes every audit insert fail).
TEST(SqliteCatalogStoreTest, FailingAuditInsertRollsBackTheCommit) {
  SqliteBackend backend;
  auto store = backend.Open();
  ASSERT_TRUE(store);
  const Identifier t{{"db"}, "t"};
  ASSERT_TRUE((*store)->CreateNamespace({}, {"db"}, {}));
  ASSERT_TRUE((*store)->CreateObject({}, t, ObjectKind::kTable, "m1"));
  {
    RawDb raw(backend.db_path());
    RawQuery(raw.db,
             "CREATE TRIGGER no_audit BEFORE INSERT ON audit_log "
             "BEGIN SELECT RAISE(ABORT, 'audit refused'); END");
  }
  AuditEntry audit;
  audit.operation = "updateTable";
  EXPECT_FALSE((*store)->SwapPointer({}, t, ObjectKind::kTable, "m1", "m2", &audit));
  EXPECT_FALSE((*store)->ApplyAccessWrites(
      {AccessWrite{AccessWrite::Op::kUpsert, AccessRecord{.realm = "r", .name = "r"}}}, &audit,
      1));
  EXPECT_EQ((*store)->LoadPointer({}, t, ObjectKind::kTable)->metadata_location, "m1");
  EXPECT_EQ(*(*store)->AccessVersion(), 0);
  EXPECT_TRUE((*store)->LoadAccess()->records.empty());
}

TEST(SqliteCatalogStoreTest, RefusesNewerSchemaVersionAndLeavesItUntouched) {
  SqliteBackend backend;
  { ASSERT_TRUE(backend.Open()); }
  {
    RawDb raw(backend.db_path());
    RawQuery(raw.db, "PRAGMA user_version = 99");
  }
  auto store = backend.Open();
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().kind, ErrorKind::kInternal);
  EXPECT_NE(store.error().message.find("newer than this binary supports"), std::string::npos)
      << store.error().message;
  RawDb raw(backend.db_path());
  EXPECT_EQ(RawQuery(raw.db, "PRAGMA user_version"), "99");
}

TEST(SqliteCatalogStoreTest, ReopeningDoesNotReapplyMigrations) {
  SqliteBackend backend;
  {
    auto store = backend.Open();
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->CreateNamespace({}, {"a"}, {}));
  }
  auto store = backend.Open();
  ASSERT_TRUE(store) << store.error().detail;
  EXPECT_TRUE((*store)->LoadNamespace({}, {"a"}));
}

TEST(SqliteCatalogStoreTest, MemoryDatabaseIsRefused) {
  auto store = OpenSqliteStore(":memory:");
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().kind, ErrorKind::kIllegalArgument);
}

TEST(SqliteCatalogStoreTest, UnopenablePathIsServiceUnavailable) {
  auto store = OpenSqliteStore("/nonexistent-dir-for-firn/x/catalog.db");
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().kind, ErrorKind::kServiceUnavailable);
}

TEST(SqliteCatalogStoreTest, LockedDatabaseIsServiceUnavailableAndReadsStillWork) {
  SqliteBackend backend(sqlite::SqliteOptions{std::chrono::milliseconds(50)});
  auto store = backend.Open();
  ASSERT_TRUE(store);
  CatalogStore& s = **store;
  ASSERT_TRUE(s.CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE(s.CreateObject({}, Identifier{{"a"}, "t"}, ObjectKind::kTable, "file:/m1"));

  RawDb other(backend.db_path());  // another process holding the write lock
  sqlite3_busy_timeout(other.db, 0);
  RawQuery(other.db, "BEGIN IMMEDIATE");
  auto swap = s.SwapPointer({}, Identifier{{"a"}, "t"}, ObjectKind::kTable, "file:/m1", "file:/m2");
  ASSERT_FALSE(swap);
  EXPECT_EQ(swap.error().kind, ErrorKind::kServiceUnavailable);
  // WAL: readers are not blocked by the writer.
  auto pointer = s.LoadPointer({}, Identifier{{"a"}, "t"}, ObjectKind::kTable);
  ASSERT_TRUE(pointer);
  EXPECT_EQ(pointer->metadata_location, "file:/m1");
  RawQuery(other.db, "ROLLBACK");
  EXPECT_TRUE(
      s.SwapPointer({}, Identifier{{"a"}, "t"}, ObjectKind::kTable, "file:/m1", "file:/m2"));
}

TEST(SqliteCatalogStoreTest, MetricsReportIsStoredAsReceived) {
  SqliteBackend backend;
  auto store = backend.Open();
  ASSERT_TRUE(store);
  ASSERT_TRUE((*store)->StoreMetricsReport(
      {}, MetricsReport{Identifier{{"a", "b"}, "t"}, "commit-report", R"({"x":1})", 42}));
  RawDb raw(backend.db_path());
  EXPECT_EQ(RawQuery(raw.db, "SELECT report_json || '|' || report_type || '|' || table_name || "
                             "'|' || received_ms FROM metrics_reports"),
            R"({"x":1}|commit-report|t|42)");
}

// Durable commits cost an fsync of the WAL each; this records what that costs here so
// docs/db-schema.md can quote it. The assertion is on correctness, not speed.
TEST(SqliteCatalogStoreTest, CommitAndLoadCostIsReported) {
  SqliteBackend backend;
  auto store = backend.Open();
  ASSERT_TRUE(store);
  CatalogStore& s = **store;
  Identifier id{{"a"}, "t"};
  ASSERT_TRUE(s.CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE(s.CreateObject({}, id, ObjectKind::kTable, "file:/0"));
  using Clock = std::chrono::steady_clock;
  constexpr int kCommits = 200;
  std::vector<double> commit_us;
  for (int i = 0; i < kCommits; ++i) {
    auto start = Clock::now();
    auto r = s.SwapPointer({}, id, ObjectKind::kTable, "file:/" + std::to_string(i),
                           "file:/" + std::to_string(i + 1));
    commit_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    ASSERT_TRUE(r);
    ASSERT_EQ(r->version, i + 2);
  }
  std::vector<double> load_us;
  for (int i = 0; i < 2000; ++i) {
    auto start = Clock::now();
    auto r = s.LoadPointer({}, id, ObjectKind::kTable);
    load_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    ASSERT_TRUE(r);
  }
  auto pct = [](std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[static_cast<size_t>(p * (v.size() - 1))];
  };
  std::printf("[ cost ] SwapPointer commit p50 %.0f us, p99 %.0f us; LoadPointer p50 %.1f us, "
              "p99 %.1f us\n",
              pct(commit_us, 0.5), pct(commit_us, 0.99), pct(load_us, 0.5), pct(load_us, 0.99));
  RecordProperty("commit_p50_us", static_cast<int>(pct(commit_us, 0.5)));
}

// Group commit: concurrent writers of different tables share WAL fsyncs. Asserts every commit
// lands exactly once; reports the throughput.
TEST(SqliteCatalogStoreTest, ConcurrentCommitsToDifferentTablesAllLand) {
  SqliteBackend backend;
  auto store = backend.Open();
  ASSERT_TRUE(store);
  CatalogStore& s = **store;
  constexpr int kThreads = 8;
  constexpr int kCommits = 40;
  ASSERT_TRUE(s.CreateNamespace({}, {"a"}, {}));
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(s.CreateObject({}, Identifier{{"a"}, "t" + std::to_string(t)}, ObjectKind::kTable,
                               "file:/0"));
  }
  std::atomic<int> failures{0};
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Identifier id{{"a"}, "t" + std::to_string(t)};
      for (int i = 0; i < kCommits; ++i) {
        if (!s.SwapPointer({}, id, ObjectKind::kTable, "file:/" + std::to_string(i),
                           "file:/" + std::to_string(i + 1))) {
          failures++;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(failures.load(), 0);
  for (int t = 0; t < kThreads; ++t) {
    auto p = s.LoadPointer({}, Identifier{{"a"}, "t" + std::to_string(t)}, ObjectKind::kTable);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->metadata_location, "file:/" + std::to_string(kCommits));
    EXPECT_EQ(p->version, kCommits + 1);
  }
  std::printf("[ cost ] %d concurrent commits from %d threads: %.0f commits/s\n",
              kThreads * kCommits, kThreads, kThreads * kCommits / seconds);
}

}  // namespace
}  // namespace firn::store::testing
