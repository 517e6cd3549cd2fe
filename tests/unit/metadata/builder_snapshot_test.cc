// ApplyUpdates: snapshots, refs, snapshot-log, statistics and v3 row lineage.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "builder_test_util.h"
#include "metadata/builder.h"

namespace firn::metadata {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using namespace testing;  // NOLINT: fixtures

Error ApplyError(const TableMetadata& base, std::vector<TableUpdate> updates) {
  auto result = Apply(base, std::move(updates));
  EXPECT_FALSE(result.has_value());
  return result.has_value() ? Error() : result.error();
}

SetSnapshotRef Main(int64_t id) { return SetSnapshotRef{"main", SnapshotRef{"branch", id}}; }

Snapshot V3Snapshot(int64_t id, int64_t parent, int64_t first_row_id, int64_t added_rows) {
  Snapshot s = MakeSnapshot(id, parent, id, 1'600'000 + id);
  s.first_row_id = first_row_id;
  s.added_rows = added_rows;
  return s;
}

// ---- add-snapshot ----

TEST(BuilderSnapshotTest, AppendAdvancesSequenceNumberMainAndLog) {
  TableMetadata base = MakeTableWithHistory();
  ASSERT_OK_AND_ASSIGN(ApplyResult r,
                       Apply(base, {AddSnapshot{MakeSnapshot(4, 3, 4, 1'700'000)}, Main(4)}));
  const TableMetadata& m = r.metadata;
  EXPECT_EQ(m.last_sequence_number, 4);
  EXPECT_EQ(m.current_snapshot_id, 4);
  EXPECT_EQ(m.refs.at("main").snapshot_id, 4);
  EXPECT_EQ(m.snapshot_log.back(), (SnapshotLogEntry{1'700'000, 4}));
  EXPECT_EQ(m.snapshot_log.size(), 4u);
  EXPECT_EQ(m.last_updated_ms, kNowMs);
}

TEST(BuilderSnapshotTest, DuplicateSnapshotIdIsRejected) {
  Error error = ApplyError(MakeTableWithHistory(), {AddSnapshot{MakeSnapshot(3, 2, 9, 1)}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_EQ(error.message, "Snapshot already exists for id: 3");
}

TEST(BuilderSnapshotTest, StaleSequenceNumberIsRetryableCommitFailure) {
  Error error = ApplyError(MakeTableWithHistory(), {AddSnapshot{MakeSnapshot(4, 3, 3, 1)}});
  EXPECT_EQ(error.kind, ErrorKind::kCommitFailed);
  EXPECT_THAT(error.message, StartsWith("Validation failed, please retry: "));
  EXPECT_THAT(error.message, HasSubstr("sequence number 3 older than last sequence number 3"));
}

TEST(BuilderSnapshotTest, ParentlessSnapshotMayReuseSequenceNumber) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(),
                                            {AddSnapshot{MakeSnapshot(9, std::nullopt, 1, 5)}}));
  EXPECT_EQ(r.metadata.last_sequence_number, 3);
  EXPECT_EQ(r.metadata.current_snapshot_id, 3);  // not on main: history unchanged
}

TEST(BuilderSnapshotTest, V1SnapshotsCarryNoSequenceNumber) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(1),
                                            {AddSnapshot{MakeSnapshot(4, 3, 4, 600'000)}, Main(4)}));
  EXPECT_EQ(r.metadata.last_sequence_number, 0);
  EXPECT_FALSE(r.metadata.FindSnapshot(4)->sequence_number.has_value());
}

TEST(BuilderSnapshotTest, SnapshotNeedsSchemaSpecAndOrder) {
  TableMetadata base = MakeTable();
  base.sort_orders.clear();
  Error error = ApplyError(base, {AddSnapshot{MakeSnapshot(1, std::nullopt, 1, 1)}});
  EXPECT_EQ(error.message, "Attempting to add a snapshot before a sort order is added");
}

// ---- v3 row lineage ----

TEST(BuilderSnapshotTest, V3AdvancesNextRowId) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r,
                       Apply(MakeTableWithHistory(3), {AddSnapshot{V3Snapshot(4, 3, 30, 7)}, Main(4)}));
  EXPECT_EQ(r.metadata.next_row_id, 37);
}

TEST(BuilderSnapshotTest, V3RequiresFirstRowId) {
  Snapshot s = V3Snapshot(4, 3, 30, 7);
  s.first_row_id.reset();
  Error error = ApplyError(MakeTableWithHistory(3), {AddSnapshot{s}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_EQ(error.message, "Cannot add a snapshot: first-row-id is null");
}

TEST(BuilderSnapshotTest, V3StaleFirstRowIdIsRetryable) {
  Error error = ApplyError(MakeTableWithHistory(3), {AddSnapshot{V3Snapshot(4, 3, 29, 7)}});
  EXPECT_EQ(error.kind, ErrorKind::kCommitFailed);
  EXPECT_EQ(error.message,
            "Validation failed, please retry: Cannot add a snapshot, first-row-id is behind table "
            "next-row-id: 29 < 30");
}

TEST(BuilderSnapshotTest, V2IgnoresRowLineage) {
  Snapshot s = MakeSnapshot(4, 3, 4, 600'000);  // no first-row-id: fine before v3
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(2), {AddSnapshot{s}}));
  EXPECT_FALSE(r.metadata.next_row_id.has_value());
}

// ---- set-snapshot-ref ----

TEST(BuilderSnapshotTest, SetBranchAndTag) {
  SnapshotRef tag{"tag", 2, std::nullopt, std::nullopt, 86'400'000};
  SnapshotRef branch{"branch", 1, 5, 1000, std::nullopt};
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(), {SetSnapshotRef{"v2", tag},
                                                                     SetSnapshotRef{"dev", branch}}));
  EXPECT_EQ(r.metadata.refs.at("v2"), tag);
  EXPECT_EQ(r.metadata.refs.at("dev"), branch);
  EXPECT_EQ(r.metadata.current_snapshot_id, 3);
  EXPECT_EQ(r.metadata.snapshot_log.size(), 3u);  // only main writes the log
}

TEST(BuilderSnapshotTest, SetRefRejectsUnknownSnapshotAndBadRetention) {
  Error error = ApplyError(MakeTableWithHistory(), {SetSnapshotRef{"dev", {"branch", 99}}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_EQ(error.message, "Cannot set dev to unknown snapshot: 99");
  EXPECT_EQ(ApplyError(MakeTableWithHistory(), {SetSnapshotRef{"t", {"tag", 1, 2}}}).message,
            "Tags do not support setting minSnapshotsToKeep");
  EXPECT_EQ(ApplyError(MakeTableWithHistory(),
                       {SetSnapshotRef{"t", {"tag", 1, std::nullopt, 5}}}).message,
            "Tags do not support setting maxSnapshotAgeMs");
  EXPECT_EQ(ApplyError(MakeTableWithHistory(), {SetSnapshotRef{"b", {"branch", 1, 0}}}).kind,
            ErrorKind::kIllegalArgument);
  EXPECT_EQ(ApplyError(MakeTableWithHistory(), {SetSnapshotRef{"main", {"tag", 1}}}).kind,
            ErrorKind::kValidation);
}

TEST(BuilderSnapshotTest, RollbackAppendsLogEntryAtNow) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(), {Main(1)}));
  EXPECT_EQ(r.metadata.current_snapshot_id, 1);
  EXPECT_EQ(r.metadata.snapshot_log.back(), (SnapshotLogEntry{kNowMs, 1}));
}

TEST(BuilderSnapshotTest, SettingSameRefIsNoOp) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(), {Main(3)}));
  EXPECT_FALSE(r.changed);
}

TEST(BuilderSnapshotTest, IntermediateSnapshotsLeaveNoLogEntry) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r,
                       Apply(MakeTableWithHistory(), {AddSnapshot{MakeSnapshot(4, 3, 4, 600'004)},
                                                      Main(4),
                                                      AddSnapshot{MakeSnapshot(5, 4, 5, 600'005)},
                                                      Main(5)}));
  const auto& log = r.metadata.snapshot_log;
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[2].snapshot_id, 3);
  EXPECT_EQ(log[3].snapshot_id, 5);
}

// ---- remove-snapshots / remove-snapshot-ref ----

TEST(BuilderSnapshotTest, RemoveSnapshotsPrunesRefsStatisticsAndEarlierLog) {
  TableMetadata base = MakeTableWithHistory();
  base.refs["old"] = SnapshotRef{"tag", 2};
  base.statistics.push_back(StatisticsFile{2, {{"snapshot-id", 2}}});
  base.partition_statistics.push_back(PartitionStatisticsFile{2, {{"snapshot-id", 2}}});
  base.statistics.push_back(StatisticsFile{3, {{"snapshot-id", 3}}});
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {RemoveSnapshots{{2, 77}}}));
  const TableMetadata& m = r.metadata;
  EXPECT_EQ(m.snapshots.size(), 2u);
  EXPECT_FALSE(m.refs.contains("old"));
  ASSERT_EQ(m.statistics.size(), 1u);
  EXPECT_EQ(m.statistics[0].snapshot_id, 3);
  EXPECT_TRUE(m.partition_statistics.empty());
  // [1, 2, 3] with 2 gone: 1 is dropped too so no gap remains.
  ASSERT_EQ(m.snapshot_log.size(), 1u);
  EXPECT_EQ(m.snapshot_log[0].snapshot_id, 3);
}

TEST(BuilderSnapshotTest, RemovingCurrentSnapshotClearsMain) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(), {RemoveSnapshots{{3}}}));
  EXPECT_FALSE(r.metadata.current_snapshot_id.has_value());
  EXPECT_FALSE(r.metadata.refs.contains("main"));
}

TEST(BuilderSnapshotTest, RemoveUnknownSnapshotsIsNoOp) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(), {RemoveSnapshots{{42}}}));
  EXPECT_FALSE(r.changed);
}

TEST(BuilderSnapshotTest, RemoveMainRefClearsCurrentSnapshot) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(), {RemoveSnapshotRef{"main"}}));
  EXPECT_FALSE(r.metadata.current_snapshot_id.has_value());
  EXPECT_EQ(r.metadata.snapshots.size(), 3u);
  ASSERT_OK_AND_ASSIGN(ApplyResult missing,
                       Apply(MakeTableWithHistory(), {RemoveSnapshotRef{"nope"}}));
  EXPECT_FALSE(missing.changed);
}

// ---- statistics ----

TEST(BuilderSnapshotTest, SetStatisticsReplacesPerSnapshot) {
  TableMetadata base = MakeTableWithHistory();
  base.statistics.push_back(StatisticsFile{3, {{"snapshot-id", 3}, {"statistics-path", "a"}}});
  StatisticsFile replacement{3, {{"snapshot-id", 3}, {"statistics-path", "b"}}};
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {SetStatistics{replacement, 3}}));
  ASSERT_EQ(r.metadata.statistics.size(), 1u);
  EXPECT_EQ(r.metadata.statistics[0], replacement);
}

TEST(BuilderSnapshotTest, SetStatisticsRejectsUnknownOrMismatchedSnapshot) {
  EXPECT_EQ(ApplyError(MakeTableWithHistory(), {SetStatistics{StatisticsFile{9, {}}, {}}}).kind,
            ErrorKind::kValidation);
  EXPECT_EQ(ApplyError(MakeTableWithHistory(), {SetStatistics{StatisticsFile{3, {}}, 2}}).kind,
            ErrorKind::kIllegalArgument);
}

TEST(BuilderSnapshotTest, RemoveStatistics) {
  TableMetadata base = MakeTableWithHistory();
  base.statistics.push_back(StatisticsFile{3, {{"snapshot-id", 3}}});
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {RemoveStatistics{3}}));
  EXPECT_TRUE(r.metadata.statistics.empty());
  ASSERT_OK_AND_ASSIGN(ApplyResult none, Apply(base, {RemoveStatistics{1}}));
  EXPECT_FALSE(none.changed);
}

TEST(BuilderSnapshotTest, SetPartitionStatistics) {
  PartitionStatisticsFile file{2, {{"snapshot-id", 2}}};
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(), {SetPartitionStatistics{file}}));
  ASSERT_EQ(r.metadata.partition_statistics.size(), 1u);
  EXPECT_EQ(ApplyError(MakeTableWithHistory(),
                       {SetPartitionStatistics{PartitionStatisticsFile{8, {}}}}).kind,
            ErrorKind::kValidation);
}

TEST(BuilderSnapshotTest, RemovePartitionStatistics) {
  TableMetadata base = MakeTableWithHistory();
  base.partition_statistics.push_back(PartitionStatisticsFile{2, {{"snapshot-id", 2}}});
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {RemovePartitionStatistics{2}}));
  EXPECT_TRUE(r.metadata.partition_statistics.empty());
  ASSERT_OK_AND_ASSIGN(ApplyResult none, Apply(base, {RemovePartitionStatistics{3}}));
  EXPECT_FALSE(none.changed);
}

}  // namespace
}  // namespace firn::metadata
