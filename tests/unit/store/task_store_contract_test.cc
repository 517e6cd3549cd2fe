// Contract tests for the durable tasks of CatalogStore (store/task_store.h), on every backend:
// one claimer per task even with two stores (two instances) on one database, leases that run
// out, and owners that lose their lease.
// Instantiated for every backend by the backend files (see catalog_store_contract.h).
#include <mutex>
#include <set>
#include <thread>

#include "catalog_store_contract.h"
#include "store/store.h"

namespace firn::store::testing {
namespace {

Task NewTask(std::string id, int64_t not_before = 0) {
  Task t;
  t.id = std::move(id);
  t.kind = "purge-table";
  t.realm = "default";
  t.catalog = "c";
  t.object = "table a.t";
  t.payload = "{}";
  t.not_before_ms = not_before;
  return t;
}

TEST_P(CatalogStoreContractTest, ATaskIsClaimedOnceAndFinishedByItsOwnerOnly) {
  ASSERT_TRUE(store_->EnqueueTask(NewTask("t1", 1000)));
  auto again = store_->EnqueueTask(NewTask("t1", 1000));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists);
  // Not due yet.
  EXPECT_FALSE(*store_->ClaimTask("i1", 999, 100));
  auto claimed = store_->ClaimTask("i1", 1000, 100);
  ASSERT_TRUE(claimed) << claimed.error().message;
  ASSERT_TRUE(*claimed);
  EXPECT_EQ((*claimed)->id, "t1");
  EXPECT_EQ((*claimed)->state, TaskState::kRunning);
  EXPECT_EQ((*claimed)->attempts, 1);
  EXPECT_EQ((*claimed)->lease_until_ms, 1100);
  EXPECT_FALSE(*store_->ClaimTask("i2", 1050, 100));  // leased
  auto renew = store_->RenewTask("t1", "i2", 2000, "");
  ASSERT_FALSE(renew);
  EXPECT_EQ(renew.error().kind, ErrorKind::kCommitFailed);
  ASSERT_TRUE(store_->RenewTask("t1", "i1", 1200, R"({"deleted":3})"));
  // The lease runs out: another instance takes it over, and the first can no longer finish.
  auto taken = store_->ClaimTask("i2", 1201, 100);
  ASSERT_TRUE(taken && *taken);
  EXPECT_EQ((*taken)->attempts, 2);
  EXPECT_EQ((*taken)->progress, R"({"deleted":3})");
  auto late = store_->FinishTask("t1", "i1", TaskState::kDone, 0, "", "");
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().kind, ErrorKind::kCommitFailed);
  ASSERT_TRUE(store_->FinishTask("t1", "i2", TaskState::kPending, 5000, R"({"deleted":4})", "x"));
  EXPECT_FALSE(*store_->ClaimTask("i1", 4999, 100));  // backoff
  ASSERT_TRUE(*store_->ClaimTask("i1", 5000, 100));
  ASSERT_TRUE(store_->FinishTask("t1", "i1", TaskState::kDone, 0, R"({"deleted":5})", ""));
  EXPECT_FALSE(*store_->ClaimTask("i1", 999999, 100));  // done is done
  auto listed = store_->ListTasks({});
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].state, TaskState::kDone);
  EXPECT_EQ((*listed)[0].attempts, 3);
  EXPECT_EQ((*listed)[0].lease_owner, "");
  EXPECT_EQ((*listed)[0].last_error, "");
  TaskFilter pending;
  pending.state = TaskState::kPending;
  EXPECT_TRUE(store_->ListTasks(pending)->empty());
}

// A claim that stopped early (pending again, no error) is not an attempt; one that failed is.
TEST_P(CatalogStoreContractTest, AStoppedClaimDoesNotCountAsAnAttempt) {
  ASSERT_TRUE(store_->EnqueueTask(NewTask("s", 0)));
  ASSERT_TRUE(*store_->ClaimTask("i1", 10, 100));
  ASSERT_TRUE(store_->FinishTask("s", "i1", TaskState::kPending, 10, R"({"deleted":1})", ""));
  auto again = store_->ClaimTask("i1", 10, 100);
  ASSERT_TRUE(again && *again);
  EXPECT_EQ((*again)->attempts, 1);
  ASSERT_TRUE(store_->FinishTask("s", "i1", TaskState::kPending, 10, "", "boom"));
  auto third = store_->ClaimTask("i1", 10, 100);
  ASSERT_TRUE(third && *third);
  EXPECT_EQ((*third)->attempts, 2);
  EXPECT_EQ((*third)->last_error, "boom");
}

TEST_P(CatalogStoreContractTest, ClaimByIdTakesThatTaskEvenBeforeItIsDue) {
  ASSERT_TRUE(store_->EnqueueTask(NewTask("early", 1)));
  ASSERT_TRUE(store_->EnqueueTask(NewTask("later", 10'000)));
  auto claimed = store_->ClaimTask("i1", 5, 100, "later");
  ASSERT_TRUE(claimed && *claimed);
  EXPECT_EQ((*claimed)->id, "later");
  EXPECT_FALSE(*store_->ClaimTask("i2", 5, 100, "later"));
  EXPECT_FALSE(*store_->ClaimTask("i2", 5, 100, "missing"));
}

// Two stores on one database (two instances) claim from the same queue at once: every task is
// claimed exactly once.
TEST_P(CatalogStoreContractTest, TwoInstancesClaimingAtOnceNeverShareATask) {
  auto second = backend_->Open();
  ASSERT_TRUE(second) << second.error().message;
  constexpr int kTasks = 40;
  for (int i = 0; i < kTasks; ++i) {
    ASSERT_TRUE(store_->EnqueueTask(NewTask("task-" + std::to_string(i), i)));
  }
  std::mutex mu;
  std::multiset<std::string> claimed;
  auto claim_all = [&](CatalogStore* s, const std::string& owner) {
    int misses = 0;
    for (int tries = 0; misses < 3 && tries < 1000; ++tries) {
      auto got = s->ClaimTask(owner, 1'000'000, 60'000);
      if (!got) continue;  // a transient conflict: try again
      if (!*got) {
        ++misses;
        continue;
      }
      std::lock_guard lock(mu);
      claimed.insert((*got)->id);
    }
  };
  std::thread a(claim_all, store_.get(), "i1");
  std::thread b(claim_all, second->get(), "i2");
  a.join();
  b.join();
  EXPECT_EQ(claimed.size(), static_cast<size_t>(kTasks));
  for (const std::string& id : claimed) EXPECT_EQ(claimed.count(id), 1u) << id;
}

}  // namespace
}  // namespace firn::store::testing
