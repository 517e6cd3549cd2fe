// ApplyUpdates: table-level updates, encryption keys, metadata-log and no-op commits.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "builder_test_util.h"
#include "common/uuid.h"
#include "metadata/builder.h"

namespace firn::metadata {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace testing;  // NOLINT: fixtures

Error ApplyError(const TableMetadata& base, std::vector<TableUpdate> updates) {
  auto result = Apply(base, std::move(updates));
  EXPECT_FALSE(result.has_value());
  return result.has_value() ? Error() : result.error();
}

EncryptionKey Key(std::string id) {
  return EncryptionKey{id, {{"key-id", id}, {"encrypted-key-metadata", "AAEC"}}};
}

// ---- assign-uuid ----

TEST(BuilderTableTest, AssignUuidOnV1TableWithoutOne) {
  TableMetadata base = MakeTable(1);
  base.table_uuid.clear();
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {AssignUuid{kUuid}}));
  EXPECT_EQ(r.metadata.table_uuid, kUuid);
  ASSERT_OK_AND_ASSIGN(ApplyResult same, Apply(MakeTable(), {AssignUuid{kUuid}}));
  EXPECT_FALSE(same.changed);
}

TEST(BuilderTableTest, AssignUuidRefusesReassignment) {
  Error error = ApplyError(MakeTable(), {AssignUuid{"00000000-0000-4000-8000-000000000000"}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_EQ(error.message, "Cannot reassign uuid");
  EXPECT_EQ(ApplyError(MakeTable(), {AssignUuid{"not-a-uuid"}}).kind,
            ErrorKind::kIllegalArgument);
}

// ---- upgrade-format-version ----

TEST(BuilderTableTest, UpgradeV1ToV2AssignsMissingUuid) {
  TableMetadata base = MakeTable(1);
  base.table_uuid.clear();
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {UpgradeFormatVersion{2}}));
  EXPECT_EQ(r.metadata.format_version, 2);
  EXPECT_TRUE(IsUuid(r.metadata.table_uuid));
}

TEST(BuilderTableTest, UpgradeV2ToV3StartsRowLineage) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTableWithHistory(2), {UpgradeFormatVersion{3}}));
  EXPECT_EQ(r.metadata.format_version, 3);
  EXPECT_EQ(r.metadata.next_row_id, 0);
  ASSERT_OK_AND_ASSIGN(ApplyResult same, Apply(MakeTable(2), {UpgradeFormatVersion{2}}));
  EXPECT_FALSE(same.changed);
}

TEST(BuilderTableTest, UpgradeRefusesDowngradeAndUnsupported) {
  Error error = ApplyError(MakeTable(3), {UpgradeFormatVersion{2}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_EQ(error.message, "Cannot downgrade v3 table to v2");
  EXPECT_THAT(ApplyError(MakeTable(2), {UpgradeFormatVersion{4}}).message,
              HasSubstr("unsupported format version: v4"));
}

// ---- set-location / properties ----

TEST(BuilderTableTest, SetLocationKeepsBytes) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTable(), {SetLocation{"s3://b/x y/"}}));
  EXPECT_EQ(r.metadata.location, "s3://b/x y/");
  EXPECT_EQ(ApplyError(MakeTable(), {SetLocation{""}}).kind, ErrorKind::kIllegalArgument);
}

TEST(BuilderTableTest, SetPropertiesMergesAndDropsReservedKeys) {
  TableMetadata base = MakeTable();
  base.properties["a"] = "1";
  ASSERT_OK_AND_ASSIGN(ApplyResult r,
                       Apply(base, {SetProperties{{{"b", "2"}, {"format-version", "3"}}}}));
  EXPECT_EQ(r.metadata.properties, (std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(r.metadata.format_version, 2);
  ASSERT_OK_AND_ASSIGN(ApplyResult empty, Apply(base, {SetProperties{}}));
  EXPECT_FALSE(empty.changed);
}

TEST(BuilderTableTest, RemoveProperties) {
  TableMetadata base = MakeTable();
  base.properties = {{"a", "1"}, {"b", "2"}};
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {RemoveProperties{{"a", "zzz"}}}));
  EXPECT_EQ(r.metadata.properties, (std::map<std::string, std::string>{{"b", "2"}}));
  ASSERT_OK_AND_ASSIGN(ApplyResult none, Apply(base, {RemoveProperties{{"zzz"}}}));
  EXPECT_FALSE(none.changed);
}

// ---- encryption keys (v3) ----

TEST(BuilderTableTest, AddEncryptionKeyIsIdempotentPerKeyId) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r,
                       Apply(MakeTable(3), {AddEncryptionKey{Key("k1")}, AddEncryptionKey{Key("k1")}}));
  ASSERT_EQ(r.metadata.encryption_keys.size(), 1u);
  EXPECT_EQ(r.metadata.encryption_keys[0].key_id, "k1");
}

TEST(BuilderTableTest, AddEncryptionKeyNeedsV3) {
  Error error = ApplyError(MakeTable(2), {AddEncryptionKey{Key("k1")}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_THAT(error.message, HasSubstr("v3"));
}

TEST(BuilderTableTest, RemoveEncryptionKey) {
  TableMetadata base = MakeTable(3);
  base.encryption_keys = {Key("k1"), Key("k2")};
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {RemoveEncryptionKey{"k1"}}));
  ASSERT_EQ(r.metadata.encryption_keys.size(), 1u);
  EXPECT_EQ(r.metadata.encryption_keys[0].key_id, "k2");
}

TEST(BuilderTableTest, RemoveEncryptionKeyInUseIsRefused) {
  TableMetadata base = MakeTableWithHistory(3);
  base.encryption_keys = {Key("k1")};
  base.snapshots[2].key_id = "k1";
  Error error = ApplyError(base, {RemoveEncryptionKey{"k1"}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_THAT(error.message, HasSubstr("snapshot 3"));
}

// ---- no-op commits, timestamps, metadata-log ----

TEST(BuilderTableTest, NoChangeReturnsBaseUntouched) {
  TableMetadata base = MakeTableWithHistory();
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {}, "file:///m/00001.metadata.json"));
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.metadata, base);
  EXPECT_TRUE(r.dropped_metadata_files.empty());
}

TEST(BuilderTableTest, ChangeStampsTimeAndAppendsBaseToMetadataLog) {
  TableMetadata base = MakeTable();
  ASSERT_OK_AND_ASSIGN(ApplyResult r,
                       Apply(base, {SetProperties{{{"k", "v"}}}}, "file:///m/00001.metadata.json"));
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.metadata.last_updated_ms, kNowMs);
  EXPECT_THAT(r.metadata.metadata_log,
              ElementsAre(MetadataLogEntry{kBaseUpdatedMs, "file:///m/00001.metadata.json"}));
}

TEST(BuilderTableTest, LastUpdatedNeverMovesBackwards) {
  TableMetadata base = MakeTable();
  base.last_updated_ms = kNowMs + 5'000;  // another instance's clock ran ahead
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {SetProperties{{{"k", "v"}}}}));
  EXPECT_EQ(r.metadata.last_updated_ms, kNowMs + 5'000);
}

TEST(BuilderTableTest, MetadataLogIsTrimmedButFilesKeptByDefault) {
  TableMetadata base = MakeTable();
  base.properties[std::string(kPreviousVersionsMaxProperty)] = "2";
  base.metadata_log = {{1, "m0"}, {2, "m1"}};
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {SetProperties{{{"k", "v"}}}}, "m2"));
  EXPECT_THAT(r.metadata.metadata_log,
              ElementsAre(MetadataLogEntry{2, "m1"}, MetadataLogEntry{kBaseUpdatedMs, "m2"}));
  EXPECT_TRUE(r.dropped_metadata_files.empty());
}

TEST(BuilderTableTest, TrimmedFilesAreListedWhenDeleteAfterCommitIsOn) {
  TableMetadata base = MakeTable();
  base.metadata_log = {{1, "m0"}, {2, "m1"}};
  ASSERT_OK_AND_ASSIGN(
      ApplyResult r,
      Apply(base,
            {SetProperties{{{std::string(kPreviousVersionsMaxProperty), "0"},
                            {std::string(kDeleteAfterCommitProperty), "true"}}}},
            "m2"));
  // max(1, 0) = 1 entry kept.
  EXPECT_THAT(r.metadata.metadata_log, ElementsAre(MetadataLogEntry{kBaseUpdatedMs, "m2"}));
  EXPECT_THAT(r.dropped_metadata_files, ElementsAre("m0", "m1"));
}

TEST(BuilderTableTest, ImplicitMainFromOldWritersIsNotAChange) {
  TableMetadata base = MakeTableWithHistory(1);
  base.refs.clear();  // v1 writers without refs
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {}));
  EXPECT_FALSE(r.changed);
  ASSERT_OK_AND_ASSIGN(ApplyResult changed, Apply(base, {SetProperties{{{"k", "v"}}}}));
  EXPECT_EQ(changed.metadata.refs.at("main").snapshot_id, 3);
}

TEST(BuilderTableTest, ReplaceTransactionKeepsUuidAndHistory) {
  TableMetadata base = MakeTableWithHistory();
  Schema replacement = MakeSchema(0, {Column(1, "id"), Column(3, "name", "string")});
  PartitionSpec spec{0, {PartitionField{1, {}, std::nullopt, "id_bucket", "bucket[8]"}}};
  ASSERT_OK_AND_ASSIGN(
      ApplyResult r,
      Apply(base, {RemoveSnapshotRef{"main"}, AddSchema{replacement, 3}, SetCurrentSchema{-1},
                   AddPartitionSpec{spec}, SetDefaultSpec{-1}, AddSortOrder{SortOrder{0, {}}},
                   SetDefaultSortOrder{-1}, SetLocation{kLocation}, SetProperties{}},
            "m3"));
  const TableMetadata& m = r.metadata;
  EXPECT_EQ(m.table_uuid, kUuid);
  EXPECT_EQ(m.snapshots.size(), 3u);
  EXPECT_FALSE(m.current_snapshot_id.has_value());
  EXPECT_EQ(m.current_schema_id, 1);
  EXPECT_EQ(m.last_column_id, 3);
  EXPECT_EQ(m.default_spec_id, 1);
  EXPECT_EQ(m.partition_specs[1].fields[0].field_id, 1000);
  EXPECT_EQ(m.last_partition_id, 1000);
}

TEST(BuilderTableTest, ValidateTableMetadataCatchesBrokenInvariants) {
  TableMetadata m = MakeTableWithHistory();
  EXPECT_TRUE(ValidateTableMetadata(m).has_value());
  TableMetadata dangling = m;
  dangling.refs["x"] = SnapshotRef{"tag", 99};
  EXPECT_FALSE(ValidateTableMetadata(dangling).has_value());
  TableMetadata mismatch = m;
  mismatch.current_snapshot_id = 2;
  EXPECT_FALSE(ValidateTableMetadata(mismatch).has_value());
  TableMetadata v1 = MakeTable(1);
  v1.last_sequence_number = 4;
  EXPECT_FALSE(ValidateTableMetadata(v1).has_value());
  TableMetadata future_log = m;
  future_log.snapshot_log.back().timestamp_ms = m.last_updated_ms + 120'000;
  EXPECT_FALSE(ValidateTableMetadata(future_log).has_value());
}

}  // namespace
}  // namespace firn::metadata
