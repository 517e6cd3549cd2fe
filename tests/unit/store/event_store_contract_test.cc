// The EventStore contract (store/event_store.h) on every backend: the change feed is the
// audited successes in commit order, a refused or failed write leaves no event, a reader
// polling with its cursor while many writers commit at once sees every event exactly once
// (the attack on an outbox ordered by id alone: a row with a smaller id committing after a
// larger one), and a sink's delivery state moves only for the instance holding its lease.
// Instantiated for every backend by the backend files (see catalog_store_contract.h).
#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "catalog_store_contract.h"
#include "store/store.h"

namespace firn::store::testing {
namespace {

AuditEntry Change(const CatalogScope& scope, std::string operation, std::string object) {
  AuditEntry e;
  e.realm = scope.realm;
  e.catalog = scope.catalog;
  e.principal = "alice";
  e.operation = std::move(operation);
  e.object = std::move(object);
  e.outcome = "success";
  return e;
}

std::vector<ChangeEvent> Feed(CatalogStore& store, const std::string& realm,
                              EventCursor after = {}, const std::string& catalog = "",
                              int64_t limit = 1000) {
  EventFilter f;
  f.realm = realm;
  f.catalog = catalog;
  f.after = after;
  f.limit = limit;
  auto events = store.ListEvents(f);
  EXPECT_TRUE(events) << events.error().message << " / " << events.error().detail;
  return events ? *events : std::vector<ChangeEvent>{};
}

// The feed once it holds at least `n` events. On PostgreSQL it shows only transactions older
// than every transaction still running in the cluster, so while other tests write beside this
// one the newest events may take a moment to appear (they are never skipped).
std::vector<ChangeEvent> SettledFeed(CatalogStore& store, const std::string& realm, size_t n,
                                     const std::string& catalog = "") {
  std::vector<ChangeEvent> events;
  for (int i = 0; i < 500; ++i) {
    events = Feed(store, realm, {}, catalog);
    if (events.size() >= n) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return events;
}

std::vector<std::string> Operations(const std::vector<ChangeEvent>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) out.push_back(e.entry.operation);
  return out;
}

TEST_P(CatalogStoreContractTest, TheFeedIsTheAuditedSuccessesInCommitOrder) {
  auto ns = Change(scope_, "createNamespace", "namespace a");
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}, &ns));
  auto create = Change(scope_, "createTable", "table a.t");
  create.new_location = "file:///w/a/t/metadata/00000.json";
  ASSERT_OK(store_->CreateObject(scope_, {{"a"}, "t"}, ObjectKind::kTable, create.new_location,
                                 &create));
  auto commit = Change(scope_, "updateTable", "table a.t");
  commit.old_location = create.new_location;
  commit.new_location = "file:///w/a/t/metadata/00001.json";
  ASSERT_OK(store_->SwapPointer(scope_, {{"a"}, "t"}, ObjectKind::kTable, commit.old_location,
                                commit.new_location, &commit));
  // A lost compare-and-swap writes nothing, event included; a recorded refusal is no event.
  auto lost = Change(scope_, "updateTable", "table a.t");
  auto refused = store_->SwapPointer(scope_, {{"a"}, "t"}, ObjectKind::kTable, "file:///stale",
                                     "file:///w/a/t/metadata/00002.json", &lost);
  ASSERT_FALSE(refused);
  auto refusal = Change(scope_, "updateTable", "table a.t");
  refusal.outcome = "CommitFailedException";
  ASSERT_OK(store_->AppendAudit(refusal));
  // Another catalog and another realm.
  CatalogScope other{scope_.realm, "other"};
  auto elsewhere = Change(other, "createNamespace", "namespace b");
  ASSERT_OK(store_->CreateNamespace(other, {"b"}, {}, &elsewhere));
  CatalogScope foreign{"realm2", "c"};
  auto far = Change(foreign, "createNamespace", "namespace z");
  ASSERT_OK(store_->CreateNamespace(foreign, {"z"}, {}, &far));

  auto all = SettledFeed(*store_, scope_.realm, 4);
  EXPECT_EQ(Operations(all), (std::vector<std::string>{"createNamespace", "createTable",
                                                       "updateTable", "createNamespace"}));
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[2].entry.old_location, "file:///w/a/t/metadata/00000.json");
  EXPECT_EQ(all[2].entry.new_location, "file:///w/a/t/metadata/00001.json");
  EXPECT_EQ(all[2].entry.outcome, "success");
  EXPECT_EQ(all[3].entry.catalog, "other");
  EXPECT_EQ(Feed(*store_, scope_.realm, {}, "other").size(), 1u);
  EXPECT_EQ(Operations(SettledFeed(*store_, "realm2", 1)),
            std::vector<std::string>{"createNamespace"});
  // Paging by cursor: strictly after, in the same order.
  auto first_two = Feed(*store_, scope_.realm, {}, "", 2);
  ASSERT_EQ(first_two.size(), 2u);
  auto rest = Feed(*store_, scope_.realm, first_two.back().cursor);
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[0].entry.id, all[2].entry.id);
  EXPECT_TRUE(Feed(*store_, scope_.realm, all.back().cursor).empty());
  // The latest cursor is where "from now on" starts.
  auto latest = store_->LatestEventCursor(scope_.realm);
  ASSERT_OK(latest);
  EXPECT_EQ(*latest, all.back().cursor);
  auto none = store_->LatestEventCursor("no-such-realm");
  ASSERT_OK(none);
  EXPECT_EQ(*none, (EventCursor{0, 0}));
  EventFilter bad;
  bad.realm = scope_.realm;
  bad.limit = 0;
  auto refused_limit = store_->ListEvents(bad);
  ASSERT_FALSE(refused_limit);
  EXPECT_EQ(refused_limit.error().kind, ErrorKind::kIllegalArgument);
}

// The attack on an outbox read by id: on a database with concurrent writers, an id is taken
// when the row is inserted, not when its transaction commits, so a reader that has moved its
// cursor past id 10 never sees id 9 committing a moment later. Writers on two stores (two
// instances) commit as fast as they can while a reader follows the feed; the reader must see
// every change exactly once.
TEST_P(CatalogStoreContractTest, AReaderFollowingTheFeedMissesNoConcurrentCommit) {
  auto second = backend_->Open();
  ASSERT_TRUE(second) << second.error().message;
  constexpr int kWriters = 4;
  constexpr int kEach = 40;
  std::atomic<int> done{0};
  auto write = [&](CatalogStore* store, int writer) {
    for (int i = 0; i < kEach; ++i) {
      const std::string name = "w" + std::to_string(writer) + "_" + std::to_string(i);
      auto audit = Change(scope_, "createNamespace", "namespace " + name);
      auto st = store->CreateNamespace(scope_, {name}, {}, &audit);
      EXPECT_TRUE(st) << st.error().message;
    }
    done.fetch_add(1);
  };
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back(write, w % 2 == 0 ? store_.get() : second->get(), w);
  }
  std::vector<std::string> seen;
  EventCursor cursor;
  auto poll = [&] {
    for (const auto& e : Feed(*store_, scope_.realm, cursor, "", 7)) {
      seen.push_back(e.entry.object);
      EXPECT_TRUE(e.cursor.txn > cursor.txn ||
                  (e.cursor.txn == cursor.txn && e.cursor.id > cursor.id));
      cursor = e.cursor;
    }
  };
  while (done.load() < kWriters) poll();
  for (auto& t : writers) t.join();
  for (int i = 0; i < 500 && seen.size() < kWriters * kEach; ++i) {
    poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::set<std::string> unique(seen.begin(), seen.end());
  EXPECT_EQ(seen.size(), unique.size()) << "an event was read twice";
  EXPECT_EQ(unique.size(), static_cast<size_t>(kWriters * kEach)) << "an event was skipped";
}

EventSink NewSink(std::string name, std::string realm = "default") {
  EventSink s;
  s.realm = std::move(realm);
  s.name = std::move(name);
  s.url = "http://127.0.0.1:9/hook";
  s.operations = "updateTable,createTable";
  s.created_ms = 1000;
  s.delivered_through = {0, 7};
  return s;
}

TEST_P(CatalogStoreContractTest, ASinkIsDeliveredByItsLeaseHolderOnly) {
  auto created = Change(scope_, "createEventSink", "event-sink s1");
  ASSERT_OK(store_->CreateEventSink(NewSink("s1"), &created));
  auto dup = store_->CreateEventSink(NewSink("s1"), &created);
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().kind, ErrorKind::kAlreadyExists);
  ASSERT_OK(store_->CreateEventSink(NewSink("s1", "realm2")));
  ASSERT_OK(store_->CreateEventSink(NewSink("s2")));
  auto listed = store_->ListEventSinks("default");
  ASSERT_OK(listed);
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].name, "s1");
  EXPECT_EQ((*listed)[0].operations, "updateTable,createTable");
  EXPECT_EQ((*listed)[0].delivered_through, (EventCursor{0, 7}));
  EXPECT_EQ(store_->ListEventSinks("")->size(), 3u);
  // The creation is audited once, in its transaction (the refused duplicate wrote nothing).
  EXPECT_EQ(Operations(SettledFeed(*store_, "default", 1)),
            std::vector<std::string>{"createEventSink"});

  auto claimed = store_->ClaimEventSink("default", "s1", "i1", 5000, 100);
  ASSERT_OK(claimed);
  ASSERT_TRUE(*claimed);
  EXPECT_EQ((*claimed)->lease_owner, "i1");
  EXPECT_EQ((*claimed)->lease_until_ms, 5100);
  EXPECT_FALSE(*store_->ClaimEventSink("default", "s1", "i2", 5050, 100)) << "leased";
  EXPECT_FALSE(*store_->ClaimEventSink("default", "nope", "i2", 5050, 100));
  ASSERT_TRUE(*store_->ClaimEventSink("realm2", "s1", "i2", 5050, 100)) << "another realm's";

  SinkProgress p;
  p.delivered_through = {3, 12};
  p.newly_delivered = 5;
  p.attempt_ms = 5070;
  p.last_success_ms = 5070;
  p.next_attempt_ms = 6000;
  auto stolen = store_->FinishEventSink("default", "s1", "i2", p);
  ASSERT_FALSE(stolen);
  EXPECT_EQ(stolen.error().kind, ErrorKind::kCommitFailed);
  ASSERT_OK(store_->FinishEventSink("default", "s1", "i1", p));
  EXPECT_FALSE(*store_->ClaimEventSink("default", "s1", "i3", 5999, 100)) << "due at 6000";
  auto due = store_->ClaimEventSink("default", "s1", "i3", 6000, 100);
  ASSERT_TRUE(due && *due);
  EXPECT_EQ((*due)->delivered_through, (EventCursor{3, 12}));
  EXPECT_EQ((*due)->delivered, 5);
  // i3's lease runs out: i4 takes the sink over, and i3 can no longer record anything.
  auto taken = store_->ClaimEventSink("default", "s1", "i4", 6101, 100);
  ASSERT_TRUE(taken && *taken);
  p.delivered_through = {9, 99};
  auto late = store_->FinishEventSink("default", "s1", "i3", p);
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().kind, ErrorKind::kCommitFailed);
  p.delivered_through = {4, 20};
  p.newly_delivered = 2;
  p.attempt_ms = 6110;
  p.next_attempt_ms = 7000;
  ASSERT_OK(store_->FinishEventSink("default", "s1", "i4", p));

  auto after = store_->ListEventSinks("default");
  ASSERT_OK(after);
  const EventSink& s = (*after)[0];
  EXPECT_EQ(s.delivered_through, (EventCursor{4, 20}));
  EXPECT_EQ(s.delivered, 7);
  EXPECT_EQ(s.last_attempt_ms, 6110);
  EXPECT_EQ(s.next_attempt_ms, 7000);
  EXPECT_EQ(s.lease_owner, "");
  EXPECT_EQ(s.lease_until_ms, 0);

  // A KEK rotation's re-seal replaces the secret only if it is still the one it read.
  auto stale = store_->ReplaceEventSinkSecret("default", "s1", "not-what-is-stored", "k2.x");
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind, ErrorKind::kCommitFailed);
  ASSERT_OK(store_->ReplaceEventSinkSecret("default", "s1", "", "k2.sealed"));
  EXPECT_EQ((*store_->ListEventSinks("default"))[0].secret, "k2.sealed");
  EXPECT_EQ(store_->ReplaceEventSinkSecret("default", "gone", "", "x").error().kind,
            ErrorKind::kCommitFailed);

  // Deleting a leased sink: its holder's finish is refused.
  ASSERT_TRUE(*store_->ClaimEventSink("default", "s1", "i5", 7000, 100));
  ASSERT_OK(store_->DeleteEventSink("default", "s1"));
  EXPECT_EQ(store_->FinishEventSink("default", "s1", "i5", p).error().kind,
            ErrorKind::kCommitFailed);
  auto missing = store_->DeleteEventSink("default", "s1");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
}

}  // namespace
}  // namespace firn::store::testing
