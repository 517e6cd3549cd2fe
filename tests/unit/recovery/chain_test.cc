// Choosing a head by the metadata-log chain (recovery/chain.h), on the shapes the recovery
// chapter met: a clean chain, a stray newer by name, a stale copy, a fork, a branch of history
// that ended earlier, a pointer source that settles a fork, and crafted cycles.
#include "recovery/chain.h"

#include <gtest/gtest.h>

namespace firn::recovery {
namespace {

std::string Name(int version, std::string suffix = "a") {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%05d-%s.metadata.json", version, suffix.c_str());
  return buf;
}

// A file at `version` whose log lists `log` and which holds `snapshots`.
MetadataFacts File(std::string name, std::vector<std::string> log, std::set<int64_t> snapshots,
                   int64_t updated = 0) {
  MetadataFacts f;
  f.uri = "s3://b/wh/db/t/metadata/" + name;
  f.name = std::move(name);
  f.table_uuid = "u";
  f.log = std::move(log);
  f.snapshot_ids = std::move(snapshots);
  if (!f.snapshot_ids.empty()) f.current_snapshot_id = *f.snapshot_ids.rbegin();
  f.last_updated_ms = updated;
  return f;
}

// v0 … vN, each adding snapshot id = version.
std::vector<MetadataFacts> Linear(int n) {
  std::vector<MetadataFacts> files;
  std::vector<std::string> log;
  std::set<int64_t> snaps;
  for (int v = 0; v <= n; ++v) {
    snaps.insert(v);
    files.push_back(File(Name(v), log, snaps, 1000 + v));
    log.push_back(Name(v));
  }
  return files;
}

TEST(ChooseHead, ACleanChainHasOneHeadTheFileNoOtherLists) {
  auto files = Linear(5);
  HeadChoice c = ChooseHead(files);
  ASSERT_TRUE(c.head);
  EXPECT_EQ(files[*c.head].name, Name(5));
  EXPECT_FALSE(c.forked);
  EXPECT_EQ(ChainOf(files[*c.head]).size(), 6u);
}

TEST(ChooseHead, AStrayNewerByNameThatAddsNothingLosesToTheHead) {
  // A failed property commit built on v3 after v5 committed: v6 by name, but its history (v0-v3
  // and snapshots 0-3) is inside v5's.
  auto files = Linear(5);
  files.push_back(File(Name(6, "stray"), {Name(0), Name(1), Name(2), Name(3)}, {0, 1, 2, 3}, 9999));
  HeadChoice c = ChooseHead(files);
  ASSERT_TRUE(c.head);
  EXPECT_EQ(files[*c.head].name, Name(5));
  EXPECT_EQ(c.candidates.size(), 2u);
}

TEST(ChooseHead, AStaleCopyOfAnEarlierVersionIsNotAHead) {
  auto files = Linear(4);
  MetadataFacts copy = files[2];  // v2 copied under another name
  copy.name = "copy-of-00002.metadata.json";
  copy.uri = "s3://b/wh/db/t/metadata/" + copy.name;
  files.push_back(copy);
  HeadChoice c = ChooseHead(files);
  ASSERT_TRUE(c.head);
  EXPECT_EQ(files[*c.head].name, Name(4));
}

TEST(ChooseHead, TwoCopiesOfTheHeadAreOneHeadWhicheverIsRegistered) {
  auto files = Linear(3);
  MetadataFacts copy = files[3];
  copy.name = "00003-zcopy.metadata.json";
  copy.uri = "s3://b/wh/db/t/metadata/" + copy.name;
  files.push_back(copy);
  HeadChoice c = ChooseHead(files);
  ASSERT_TRUE(c.head) << c.reason;
  EXPECT_EQ(files[*c.head].snapshot_ids, files[3].snapshot_ids);
  EXPECT_FALSE(c.forked);
}

TEST(ChooseHead, AForkIsReportedNeverGuessed) {
  // Two catalogs both committed on v3: v4-a (snapshot 4) and v4-b (snapshot 40).
  auto files = Linear(4);
  files.push_back(File(Name(4, "b"), {Name(0), Name(1), Name(2), Name(3)}, {0, 1, 2, 3, 40}, 5000));
  HeadChoice c = ChooseHead(files);
  EXPECT_FALSE(c.head);
  EXPECT_TRUE(c.forked);
  EXPECT_EQ(c.maximal.size(), 2u);
  EXPECT_NE(c.reason.find("fork"), std::string::npos);
  // The operator's rule settles it: the latest update.
  HeadChoice latest = ChooseHead(files, {}, ForkRule::kLatestUpdate);
  ASSERT_TRUE(latest.head);
  EXPECT_EQ(files[*latest.head].name, Name(4, "b"));
  // A pointer source names one of them, or a file only one of their chains holds.
  HeadChoice named = ChooseHead(files, {Name(4)});
  ASSERT_TRUE(named.head);
  EXPECT_EQ(files[*named.head].name, Name(4));
  files.push_back(File(Name(5, "b"), {Name(0), Name(1), Name(2), Name(3), Name(4, "b")},
                       {0, 1, 2, 3, 40, 50}, 6000));
  HeadChoice by_chain = ChooseHead(files, {Name(4, "b")});
  ASSERT_TRUE(by_chain.head);
  EXPECT_EQ(files[*by_chain.head].name, Name(5, "b"));
  // A pointer both sides' chains hold (a backup older than the fork) settles nothing.
  EXPECT_FALSE(ChooseHead(files, {Name(2)}).head);
}

TEST(ChooseHead, ABranchOfHistoryThatEndedEarlierIsContainedAndLoses) {
  // v3-old holds v0-v2 and snapshots 0-2 only (its own change expired nothing, added nothing);
  // the main line went on to v6.
  auto files = Linear(6);
  files.push_back(File(Name(3, "old"), {Name(0), Name(1), Name(2)}, {0, 1, 2}, 100));
  HeadChoice c = ChooseHead(files);
  ASSERT_TRUE(c.head);
  EXPECT_EQ(files[*c.head].name, Name(6));
}

TEST(ChooseHead, AnExpiredSnapshotDoesNotMakeTheTrueHeadLookForked) {
  // The head expired snapshot 0; a stale copy of v2 still holds it: not contained, so the
  // copy is a second maximal candidate — reported, because the chain cannot tell it from a
  // real branch. (Expiry through Firn never leaves such a copy.)
  auto files = Linear(3);
  files[3].snapshot_ids.erase(0);
  MetadataFacts copy = files[2];
  copy.name = "copy.metadata.json";
  copy.uri = "s3://b/x/copy.metadata.json";
  files.push_back(copy);
  HeadChoice c = ChooseHead(files);
  EXPECT_FALSE(c.head);
  EXPECT_TRUE(c.forked);
}

TEST(ChooseHead, CraftedCyclesAndEmptySetsHaveNoHead) {
  EXPECT_FALSE(ChooseHead({}).head);
  std::vector<MetadataFacts> cycle = {File("a.metadata.json", {"b.metadata.json"}, {1}),
                                      File("b.metadata.json", {"a.metadata.json"}, {1})};
  HeadChoice c = ChooseHead(cycle);
  EXPECT_FALSE(c.head);
  EXPECT_TRUE(c.forked);
}

TEST(HistoryContained, NeedsBothTheLogAndTheSnapshots) {
  MetadataFacts a = File("a", {"x", "y"}, {1, 2});
  MetadataFacts b = File("b", {"x", "y", "a"}, {1, 2, 3});
  EXPECT_TRUE(HistoryContained(a, b));
  EXPECT_FALSE(HistoryContained(b, a));
  MetadataFacts c = File("c", {"x", "z"}, {1, 2});
  EXPECT_FALSE(HistoryContained(c, b));  // lists a file b does not
  MetadataFacts d = File("d", {"x"}, {1, 9});
  EXPECT_FALSE(HistoryContained(d, b));  // holds a snapshot b does not
}

}  // namespace
}  // namespace firn::recovery
