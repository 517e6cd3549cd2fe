// ApplyUpdates with no base: create transactions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "builder_test_util.h"
#include "common/uuid.h"
#include "metadata/builder.h"

namespace firn::metadata {
namespace {

using ::testing::HasSubstr;
using namespace testing;  // NOLINT: fixtures

TEST(BuilderCreateTest, JavaStyleCreateProducesCompleteMetadata) {
  std::vector<TableUpdate> updates = CreateUpdates();
  updates.insert(updates.begin() + 1, UpgradeFormatVersion{2});
  ASSERT_OK_AND_ASSIGN(ApplyResult result, Create(updates));
  const TableMetadata& m = result.metadata;
  EXPECT_TRUE(result.changed);
  EXPECT_EQ(m.format_version, 2);
  EXPECT_EQ(m.table_uuid, kUuid);
  EXPECT_EQ(m.location, kLocation);
  EXPECT_EQ(m.current_schema_id, 0);
  EXPECT_EQ(m.last_column_id, 2);
  ASSERT_EQ(m.partition_specs.size(), 1u);  // unpartitioned spec 0 added
  EXPECT_EQ(m.partition_specs[0], (PartitionSpec{0, {}}));
  EXPECT_EQ(m.default_spec_id, 0);
  EXPECT_EQ(m.last_partition_id, kUnpartitionedLastPartitionId);
  ASSERT_EQ(m.sort_orders.size(), 1u);  // unsorted order 0 added
  EXPECT_EQ(m.default_sort_order_id, 0);
  EXPECT_EQ(m.properties.at("owner"), "alice");
  EXPECT_EQ(m.last_updated_ms, kNowMs);
  EXPECT_TRUE(m.metadata_log.empty());
  EXPECT_FALSE(m.next_row_id.has_value());
}

TEST(BuilderCreateTest, FormatVersionComesFromFirstUpgrade) {
  std::vector<TableUpdate> updates = CreateUpdates();
  updates.push_back(UpgradeFormatVersion{3});
  ASSERT_OK_AND_ASSIGN(ApplyResult v3, Create(updates));
  EXPECT_EQ(v3.metadata.format_version, 3);
  EXPECT_EQ(v3.metadata.next_row_id, 0);

  updates.back() = UpgradeFormatVersion{1};
  ASSERT_OK_AND_ASSIGN(ApplyResult v1, Create(updates));
  EXPECT_EQ(v1.metadata.format_version, 1);

  ASSERT_OK_AND_ASSIGN(ApplyResult by_default, Create(CreateUpdates()));
  EXPECT_EQ(by_default.metadata.format_version, kDefaultFormatVersion);
}

TEST(BuilderCreateTest, RejectsUnsupportedFormatVersion) {
  std::vector<TableUpdate> updates = CreateUpdates();
  updates.insert(updates.begin(), UpgradeFormatVersion{4});
  auto result = Create(updates);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind, ErrorKind::kValidation);
  EXPECT_THAT(result.error().message, HasSubstr("unsupported format version: v4"));
}

TEST(BuilderCreateTest, GeneratesUuidWhenNotAssigned) {
  std::vector<TableUpdate> updates = CreateUpdates();
  updates.erase(updates.begin());  // no assign-uuid
  ASSERT_OK_AND_ASSIGN(ApplyResult result, Create(updates));
  EXPECT_TRUE(IsUuid(result.metadata.table_uuid));
}

TEST(BuilderCreateTest, KeepsClientSpecAndSortOrder) {
  std::vector<TableUpdate> updates = CreateUpdates();
  PartitionSpec spec{0, {PartitionField{1, {}, 1000, "id_bucket", "bucket[16]"}}};
  SortOrder order{1, {SortField{"identity", 2, {}, "asc", "nulls-first"}}};
  updates.push_back(AddPartitionSpec{spec});
  updates.push_back(SetDefaultSpec{-1});
  updates.push_back(AddSortOrder{order});
  updates.push_back(SetDefaultSortOrder{-1});
  ASSERT_OK_AND_ASSIGN(ApplyResult result, Create(updates));
  const TableMetadata& m = result.metadata;
  ASSERT_EQ(m.partition_specs.size(), 1u);
  EXPECT_EQ(m.partition_specs[0], spec);
  EXPECT_EQ(m.last_partition_id, 1000);
  ASSERT_EQ(m.sort_orders.size(), 1u);
  EXPECT_EQ(m.sort_orders[0], order);
  EXPECT_EQ(m.default_sort_order_id, 1);
}

TEST(BuilderCreateTest, RequiresSchemaAndLocation) {
  auto no_schema = Create({SetLocation{kLocation}});
  ASSERT_FALSE(no_schema.has_value());
  EXPECT_EQ(no_schema.error().kind, ErrorKind::kValidation);
  EXPECT_THAT(no_schema.error().message, HasSubstr("without a schema"));

  std::vector<TableUpdate> updates = CreateUpdates();
  std::erase_if(updates, [](const TableUpdate& u) { return std::holds_alternative<SetLocation>(u); });
  auto no_location = Create(updates);
  ASSERT_FALSE(no_location.has_value());
  EXPECT_THAT(no_location.error().message, HasSubstr("location"));
}

TEST(BuilderCreateTest, CreateWithSnapshotSetsMainAndLog) {
  std::vector<TableUpdate> updates = CreateUpdates();
  updates.push_back(AddSnapshot{MakeSnapshot(7, std::nullopt, 1, 1'500'000)});
  updates.push_back(SetSnapshotRef{"main", SnapshotRef{"branch", 7}});
  ASSERT_OK_AND_ASSIGN(ApplyResult result, Create(updates));
  const TableMetadata& m = result.metadata;
  EXPECT_EQ(m.current_snapshot_id, 7);
  EXPECT_EQ(m.last_sequence_number, 1);
  ASSERT_EQ(m.snapshot_log.size(), 1u);
  EXPECT_EQ(m.snapshot_log[0], (SnapshotLogEntry{1'500'000, 7}));
}

}  // namespace
}  // namespace firn::metadata
