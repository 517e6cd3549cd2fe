#include "metadata/table_requirement.h"

#include <boost/json.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "builder_test_util.h"

namespace firn::metadata {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::MakeTable;
using testing::MakeTableWithHistory;

TableRequirement Parse(std::string_view text) {
  auto parsed = ParseTableRequirement(boost::json::parse(text));
  EXPECT_TRUE(parsed.has_value()) << parsed.error().message;
  return *parsed;
}

Error ParseError(std::string_view text) {
  auto parsed = ParseTableRequirement(boost::json::parse(text));
  EXPECT_FALSE(parsed.has_value());
  return parsed.has_value() ? Error() : parsed.error();
}

std::string CheckMessage(const TableRequirement& r, const TableMetadata* base) {
  Status status = CheckRequirement(r, base);
  EXPECT_FALSE(status.has_value());
  if (status.has_value()) return "";
  EXPECT_EQ(status.error().kind, ErrorKind::kCommitFailed);
  return status.error().message;
}

// ---- parsing and round trips ----

TEST(TableRequirementTest, RoundTripsEveryType) {
  const char* docs[] = {
      R"({"type":"assert-create"})",
      R"({"type":"assert-table-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"})",
      R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":3})",
      R"({"type":"assert-ref-snapshot-id","ref":"dev","snapshot-id":null})",
      R"({"type":"assert-last-assigned-field-id","last-assigned-field-id":2})",
      R"({"type":"assert-current-schema-id","current-schema-id":0})",
      R"({"type":"assert-last-assigned-partition-id","last-assigned-partition-id":999})",
      R"({"type":"assert-default-spec-id","default-spec-id":0})",
      R"({"type":"assert-default-sort-order-id","default-sort-order-id":0})",
  };
  for (const char* doc : docs) {
    TableRequirement first = Parse(doc);
    boost::json::object json = TableRequirementToJson(first);
    EXPECT_EQ(json, boost::json::parse(doc).as_object()) << doc;
    auto second = ParseTableRequirement(json);
    ASSERT_TRUE(second.has_value()) << doc;
    EXPECT_EQ(first, *second) << doc;
  }
}

TEST(TableRequirementTest, ParsesEveryTypeToItsStruct) {
  EXPECT_EQ(Parse(R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null})"),
            TableRequirement(AssertRefSnapshotId{"main", std::nullopt}));
  EXPECT_EQ(Parse(R"({"type":"assert-default-sort-order-id","default-sort-order-id":4})"),
            TableRequirement(AssertDefaultSortOrderId{4}));
  EXPECT_EQ(TableRequirementType(AssertCreate{}), "assert-create");
}

TEST(TableRequirementTest, UnknownTypeIsBadRequestWithTruncatedName) {
  Error error = ParseError(R"({"type":"assert-something"})");
  EXPECT_EQ(error.kind, ErrorKind::kBadRequest);
  EXPECT_EQ(error.message, "Cannot parse requirement: unknown type 'assert-something'");
  std::string long_type(200, 'x');
  error = ParseError(R"({"type":")" + long_type + R"("})");
  EXPECT_EQ(error.message, "Cannot parse requirement: unknown type '" + std::string(64, 'x') + "'");
}

TEST(TableRequirementTest, WrongFieldTypesNameTheField) {
  Error error = ParseError(R"({"type":"assert-table-uuid","uuid":5})");
  EXPECT_EQ(error.kind, ErrorKind::kBadRequest);
  EXPECT_THAT(error.message, HasSubstr("'uuid'"));
  error = ParseError(R"({"type":"assert-current-schema-id","current-schema-id":"0"})");
  EXPECT_THAT(error.message, HasSubstr("'current-schema-id'"));
  error = ParseError(R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":"x"})");
  EXPECT_THAT(error.message, HasSubstr("'snapshot-id'"));
  error = ParseError(R"({"type":"assert-default-spec-id"})");
  EXPECT_THAT(error.message, HasSubstr("missing field 'default-spec-id'"));
  error = ParseError(R"({"type":"assert-last-assigned-field-id","last-assigned-field-id":1e99})");
  EXPECT_THAT(error.message, HasSubstr("'last-assigned-field-id'"));
  EXPECT_EQ(ParseError(R"({"uuid":"x"})").message,
            "Cannot parse requirement: missing field 'type'");
  EXPECT_EQ(ParseError(R"([1])").kind, ErrorKind::kBadRequest);
}

TEST(TableRequirementTest, ParsesAList) {
  auto parsed = ParseTableRequirements(
      boost::json::parse(R"([{"type":"assert-create"},{"type":"assert-default-spec-id",
                              "default-spec-id":1}])"));
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->size(), 2u);
  EXPECT_FALSE(ParseTableRequirements(boost::json::parse(R"({})")).has_value());
}

// ---- checks: one passing and one failing case per type ----

TEST(TableRequirementTest, AssertCreatePassesOnlyWithoutTable) {
  TableMetadata table = MakeTable();
  EXPECT_TRUE(CheckRequirement(AssertCreate{}, nullptr).has_value());
  EXPECT_EQ(CheckMessage(AssertCreate{}, &table), "Requirement failed: table already exists");
}

TEST(TableRequirementTest, AssertTableUuidComparesCaseInsensitively) {
  TableMetadata table = MakeTable();
  EXPECT_TRUE(
      CheckRequirement(AssertTableUuid{"9C12D441-03FE-4693-9A96-A0705DDF69C1"}, &table).has_value());
  EXPECT_EQ(CheckMessage(AssertTableUuid{"00000000-0000-0000-0000-000000000000"}, &table),
            "Requirement failed: UUID does not match: expected "
            "9c12d441-03fe-4693-9a96-a0705ddf69c1 != 00000000-0000-0000-0000-000000000000");
}

TEST(TableRequirementTest, AssertRefSnapshotIdPassesWhenRefMatches) {
  TableMetadata table = MakeTableWithHistory();
  EXPECT_TRUE(CheckRequirement(AssertRefSnapshotId{"main", 3}, &table).has_value());
  EXPECT_TRUE(CheckRequirement(AssertRefSnapshotId{"dev", std::nullopt}, &table).has_value());
}

TEST(TableRequirementTest, AssertRefSnapshotIdFailureMessages) {
  TableMetadata table = MakeTableWithHistory();
  table.refs["v1"] = SnapshotRef{"tag", 1};
  EXPECT_EQ(CheckMessage(AssertRefSnapshotId{"main", std::nullopt}, &table),
            "Requirement failed: branch main was created concurrently");
  EXPECT_EQ(CheckMessage(AssertRefSnapshotId{"v1", std::nullopt}, &table),
            "Requirement failed: tag v1 was created concurrently");
  EXPECT_EQ(CheckMessage(AssertRefSnapshotId{"main", 2}, &table),
            "Requirement failed: branch main has changed: expected id 2 != 3");
  EXPECT_EQ(CheckMessage(AssertRefSnapshotId{"v1", 2}, &table),
            "Requirement failed: tag v1 has changed: expected id 2 != 1");
  EXPECT_EQ(CheckMessage(AssertRefSnapshotId{"dev", 2}, &table),
            "Requirement failed: branch or tag dev is missing, expected 2");
}

TEST(TableRequirementTest, AssertLastAssignedFieldId) {
  TableMetadata table = MakeTable();
  EXPECT_TRUE(CheckRequirement(AssertLastAssignedFieldId{2}, &table).has_value());
  EXPECT_EQ(CheckMessage(AssertLastAssignedFieldId{1}, &table),
            "Requirement failed: last assigned field id changed: expected id 1 != 2");
}

TEST(TableRequirementTest, AssertCurrentSchemaId) {
  TableMetadata table = MakeTable();
  EXPECT_TRUE(CheckRequirement(AssertCurrentSchemaId{0}, &table).has_value());
  EXPECT_EQ(CheckMessage(AssertCurrentSchemaId{1}, &table),
            "Requirement failed: current schema changed: expected id 1 != 0");
}

TEST(TableRequirementTest, AssertLastAssignedPartitionId) {
  TableMetadata table = MakeTable();
  EXPECT_TRUE(CheckRequirement(AssertLastAssignedPartitionId{999}, &table).has_value());
  EXPECT_EQ(CheckMessage(AssertLastAssignedPartitionId{1000}, &table),
            "Requirement failed: last assigned partition id changed: expected id 1000 != 999");
}

TEST(TableRequirementTest, AssertDefaultSpecId) {
  TableMetadata table = MakeTable();
  EXPECT_TRUE(CheckRequirement(AssertDefaultSpecId{0}, &table).has_value());
  EXPECT_EQ(CheckMessage(AssertDefaultSpecId{3}, &table),
            "Requirement failed: default partition spec changed: expected id 3 != 0");
}

TEST(TableRequirementTest, AssertDefaultSortOrderId) {
  TableMetadata table = MakeTable();
  EXPECT_TRUE(CheckRequirement(AssertDefaultSortOrderId{0}, &table).has_value());
  EXPECT_EQ(CheckMessage(AssertDefaultSortOrderId{1}, &table),
            "Requirement failed: default sort order changed: expected id 1 != 0");
}

TEST(TableRequirementTest, MissingTableFailsAllButCreateAndLastAssignedAsserts) {
  EXPECT_TRUE(CheckRequirement(AssertLastAssignedFieldId{7}, nullptr).has_value());
  EXPECT_TRUE(CheckRequirement(AssertLastAssignedPartitionId{7}, nullptr).has_value());
  EXPECT_EQ(CheckMessage(AssertTableUuid{testing::kUuid}, nullptr),
            "Requirement failed: table does not exist");
  EXPECT_THAT(CheckMessage(AssertRefSnapshotId{"main", std::nullopt}, nullptr),
              StartsWith("Requirement failed: "));
  EXPECT_THAT(CheckMessage(AssertDefaultSpecId{0}, nullptr), StartsWith("Requirement failed: "));
}

TEST(TableRequirementTest, CheckRequirementsStopsAtFirstFailure) {
  TableMetadata table = MakeTable();
  std::vector<TableRequirement> all = {AssertTableUuid{testing::kUuid}, AssertCurrentSchemaId{5},
                                       AssertDefaultSpecId{5}};
  Status status = CheckRequirements(all, &table);
  ASSERT_FALSE(status.has_value());
  EXPECT_THAT(status.error().message, HasSubstr("current schema changed"));
  all.resize(1);
  EXPECT_TRUE(CheckRequirements(all, &table).has_value());
}

}  // namespace
}  // namespace firn::metadata
