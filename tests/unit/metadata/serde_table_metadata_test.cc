#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "metadata/serde.h"
#include "support/source_tree.h"

namespace firn::metadata {
namespace {

namespace json = boost::json;

std::string Fixture(const std::string& name) {
  std::ifstream in(source_tree::SourcePath("tests/fixtures/metadata/" + name));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TableMetadata Load(const std::string& name) {
  Result<TableMetadata> m = ParseTableMetadata(Fixture(name));
  EXPECT_TRUE(m) << name << ": " << (m ? "" : m.error().message);
  return m ? *m : TableMetadata{};
}

void ExpectRoundTrip(const TableMetadata& m) {
  Result<TableMetadata> again = ParseTableMetadata(SerializeTableMetadata(m));
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(*again, m);
}

std::vector<std::string> Keys(const json::object& o) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : o) keys.emplace_back(k);
  return keys;
}

TEST(TableMetadataSerdeTest, V1LegacyFieldsBuildTheLists) {
  TableMetadata m = Load("v1_legacy.metadata.json");
  EXPECT_EQ(m.format_version, 1);
  ASSERT_EQ(m.schemas.size(), 1u);
  EXPECT_EQ(m.current_schema_id, 0);
  ASSERT_EQ(m.partition_specs.size(), 1u);
  EXPECT_EQ(m.default_spec_id, 0);
  ASSERT_EQ(m.partition_specs[0].fields.size(), 1u);
  EXPECT_EQ(m.partition_specs[0].fields[0].field_id, 1000);  // assigned like Java's v1
  EXPECT_EQ(m.last_partition_id, 1000);
  ASSERT_EQ(m.sort_orders.size(), 1u);
  EXPECT_TRUE(m.sort_orders[0].fields.empty());
  EXPECT_EQ(m.default_sort_order_id, 0);
  EXPECT_EQ(m.last_sequence_number, 0);
  EXPECT_FALSE(m.current_snapshot_id);  // -1 means none
  EXPECT_TRUE(m.refs.empty());
  ASSERT_EQ(m.snapshots.size(), 1u);
  EXPECT_EQ(m.snapshots[0].manifests.size(), 2u);
  EXPECT_EQ(m.properties.at("owner"), "root");
  ExpectRoundTrip(m);
}

TEST(TableMetadataSerdeTest, V1WritesLegacyFieldsInJavaOrder) {
  json::object out = TableMetadataToJson(Load("v1_legacy.metadata.json"));
  std::vector<std::string> want = {
      "format-version", "table-uuid",     "location",          "last-updated-ms",
      "last-column-id", "schema",         "current-schema-id", "schemas",
      "partition-spec", "default-spec-id", "partition-specs",  "last-partition-id",
      "default-sort-order-id", "sort-orders", "properties",    "current-snapshot-id",
      "refs",           "snapshots",      "statistics",        "partition-statistics",
      "snapshot-log",   "metadata-log"};
  EXPECT_EQ(Keys(out), want);
  EXPECT_EQ(out.at("current-snapshot-id"), json::value(-1));
  EXPECT_TRUE(out.at("partition-spec").is_array());
}

TEST(TableMetadataSerdeTest, V2FullRoundTrips) {
  TableMetadata m = Load("v2_full.metadata.json");
  EXPECT_EQ(m.last_sequence_number, 34);
  EXPECT_EQ(m.current_schema_id, 1);
  EXPECT_EQ(m.schemas.size(), 2u);
  EXPECT_EQ(m.default_sort_order_id, 3);
  EXPECT_EQ(m.current_snapshot_id, 3055729675574597004);
  ASSERT_EQ(m.refs.size(), 2u);
  EXPECT_EQ(m.refs.at("audit").type, "tag");
  EXPECT_EQ(m.refs.at("audit").max_ref_age_ms, 10000000);
  EXPECT_EQ(m.snapshots[1].parent_snapshot_id, 3051729675574597004);
  EXPECT_EQ(m.statistics.size(), 1u);
  EXPECT_EQ(m.partition_statistics.size(), 1u);
  EXPECT_EQ(m.snapshot_log.size(), 2u);
  ASSERT_EQ(m.metadata_log.size(), 1u);
  EXPECT_EQ(m.metadata_log[0].timestamp_ms, 1515100);
  ExpectRoundTrip(m);
}

TEST(TableMetadataSerdeTest, V2WritesJavaOrderWithoutLegacyFields) {
  json::object out = TableMetadataToJson(Load("v2_full.metadata.json"));
  std::vector<std::string> want = {
      "format-version", "table-uuid", "location", "last-sequence-number", "last-updated-ms",
      "last-column-id", "current-schema-id", "schemas", "default-spec-id", "partition-specs",
      "last-partition-id", "default-sort-order-id", "sort-orders", "properties",
      "current-snapshot-id", "refs", "snapshots", "statistics", "partition-statistics",
      "snapshot-log", "metadata-log"};
  EXPECT_EQ(Keys(out), want);
}

TEST(TableMetadataSerdeTest, V2NoneIsWrittenAsMinusOne) {
  TableMetadata m = Load("v2_no_refs.metadata.json");
  m.current_snapshot_id.reset();
  EXPECT_EQ(TableMetadataToJson(m).at("current-snapshot-id"), json::value(-1));
}

TEST(TableMetadataSerdeTest, MissingRefsImplyMainBranch) {
  TableMetadata m = Load("v2_no_refs.metadata.json");
  ASSERT_EQ(m.refs.size(), 1u);
  EXPECT_EQ(m.refs.at("main").type, "branch");
  EXPECT_EQ(m.refs.at("main").snapshot_id, 7);
  ExpectRoundTrip(m);
}

TEST(TableMetadataSerdeTest, V3FullRoundTrips) {
  TableMetadata m = Load("v3_full.metadata.json");
  EXPECT_EQ(m.next_row_id, 150);
  ASSERT_EQ(m.encryption_keys.size(), 1u);
  EXPECT_EQ(m.encryption_keys[0].key_id, "k1");
  EXPECT_EQ(m.snapshots[0].first_row_id, 0);
  EXPECT_EQ(m.snapshots[0].added_rows, 150);
  EXPECT_EQ(m.snapshots[0].key_id, "k1");
  EXPECT_EQ(m.partition_specs[0].fields[0].source_ids, (std::vector<int>{1, 3}));
  EXPECT_EQ(m.refs.at("main").min_snapshots_to_keep, 2);
  EXPECT_TRUE(ValidateSchemaTypes(*m.CurrentSchema(), 3));
  ExpectRoundTrip(m);
  json::object out = TableMetadataToJson(m);
  EXPECT_EQ(out.at("next-row-id"), json::value(150));
  EXPECT_TRUE(out.contains("encryption-keys"));
}

TEST(TableMetadataSerdeTest, V3NoneIsWrittenAsNull) {
  TableMetadata m = Load("v3_full.metadata.json");
  m.current_snapshot_id.reset();
  m.refs.clear();
  json::object out = TableMetadataToJson(m);
  ASSERT_TRUE(out.contains("current-snapshot-id"));
  EXPECT_TRUE(out.at("current-snapshot-id").is_null());
  ExpectRoundTrip(m);
}

TEST(TableMetadataSerdeTest, AcceptsNullAndMinusOneCurrentSnapshot) {
  for (const char* value : {"null", "-1"}) {
    json::value doc = json::parse(Fixture("v2_no_refs.metadata.json"));
    doc.as_object()["current-snapshot-id"] = json::parse(value);
    Result<TableMetadata> m = TableMetadataFromJson(doc);
    ASSERT_TRUE(m) << value;
    EXPECT_FALSE(m->current_snapshot_id) << value;
    EXPECT_TRUE(m->refs.empty()) << value;
  }
}

TEST(TableMetadataSerdeTest, V1DoesNotWriteLastSequenceNumber) {
  json::object out = TableMetadataToJson(Load("v1_legacy.metadata.json"));
  EXPECT_FALSE(out.contains("last-sequence-number"));
  EXPECT_FALSE(out.contains("next-row-id"));
}

struct MissingFieldCase {
  const char* fixture;
  const char* field;
};

TEST(TableMetadataSerdeTest, RequiredFieldsByVersion) {
  for (const MissingFieldCase& c : {
           MissingFieldCase{"v2_no_refs.metadata.json", "format-version"},
           MissingFieldCase{"v2_no_refs.metadata.json", "table-uuid"},
           MissingFieldCase{"v2_no_refs.metadata.json", "location"},
           MissingFieldCase{"v2_no_refs.metadata.json", "last-sequence-number"},
           MissingFieldCase{"v2_no_refs.metadata.json", "last-updated-ms"},
           MissingFieldCase{"v2_no_refs.metadata.json", "last-column-id"},
           MissingFieldCase{"v2_no_refs.metadata.json", "schemas"},
           MissingFieldCase{"v2_no_refs.metadata.json", "current-schema-id"},
           MissingFieldCase{"v2_no_refs.metadata.json", "partition-specs"},
           MissingFieldCase{"v2_no_refs.metadata.json", "default-spec-id"},
           MissingFieldCase{"v2_no_refs.metadata.json", "last-partition-id"},
           MissingFieldCase{"v2_no_refs.metadata.json", "sort-orders"},
           MissingFieldCase{"v2_no_refs.metadata.json", "default-sort-order-id"},
           MissingFieldCase{"v3_full.metadata.json", "next-row-id"},
           MissingFieldCase{"v1_legacy.metadata.json", "schema"},
           MissingFieldCase{"v1_legacy.metadata.json", "partition-spec"},
       }) {
    json::value doc = json::parse(Fixture(c.fixture));
    doc.as_object().erase(c.field);
    Result<TableMetadata> m = TableMetadataFromJson(doc);
    ASSERT_FALSE(m) << c.fixture << " without " << c.field;
    EXPECT_EQ(m.error().kind, ErrorKind::kBadRequest);
  }
}

TEST(TableMetadataSerdeTest, V1MayOmitTableUuid) {
  json::value doc = json::parse(Fixture("v1_legacy.metadata.json"));
  doc.as_object().erase("table-uuid");
  Result<TableMetadata> m = TableMetadataFromJson(doc);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_TRUE(m->table_uuid.empty());
  EXPECT_FALSE(TableMetadataToJson(*m).contains("table-uuid"));
}

TEST(TableMetadataSerdeTest, WrongTypesNameTheField) {
  json::value doc = json::parse(Fixture("v2_no_refs.metadata.json"));
  doc.as_object()["last-updated-ms"] = "yesterday";
  Result<TableMetadata> m = TableMetadataFromJson(doc);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().kind, ErrorKind::kBadRequest);
  EXPECT_NE(m.error().message.find("'last-updated-ms'"), std::string::npos);
  EXPECT_EQ(m.error().message.find("yesterday"), std::string::npos);
}

TEST(TableMetadataSerdeTest, RejectsDanglingDefaultIds) {
  for (const char* field : {"current-schema-id", "default-spec-id", "default-sort-order-id"}) {
    json::value doc = json::parse(Fixture("v2_no_refs.metadata.json"));
    doc.as_object()[field] = 42;
    Result<TableMetadata> m = TableMetadataFromJson(doc);
    ASSERT_FALSE(m) << field;
    EXPECT_NE(m.error().message.find(field), std::string::npos) << m.error().message;
  }
}

TEST(TableMetadataSerdeTest, RejectsUnsupportedVersionAndBadJson) {
  json::value doc = json::parse(Fixture("v2_no_refs.metadata.json"));
  doc.as_object()["format-version"] = 4;
  EXPECT_EQ(TableMetadataFromJson(doc).error().kind, ErrorKind::kBadRequest);
  Result<TableMetadata> bad = ParseTableMetadata("{\"format-version\": 2,");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kBadRequest);
  EXPECT_EQ(ParseTableMetadata("[]").error().kind, ErrorKind::kBadRequest);
}

// A literal beyond a double's range parses as infinity and would be written back as `Infinity`,
// which is not JSON: the document is refused, wherever the number sits (found by fuzzing).
TEST(TableMetadataSerdeTest, RejectsNumbersBeyondDoubleRange) {
  const std::string text = Fixture("v2_full.metadata.json");
  ASSERT_EQ(text.front(), '{');
  auto with = [&](const std::string& number) {
    return "{\"x-extra\": [{\"n\": " + number + "}], " + text.substr(1);
  };
  ASSERT_TRUE(ParseTableMetadata(with("1.5e308")));
  for (const std::string& huge :
       std::vector<std::string>{"1e309", "-1e309", std::string(310, '9')}) {
    Result<TableMetadata> m = ParseTableMetadata(with(huge));
    ASSERT_FALSE(m) << huge.substr(0, 8);
    EXPECT_EQ(m.error().kind, ErrorKind::kBadRequest);
    EXPECT_EQ(m.error().message, "Cannot parse table metadata: number out of range");
  }
}

TEST(TableMetadataSerdeTest, AllNumbersFiniteLooksInsideArraysAndObjects) {
  EXPECT_TRUE(AllNumbersFinite(json::parse(R"({"a": [1, 2.5, {"b": -1e308}], "c": "1e309"})")));
  EXPECT_FALSE(AllNumbersFinite(json::parse(R"({"a": [1, 2.5, {"b": [1e309]}]})")));
  EXPECT_FALSE(AllNumbersFinite(json::parse("-1e400")));
}

TEST(TableMetadataSerdeTest, ParsesDeeplyNestedSchemas) {
  // 100 nested structs: deeper than Boost.JSON's default depth limit of 32.
  json::value type = "int";
  for (int i = 100; i >= 1; --i) {
    json::object field{{"id", i + 1}, {"name", "f"}, {"required", false}, {"type", type}};
    type = json::object{{"type", "struct"}, {"fields", json::array{field}}};
  }
  json::value doc = json::parse(Fixture("v2_no_refs.metadata.json"));
  json::object& schema = doc.as_object()["schemas"].as_array()[0].as_object();
  schema["fields"].as_array().push_back(
      json::object{{"id", 1000}, {"name", "deep"}, {"required", false}, {"type", type}});
  Result<TableMetadata> m = ParseTableMetadata(json::serialize(doc));
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(MaxFieldId(m->schemas[0]), 1000);
}

TEST(TableMetadataSerdeTest, RejectsBadNestedParts) {
  json::value doc = json::parse(Fixture("v2_full.metadata.json"));
  doc.as_object()["snapshots"].as_array()[0].as_object().erase("timestamp-ms");
  Result<TableMetadata> m = TableMetadataFromJson(doc);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("'timestamp-ms'"), std::string::npos);

  doc = json::parse(Fixture("v2_full.metadata.json"));
  doc.as_object()["partition-specs"].as_array()[0].as_object().erase("spec-id");
  m = TableMetadataFromJson(doc);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("'spec-id'"), std::string::npos);

  doc = json::parse(Fixture("v2_full.metadata.json"));
  doc.as_object()["properties"].as_object()["n"] = 5;
  EXPECT_FALSE(TableMetadataFromJson(doc));
}

}  // namespace
}  // namespace firn::metadata
