// The pure parts of maintenance and soft delete (catalog/maintenance.h, catalog/soft_delete.h):
// which snapshots Iceberg's rules expire, how requests and retention values parse, and that
// task payloads round-trip.
#include "catalog/maintenance.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "catalog/soft_delete.h"

namespace firn::catalog {
namespace {

constexpr int64_t kNow = 1'000'000'000;
constexpr int64_t kHour = 3'600'000;

metadata::Snapshot Snap(int64_t id, std::optional<int64_t> parent, int64_t age_hours) {
  metadata::Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = parent;
  s.timestamp_ms = kNow - age_hours * kHour;
  return s;
}

metadata::SnapshotRef Ref(std::string type, int64_t id) {
  metadata::SnapshotRef r;
  r.type = std::move(type);
  r.snapshot_id = id;
  return r;
}

// main: 1 <- 2 <- 3 <- 4 <- 5 (5 is newest, 1 hour old; 1 is 50 hours old).
metadata::TableMetadata Linear() {
  metadata::TableMetadata t;
  for (int64_t i = 1; i <= 5; ++i) {
    t.snapshots.push_back(Snap(i, i == 1 ? std::nullopt : std::optional<int64_t>(i - 1),
                               (6 - i) * 10 - 9));
  }
  t.current_snapshot_id = 5;
  t.refs["main"] = Ref("branch", 5);
  return t;
}

TEST(SnapshotsToExpire, KeepsTheNewestAncestorsWhileEitherRuleHolds) {
  auto t = Linear();  // ages: 1:41h 2:31h 3:21h 4:11h 5:1h
  // Age 15 h: 5 and 4 are young; retain 1 → 1, 2, 3 go.
  EXPECT_EQ(SnapshotsToExpire(t, kNow, 15 * kHour, 1), (std::vector<int64_t>{1, 2, 3}));
  // Retain 4 overrides the age for the four newest.
  EXPECT_EQ(SnapshotsToExpire(t, kNow, 15 * kHour, 4), (std::vector<int64_t>{1}));
  // Age 0 and retain 1: only the current snapshot stays.
  EXPECT_EQ(SnapshotsToExpire(t, kNow, 0, 1), (std::vector<int64_t>{1, 2, 3, 4}));
  // Everything young: nothing goes.
  EXPECT_TRUE(SnapshotsToExpire(t, kNow, 100 * kHour, 1).empty());
}

TEST(SnapshotsToExpire, EveryRefHeadStaysAndRefOverridesApply) {
  auto t = Linear();
  t.refs["audit"] = Ref("tag", 2);
  EXPECT_EQ(SnapshotsToExpire(t, kNow, 0, 1), (std::vector<int64_t>{1, 3, 4}));
  // A branch at 3 keeping its 2 newest keeps 3 and 2.
  auto b = Ref("branch", 3);
  b.min_snapshots_to_keep = 2;
  t.refs["dev"] = b;
  EXPECT_EQ(SnapshotsToExpire(t, kNow, 0, 1), (std::vector<int64_t>{1, 4}));
  // The walk stops at the first ancestor failing both rules, even if an older one is young.
  auto m = Ref("branch", 5);
  m.max_snapshot_age_ms = 5 * kHour;
  t.refs["main"] = m;
  t.refs.erase("dev");
  t.refs.erase("audit");
  EXPECT_EQ(SnapshotsToExpire(t, kNow, 100 * kHour, 1), (std::vector<int64_t>{1, 2, 3, 4}));
}

// The expiry's commit re-checks this against every attempt's base: a tag made on a planned
// victim between the plan and a retried swap stops the expiry instead of being dropped with it.
TEST(SnapshotsToExpire, AnExpiryRefusesABaseWhereARefNowPointsAtAVictim) {
  metadata::TableMetadata t = Linear();
  const std::vector<int64_t> planned = SnapshotsToExpire(t, kNow, 0, 1);
  ASSERT_EQ(planned, (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_TRUE(CheckNoRefOnExpired(t, planned));
  t.refs["quarter-end"] = Ref("tag", 3);  // made after the plan
  auto refused = CheckNoRefOnExpired(t, planned);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitFailed);
  EXPECT_NE(refused.error().message.find("quarter-end"), std::string::npos);
}

TEST(SnapshotsToExpire, UnreferencedSnapshotsGoOnlyWhenOld) {
  auto t = Linear();
  t.snapshots.push_back(Snap(10, 2, 30));  // a branch of history no ref reaches, 30 h old
  t.snapshots.push_back(Snap(11, 2, 2));   // and a young one
  EXPECT_EQ(SnapshotsToExpire(t, kNow, 15 * kHour, 1), (std::vector<int64_t>{1, 2, 3, 10}));
}

TEST(SnapshotsToExpire, ACyclicParentChainFromACraftedFileEnds) {
  metadata::TableMetadata t;
  t.snapshots = {Snap(1, 2, 50), Snap(2, 1, 40)};
  t.current_snapshot_id = 2;
  t.refs["main"] = Ref("branch", 2);
  EXPECT_EQ(SnapshotsToExpire(t, kNow, 0, 1), (std::vector<int64_t>{1}));
}

TEST(SnapshotsToExpire, TablePropertiesGiveTheDefaults) {
  auto t = Linear();
  EXPECT_EQ(TableMaxSnapshotAgeMs(t), int64_t{5} * 24 * kHour);
  EXPECT_EQ(TableMinSnapshotsToKeep(t), 1);
  t.properties["history.expire.max-snapshot-age-ms"] = "1000";
  t.properties["history.expire.min-snapshots-to-keep"] = "3";
  EXPECT_EQ(TableMaxSnapshotAgeMs(t), 1000);
  EXPECT_EQ(TableMinSnapshotsToKeep(t), 3);
  t.properties["history.expire.min-snapshots-to-keep"] = "-2";
  EXPECT_EQ(TableMinSnapshotsToKeep(t), 1);
}

Result<MaintenanceRequest> Parse(std::string_view json) {
  return ParseMaintenanceRequest(boost::json::parse(json).as_object());
}

TEST(MaintenanceRequest, ParsesAndRefusesWhatItDoesNotKnow) {
  auto r = Parse(R"({"action":"expire-snapshots","dryRun":true,"olderThan":"2d","retainLast":3})");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->action, MaintenanceAction::kExpireSnapshots);
  EXPECT_TRUE(r->dry_run);
  EXPECT_EQ(r->older_than_ms, 2 * 24 * kHour);
  EXPECT_EQ(r->retain_last, 3);
  auto o = Parse(R"({"action":"remove-orphan-files"})");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->action, MaintenanceAction::kRemoveOrphanFiles);
  EXPECT_FALSE(o->older_than_ms);
  for (std::string_view bad :
       {R"({})", R"({"action":"compact"})", R"({"action":7})",
        R"({"action":"expire-snapshots","dryRun":"true"})",
        R"({"action":"expire-snapshots","olderThan":5})",
        R"({"action":"expire-snapshots","olderThan":"-1d"})",
        R"({"action":"expire-snapshots","retainLast":0})",
        R"({"action":"remove-orphan-files","retainLast":2})",
        R"({"action":"expire-snapshots","unknown":1})"}) {
    auto refused = Parse(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().kind, ErrorKind::kBadRequest) << bad;
  }
}

TEST(MaintenanceTask, PayloadRoundTrips) {
  MaintenanceTask t;
  t.id = {{"a", "b"}, "t"};
  t.request.action = MaintenanceAction::kRemoveOrphanFiles;
  t.request.older_than_ms = 7200000;
  auto back = DecodeMaintenanceTask(EncodeMaintenanceTask(t));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->id, t.id);
  EXPECT_EQ(back->request.action, t.request.action);
  EXPECT_EQ(back->request.older_than_ms, t.request.older_than_ms);
  EXPECT_FALSE(back->request.retain_last);
  EXPECT_FALSE(DecodeMaintenanceTask("{\"name\":\"x\"}"));
  EXPECT_FALSE(DecodeMaintenanceTask("not json"));
}

TEST(Retention, ParsesDurationsAndRefusesTheRest) {
  EXPECT_EQ(ParseDuration("0"), std::chrono::seconds(0));
  EXPECT_EQ(ParseDuration("3600"), std::chrono::seconds(3600));
  EXPECT_EQ(ParseDuration("45s"), std::chrono::seconds(45));
  EXPECT_EQ(ParseDuration("30m"), std::chrono::seconds(1800));
  EXPECT_EQ(ParseDuration("12h"), std::chrono::seconds(43200));
  EXPECT_EQ(ParseDuration("7d"), std::chrono::seconds(604800));
  for (std::string_view bad : {"", "d", "7 d", "7days", "-1", "1.5h", "1w", "999999999999d",
                               "٣d"}) {
    auto refused = ParseDuration(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().kind, ErrorKind::kBadRequest);
    EXPECT_NE(refused.error().message.find("firn.drop.retention"), std::string::npos);
  }
}

TEST(ExpireTask, PayloadRoundTrips) {
  auto back = DecodeExpireTask(EncodeExpireTask("0190-abc"));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, "0190-abc");
  EXPECT_FALSE(DecodeExpireTask("{}"));
}

}  // namespace
}  // namespace firn::catalog
