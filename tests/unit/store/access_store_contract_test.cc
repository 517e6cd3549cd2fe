// The AccessStore contract (store/access_store.h) and the audited catalog writes
// (store/store.h), run once per backend like the rest of the CatalogStore contract suite
// (instantiated by sqlite_catalog_store_test.cc and postgres_catalog_store_test.cc).
#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "catalog_store_contract.h"
#include "store/access_store.h"
#include "store/store.h"

namespace firn::store::testing {
namespace {

constexpr int64_t kNow = 1'700'000'000'000;

AccessRecord Key(AccessKind kind, std::string name, std::string scope = "",
                 std::string realm = "r1") {
  AccessRecord record;
  record.realm = std::move(realm);
  record.kind = kind;
  record.scope = std::move(scope);
  record.name = std::move(name);
  return record;
}

AccessWrite Create(AccessRecord key, std::string body) {
  key.body = std::move(body);
  return AccessWrite{AccessWrite::Op::kCreate, std::move(key), std::nullopt};
}
AccessWrite Update(AccessRecord key, std::string body, std::optional<int64_t> expected) {
  key.body = std::move(body);
  return AccessWrite{AccessWrite::Op::kUpdate, std::move(key), expected};
}
AccessWrite Delete(AccessRecord key, std::optional<int64_t> expected) {
  return AccessWrite{AccessWrite::Op::kDelete, std::move(key), expected};
}
AccessWrite Upsert(AccessRecord key, std::string body) {
  key.body = std::move(body);
  return AccessWrite{AccessWrite::Op::kUpsert, std::move(key), std::nullopt};
}

AuditEntry Audit(std::string operation, std::string object, int64_t at_ms = 0) {
  AuditEntry entry;
  entry.at_ms = at_ms;
  entry.realm = "r1";
  entry.catalog = "c1";
  entry.principal = "alice";
  entry.client = "pyiceberg/0.9";
  entry.request_id = "req-1";
  entry.operation = std::move(operation);
  entry.object = std::move(object);
  entry.outcome = "success";
  return entry;
}

std::vector<std::string> Operations(const std::vector<AuditEntry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.operation);
  return out;
}

const AccessRecord* Find(const AccessRows& rows, AccessKind kind, const std::string& name) {
  for (const auto& r : rows.records) {
    if (r.kind == kind && r.name == name) return &r;
  }
  return nullptr;
}

// ---- Access records -------------------------------------------------------------------------

TEST_P(CatalogStoreContractTest, AccessStartsEmptyAtVersionZero) {
  auto version = store_->AccessVersion();
  ASSERT_OK(version);
  EXPECT_EQ(*version, 0);
  auto rows = store_->LoadAccess();
  ASSERT_OK(rows);
  EXPECT_EQ(rows->version, 0);
  EXPECT_TRUE(rows->records.empty());
}

TEST_P(CatalogStoreContractTest, AccessCreateSetsEntityVersionTimestampsAndBumpsVersion) {
  auto version = store_->ApplyAccessWrites(
      {Create(Key(AccessKind::kPrincipal, "alice"), R"({"id":1})"),
       Create(Key(AccessKind::kCatalogRole, "admins", "c1"), "{}")},
      nullptr, kNow);
  ASSERT_OK(version);
  EXPECT_EQ(*version, 1);
  EXPECT_EQ(*store_->AccessVersion(), 1);
  auto rows = store_->LoadAccess();
  ASSERT_OK(rows);
  EXPECT_EQ(rows->version, 1);
  ASSERT_EQ(rows->records.size(), 2u);
  const AccessRecord* alice = Find(*rows, AccessKind::kPrincipal, "alice");
  ASSERT_NE(alice, nullptr);
  EXPECT_EQ(alice->realm, "r1");
  EXPECT_EQ(alice->scope, "");
  EXPECT_EQ(alice->body, R"({"id":1})");
  EXPECT_EQ(alice->entity_version, 1);
  EXPECT_EQ(alice->created_ms, kNow);
  EXPECT_EQ(alice->updated_ms, kNow);
  const AccessRecord* role = Find(*rows, AccessKind::kCatalogRole, "admins");
  ASSERT_NE(role, nullptr);
  EXPECT_EQ(role->scope, "c1");
}

TEST_P(CatalogStoreContractTest, AccessCreateOfExistingKeyIsAlreadyExists) {
  ASSERT_OK(store_->ApplyAccessWrites({Create(Key(AccessKind::kPrincipal, "alice"), "{}")},
                                      nullptr, kNow));
  auto again = store_->ApplyAccessWrites({Create(Key(AccessKind::kPrincipal, "alice"), "{}")},
                                         nullptr, kNow);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(*store_->AccessVersion(), 1);  // the refused call bumped nothing
}

TEST_P(CatalogStoreContractTest, AccessKeysDifferByRealmKindAndScope) {
  ASSERT_OK(store_->ApplyAccessWrites(
      {Create(Key(AccessKind::kPrincipal, "x"), "{}"),
       Create(Key(AccessKind::kPrincipalRole, "x"), "{}"),
       Create(Key(AccessKind::kCatalogRole, "x", "c1"), "{}"),
       Create(Key(AccessKind::kCatalogRole, "x", "c2"), "{}"),
       Create(Key(AccessKind::kPrincipal, "x", "", "r2"), "{}")},
      nullptr, kNow));
  auto rows = store_->LoadAccess();
  ASSERT_OK(rows);
  EXPECT_EQ(rows->records.size(), 5u);
}

TEST_P(CatalogStoreContractTest, AccessUpdateBumpsEntityVersionAndKeepsCreatedTime) {
  const AccessRecord key = Key(AccessKind::kPrincipal, "alice");
  ASSERT_OK(store_->ApplyAccessWrites({Create(key, "v1")}, nullptr, kNow));
  ASSERT_OK(store_->ApplyAccessWrites({Update(key, "v2", 1)}, nullptr, kNow + 5));
  ASSERT_OK(store_->ApplyAccessWrites({Update(key, "v3", std::nullopt)}, nullptr, kNow + 9));
  auto rows = store_->LoadAccess();
  ASSERT_OK(rows);
  EXPECT_EQ(rows->version, 3);
  ASSERT_EQ(rows->records.size(), 1u);
  EXPECT_EQ(rows->records[0].body, "v3");
  EXPECT_EQ(rows->records[0].entity_version, 3);
  EXPECT_EQ(rows->records[0].created_ms, kNow);
  EXPECT_EQ(rows->records[0].updated_ms, kNow + 9);
}

TEST_P(CatalogStoreContractTest, AccessUpdateOrDeleteOfMissingKeyIsNotFound) {
  auto update = store_->ApplyAccessWrites(
      {Update(Key(AccessKind::kPrincipal, "ghost"), "{}", std::nullopt)}, nullptr, kNow);
  ASSERT_FALSE(update);
  EXPECT_EQ(update.error().kind, ErrorKind::kNotFound);
  auto del = store_->ApplyAccessWrites({Delete(Key(AccessKind::kPrincipal, "ghost"), 1)},
                                       nullptr, kNow);
  ASSERT_FALSE(del);
  EXPECT_EQ(del.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(*store_->AccessVersion(), 0);
}

TEST_P(CatalogStoreContractTest, AccessStaleExpectedVersionIsCommitFailed) {
  const AccessRecord key = Key(AccessKind::kPrincipal, "alice");
  ASSERT_OK(store_->ApplyAccessWrites({Create(key, "v1")}, nullptr, kNow));
  ASSERT_OK(store_->ApplyAccessWrites({Update(key, "v2", 1)}, nullptr, kNow));
  // A second writer that also read version 1 loses.
  auto stale = store_->ApplyAccessWrites({Update(key, "other", 1)}, nullptr, kNow);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind, ErrorKind::kCommitFailed);
  auto stale_delete = store_->ApplyAccessWrites({Delete(key, 1)}, nullptr, kNow);
  ASSERT_FALSE(stale_delete);
  EXPECT_EQ(stale_delete.error().kind, ErrorKind::kCommitFailed);
  auto rows = store_->LoadAccess();
  ASSERT_OK(rows);
  ASSERT_EQ(rows->records.size(), 1u);
  EXPECT_EQ(rows->records[0].body, "v2");
  EXPECT_EQ(rows->version, 2);
  // The current version deletes.
  ASSERT_OK(store_->ApplyAccessWrites({Delete(key, 2)}, nullptr, kNow));
  EXPECT_TRUE(store_->LoadAccess()->records.empty());
}

TEST_P(CatalogStoreContractTest, AccessUpsertCreatesThenReplaces) {
  const AccessRecord key = Key(AccessKind::kSigningKey, "kid-1");
  ASSERT_OK(store_->ApplyAccessWrites({Upsert(key, "a")}, nullptr, kNow));
  ASSERT_OK(store_->ApplyAccessWrites({Upsert(key, "b")}, nullptr, kNow + 1));
  auto rows = store_->LoadAccess();
  ASSERT_OK(rows);
  ASSERT_EQ(rows->records.size(), 1u);
  EXPECT_EQ(rows->records[0].body, "b");
  EXPECT_EQ(rows->records[0].entity_version, 2);
  EXPECT_EQ(rows->records[0].created_ms, kNow);
  EXPECT_EQ(rows->records[0].updated_ms, kNow + 1);
}

TEST_P(CatalogStoreContractTest, AccessFailingWriteInBatchLeavesNothing) {
  ASSERT_OK(store_->ApplyAccessWrites({Create(Key(AccessKind::kRealm, "r1"), "{}")}, nullptr,
                                      kNow));
  const AuditEntry audit = Audit("createPrincipal", "principal bob");
  auto result = store_->ApplyAccessWrites(
      {Create(Key(AccessKind::kPrincipal, "bob"), "{}"),
       Upsert(Key(AccessKind::kPrincipalRole, "readers"), "{}"),
       Update(Key(AccessKind::kRealm, "r1"), "{}", 7)},  // stale: fails last
      &audit, kNow);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind, ErrorKind::kCommitFailed);
  auto rows = store_->LoadAccess();
  ASSERT_OK(rows);
  EXPECT_EQ(rows->version, 1);
  ASSERT_EQ(rows->records.size(), 1u);
  EXPECT_EQ(rows->records[0].kind, AccessKind::kRealm);
  EXPECT_TRUE(AllAudit(*store_).empty());
}

TEST_P(CatalogStoreContractTest, AccessWritesAppendTheirAuditRowInTheSameTransaction) {
  const AuditEntry audit = Audit("createPrincipal", "principal bob");  // at_ms 0 = now_ms
  auto version = store_->ApplyAccessWrites({Create(Key(AccessKind::kPrincipal, "bob"), "{}")},
                                           &audit, kNow);
  ASSERT_OK(version);
  auto rows = AllAudit(*store_);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_GT(rows[0].id, 0);
  EXPECT_EQ(rows[0].at_ms, kNow);
  EXPECT_EQ(rows[0].realm, "r1");
  EXPECT_EQ(rows[0].catalog, "c1");
  EXPECT_EQ(rows[0].principal, "alice");
  EXPECT_EQ(rows[0].client, "pyiceberg/0.9");
  EXPECT_EQ(rows[0].request_id, "req-1");
  EXPECT_EQ(rows[0].operation, "createPrincipal");
  EXPECT_EQ(rows[0].object, "principal bob");
  EXPECT_EQ(rows[0].outcome, "success");
}

TEST_P(CatalogStoreContractTest, AccessStateSurvivesReopen) {
  const AuditEntry audit = Audit("createPrincipal", "principal bob");
  ASSERT_OK(store_->ApplyAccessWrites({Create(Key(AccessKind::kPrincipal, "bob"), "{\"s\":1}")},
                                      &audit, kNow));
  ASSERT_OK(store_->AckAccessVersion({"i-1", 1, kNow}));
  Reopen();
  auto rows = store_->LoadAccess();
  ASSERT_OK(rows);
  EXPECT_EQ(rows->version, 1);
  ASSERT_EQ(rows->records.size(), 1u);
  EXPECT_EQ(rows->records[0].body, "{\"s\":1}");
  EXPECT_EQ(AllAudit(*store_).size(), 1u);
  EXPECT_EQ(store_->LiveInstances(0)->size(), 1u);
}

// Read-modify-write from many threads: each increments a counter held in one record, retrying
// when another writer got there first. Optimistic concurrency must lose no increment.
TEST_P(CatalogStoreContractTest, AccessConcurrentWritersLoseNoUpdate) {
  const AccessRecord key = Key(AccessKind::kRealm, "counter");
  ASSERT_OK(store_->ApplyAccessWrites({Create(key, "0")}, nullptr, kNow));
  constexpr int kThreads = 6;
  constexpr int kIncrements = 8;
  std::atomic<int> conflicts{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kIncrements; ++i) {
        while (true) {
          auto rows = store_->LoadAccess();
          if (!rows) { failures++; return; }
          const AccessRecord* current = Find(*rows, AccessKind::kRealm, "counter");
          if (current == nullptr) { failures++; return; }
          const std::string next = std::to_string(std::stoi(current->body) + 1);
          // A second record per write checks that batches stay atomic under contention.
          auto written = store_->ApplyAccessWrites(
              {Update(key, next, current->entity_version),
               Create(Key(AccessKind::kPrincipal, "p" + std::to_string(t) + "-" +
                                                      std::to_string(i)),
                      "{}")},
              nullptr, kNow);
          if (written) break;
          if (written.error().kind != ErrorKind::kCommitFailed) { failures++; return; }
          conflicts++;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_EQ(failures.load(), 0);
  auto rows = store_->LoadAccess();
  ASSERT_OK(rows);
  const AccessRecord* counter = Find(*rows, AccessKind::kRealm, "counter");
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->body, std::to_string(kThreads * kIncrements));
  EXPECT_EQ(counter->entity_version, 1 + kThreads * kIncrements);
  EXPECT_EQ(rows->records.size(), static_cast<size_t>(1 + kThreads * kIncrements));
  // Only successful calls bump the global version.
  EXPECT_EQ(rows->version, 1 + kThreads * kIncrements);
}

// Concurrent creates of distinct keys: every one lands and every version number is handed out
// exactly once.
TEST_P(CatalogStoreContractTest, AccessConcurrentCreatesGetDistinctVersions) {
  constexpr int kThreads = 6;
  constexpr int kEach = 10;
  std::vector<std::vector<int64_t>> seen(kThreads);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        auto version = store_->ApplyAccessWrites(
            {Create(Key(AccessKind::kPrincipalRole,
                        "role" + std::to_string(t) + "-" + std::to_string(i)),
                    "{}")},
            nullptr, kNow);
        if (!version) { failures++; continue; }
        seen[t].push_back(*version);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_EQ(failures.load(), 0);
  std::vector<int64_t> all;
  for (const auto& s : seen) all.insert(all.end(), s.begin(), s.end());
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], static_cast<int64_t>(i + 1));
  EXPECT_EQ(store_->LoadAccess()->records.size(), static_cast<size_t>(kThreads * kEach));
}

// ---- Audited catalog writes ------------------------------------------------------------------

TEST_P(CatalogStoreContractTest, AuditedCatalogWritesAppendOneRowEach) {
  const Identifier t{{"db"}, "t"};
  const Identifier t2{{"db"}, "t2"};
  const AuditEntry a1 = Audit("createNamespace", "namespace db");
  const AuditEntry a2 = Audit("updateProperties", "namespace db");
  const AuditEntry a3 = Audit("createTable", "table db.t");
  const AuditEntry a4 = Audit("updateTable", "table db.t");
  const AuditEntry a5 = Audit("registerTable", "table db.t");
  const AuditEntry a6 = Audit("renameTable", "table db.t");
  const AuditEntry a7 = Audit("dropTable", "table db.t2");
  const AuditEntry a8 = Audit("dropNamespace", "namespace db");
  ASSERT_OK(store_->CreateNamespace(scope_, {"db"}, {}, &a1));
  ASSERT_OK(store_->UpdateNamespaceProperties(scope_, {"db"}, {}, {{"k", "v"}}, &a2));
  ASSERT_OK(store_->CreateObject(scope_, t, ObjectKind::kTable, "s3://m/1.json", &a3));
  ASSERT_OK(store_->SwapPointer(scope_, t, ObjectKind::kTable, "s3://m/1.json", "s3://m/2.json",
                                &a4));
  ASSERT_OK(store_->ReplacePointer(scope_, t, ObjectKind::kTable, "s3://m/3.json", &a5));
  ASSERT_OK(store_->RenameObject(scope_, t, t2, ObjectKind::kTable, &a6));
  ASSERT_OK(store_->DropObject(scope_, t2, ObjectKind::kTable, &a7));
  ASSERT_OK(store_->DropNamespace(scope_, {"db"}, &a8));
  EXPECT_EQ(Operations(AllAudit(*store_)),
            (std::vector<std::string>{"createNamespace", "updateProperties", "createTable",
                                      "updateTable", "registerTable", "renameTable", "dropTable",
                                      "dropNamespace"}));
}

TEST_P(CatalogStoreContractTest, AuditedSwapStoresLocationsAndLostSwapStoresNothing) {
  const Identifier t{{"db"}, "t"};
  ASSERT_OK(store_->CreateNamespace(scope_, {"db"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, t, ObjectKind::kTable, "m1"));
  AuditEntry audit = Audit("updateTable", "table db.t", kNow);
  audit.old_location = "m1";
  audit.new_location = "m2";
  ASSERT_OK(store_->SwapPointer(scope_, t, ObjectKind::kTable, "m1", "m2", &audit));
  // A second swap from the old location loses the compare-and-swap: no row for it.
  AuditEntry lost = Audit("updateTable", "table db.t", kNow + 1);
  auto result = store_->SwapPointer(scope_, t, ObjectKind::kTable, "m1", "m3", &lost);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind, ErrorKind::kCommitFailed);
  auto rows = AllAudit(*store_);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at_ms, kNow);
  EXPECT_EQ(rows[0].old_location, "m1");
  EXPECT_EQ(rows[0].new_location, "m2");
  // Failed creates, drops and renames write nothing either.
  const AuditEntry other = Audit("createTable", "table db.t");
  EXPECT_FALSE(store_->CreateObject(scope_, t, ObjectKind::kTable, "x", &other));
  EXPECT_FALSE(store_->DropObject(scope_, {{"db"}, "nope"}, ObjectKind::kTable, &other));
  EXPECT_FALSE(store_->CreateNamespace(scope_, {"db"}, {}, &other));
  EXPECT_EQ(AllAudit(*store_).size(), 1u);
  EXPECT_EQ(store_->LoadPointer(scope_, t, ObjectKind::kTable)->metadata_location, "m2");
}

TEST_P(CatalogStoreContractTest, AuditedCommitTransactionIsAllOrNothingWithItsRows) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"db"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, {{"db"}, "a"}, ObjectKind::kTable, "a1"));
  ASSERT_OK(store_->CreateObject(scope_, {{"db"}, "b"}, ObjectKind::kTable, "b1"));
  const std::vector<AuditEntry> audits = {Audit("commitTransaction", "table db.a"),
                                          Audit("commitTransaction", "table db.b")};
  // b's expected location is stale: nothing commits, no rows.
  auto failed = store_->CommitTransaction(
      scope_,
      {PointerSwap{{{"db"}, "a"}, ObjectKind::kTable, "a1", "a2"},
       PointerSwap{{{"db"}, "b"}, ObjectKind::kTable, "stale", "b2"}},
      audits);
  ASSERT_FALSE(failed);
  EXPECT_TRUE(AllAudit(*store_).empty());
  EXPECT_EQ(store_->LoadPointer(scope_, {{"db"}, "a"}, ObjectKind::kTable)->metadata_location,
            "a1");
  ASSERT_OK(store_->CommitTransaction(
      scope_,
      {PointerSwap{{{"db"}, "a"}, ObjectKind::kTable, "a1", "a2"},
       PointerSwap{{{"db"}, "b"}, ObjectKind::kTable, "b1", "b2"}},
      audits));
  auto rows = AllAudit(*store_);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].object, "table db.a");
  EXPECT_EQ(rows[1].object, "table db.b");
}

TEST_P(CatalogStoreContractTest, UnauditedWritesAppendNoRows) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"db"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, {{"db"}, "t"}, ObjectKind::kTable, "m1"));
  ASSERT_OK(store_->SwapPointer(scope_, {{"db"}, "t"}, ObjectKind::kTable, "m1", "m2"));
  ASSERT_OK(store_->ApplyAccessWrites({Create(Key(AccessKind::kRealm, "r1"), "{}")}, nullptr,
                                      kNow));
  EXPECT_TRUE(AllAudit(*store_).empty());
}

// ---- ListAudit --------------------------------------------------------------------------------

class AuditRows {
 public:
  // Six rows at times 100..600 over two realms, two principals, two operations; the one at 200
  // was refused.
  static void Fill(CatalogStore& store) {
    struct Row { const char* realm; const char* catalog; const char* principal;
                 const char* operation; const char* object; int64_t at; };
    const Row rows[] = {
        {"r1", "c1", "alice", "updateTable", "table db.orders", 100},
        {"r1", "c1", "bob", "updateTable", "table db.items", 200},
        {"r1", "c2", "alice", "createTable", "table sales.x", 300},
        {"r2", "c1", "alice", "updateTable", "table db.orders", 400},
        {"r1", "", "bob", "createPrincipal", "principal carol", 500},
        {"r1", "c1", "alice", "updateTable", "table dbx.orders", 600},
    };
    for (const auto& row : rows) {
      AuditEntry entry;
      entry.realm = row.realm;
      entry.catalog = row.catalog;
      entry.principal = row.principal;
      entry.operation = row.operation;
      entry.object = row.object;
      entry.at_ms = row.at;
      entry.outcome = row.at == 200 ? "CommitFailed" : "success";
      ASSERT_TRUE(store.AppendAudit(entry));
    }
  }
};

std::vector<int64_t> Times(const Result<std::vector<AuditEntry>>& rows) {
  std::vector<int64_t> out;
  if (!rows) {
    ADD_FAILURE() << rows.error().message << " / " << rows.error().detail;
    return out;
  }
  for (const auto& e : *rows) out.push_back(e.at_ms);
  return out;
}

TEST_P(CatalogStoreContractTest, ListAuditIsNewestFirstAndFiltersByEveryField) {
  AuditRows::Fill(*store_);
  AuditFilter all;
  EXPECT_EQ(Times(store_->ListAudit(all)), (std::vector<int64_t>{600, 500, 400, 300, 200, 100}));
  AuditFilter realm;
  realm.realm = "r2";
  EXPECT_EQ(Times(store_->ListAudit(realm)), (std::vector<int64_t>{400}));
  AuditFilter catalog;
  catalog.catalog = "c1";
  EXPECT_EQ(Times(store_->ListAudit(catalog)), (std::vector<int64_t>{600, 400, 200, 100}));
  AuditFilter principal;
  principal.principal = "bob";
  EXPECT_EQ(Times(store_->ListAudit(principal)), (std::vector<int64_t>{500, 200}));
  AuditFilter operation;
  operation.operation = "createTable";
  EXPECT_EQ(Times(store_->ListAudit(operation)), (std::vector<int64_t>{300}));
  AuditFilter refused;
  refused.outcome = "CommitFailed";
  EXPECT_EQ(Times(store_->ListAudit(refused)), (std::vector<int64_t>{200}));
  AuditFilter prefix;  // a byte-wise prefix: "table db." does not match "table dbx."
  prefix.object_prefix = "table db.";
  EXPECT_EQ(Times(store_->ListAudit(prefix)), (std::vector<int64_t>{400, 200, 100}));
  AuditFilter upper;  // and case-sensitive
  upper.object_prefix = "TABLE";
  EXPECT_TRUE(Times(store_->ListAudit(upper)).empty());
  AuditFilter window;  // since inclusive, until exclusive
  window.since_ms = 200;
  window.until_ms = 500;
  EXPECT_EQ(Times(store_->ListAudit(window)), (std::vector<int64_t>{400, 300, 200}));
  AuditFilter combined;
  combined.realm = "r1";
  combined.principal = "alice";
  combined.operation = "updateTable";
  combined.since_ms = 50;
  EXPECT_EQ(Times(store_->ListAudit(combined)), (std::vector<int64_t>{600, 100}));
}

TEST_P(CatalogStoreContractTest, ListAuditPagesForwardByAfterId) {
  AuditRows::Fill(*store_);
  AuditFilter newest;
  newest.limit = 2;
  EXPECT_EQ(Times(store_->ListAudit(newest)), (std::vector<int64_t>{600, 500}));
  AuditFilter page;
  page.after_id = 0;
  page.limit = 4;
  auto first = store_->ListAudit(page);
  EXPECT_EQ(Times(first), (std::vector<int64_t>{100, 200, 300, 400}));
  ASSERT_TRUE(first && first->size() == 4u);
  page.after_id = first->back().id;
  auto second = store_->ListAudit(page);
  EXPECT_EQ(Times(second), (std::vector<int64_t>{500, 600}));
  ASSERT_TRUE(second && second->size() == 2u);
  page.after_id = second->back().id;
  EXPECT_TRUE(Times(store_->ListAudit(page)).empty());
  // Ids increase with insertion order.
  EXPECT_LT(first->front().id, second->front().id);
}

TEST_P(CatalogStoreContractTest, ListAuditRejectsBadLimitsAndWindows) {
  AuditFilter zero;
  zero.limit = 0;
  auto a = store_->ListAudit(zero);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().kind, ErrorKind::kIllegalArgument);
  AuditFilter huge;
  huge.limit = 1001;
  EXPECT_FALSE(store_->ListAudit(huge));
  AuditFilter backwards;
  backwards.since_ms = 10;
  backwards.until_ms = 10;
  EXPECT_FALSE(store_->ListAudit(backwards));
}

// ---- Instance acknowledgements ---------------------------------------------------------------

TEST_P(CatalogStoreContractTest, InstanceAcksKeepTheLatestAndLivenessFollowsHeartbeats) {
  ASSERT_OK(store_->AckAccessVersion({"i-a", 3, 1000}));
  ASSERT_OK(store_->AckAccessVersion({"i-b", 2, 1500}));
  ASSERT_OK(store_->AckAccessVersion({"i-a", 5, 2000}));  // replaces i-a's ack
  auto live = store_->LiveInstances(1500);
  ASSERT_OK(live);
  ASSERT_EQ(live->size(), 2u);
  EXPECT_EQ((*live)[0].instance_id, "i-a");
  EXPECT_EQ((*live)[0].version, 5);
  EXPECT_EQ((*live)[0].heartbeat_ms, 2000);
  EXPECT_EQ((*live)[1].instance_id, "i-b");
  EXPECT_EQ((*live)[1].version, 2);
  auto recent = store_->LiveInstances(1501);
  ASSERT_OK(recent);
  ASSERT_EQ(recent->size(), 1u);
  EXPECT_EQ((*recent)[0].instance_id, "i-a");
  EXPECT_TRUE(store_->LiveInstances(2001)->empty());
}

}  // namespace
}  // namespace firn::store::testing
