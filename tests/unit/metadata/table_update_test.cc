#include "metadata/table_update.h"

#include <boost/json.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "builder_test_util.h"

namespace firn::metadata {
namespace {

using ::testing::HasSubstr;

Result<TableUpdate> ParseText(std::string_view text) {
  return ParseTableUpdate(boost::json::parse(text));
}

Error ParseError(std::string_view text) {
  auto parsed = ParseText(text);
  EXPECT_FALSE(parsed.has_value()) << text;
  return parsed.has_value() ? Error() : parsed.error();
}

// One document per action, as clients send them.
const char* const kEveryAction[] = {
    R"({"action":"assign-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"})",
    R"({"action":"upgrade-format-version","format-version":3})",
    R"({"action":"add-schema","schema":{"type":"struct","schema-id":1,"fields":[
        {"id":1,"name":"id","required":true,"type":"long"}],"identifier-field-ids":[1]},
        "last-column-id":1})",
    R"({"action":"set-current-schema","schema-id":-1})",
    R"({"action":"add-spec","spec":{"spec-id":0,"fields":[
        {"source-id":1,"field-id":1000,"name":"id_bucket","transform":"bucket[16]"}]}})",
    R"({"action":"set-default-spec","spec-id":-1})",
    R"({"action":"add-sort-order","sort-order":{"order-id":1,"fields":[
        {"transform":"identity","source-id":1,"direction":"asc","null-order":"nulls-first"}]}})",
    R"({"action":"set-default-sort-order","sort-order-id":-1})",
    R"({"action":"add-snapshot","snapshot":{"snapshot-id":5,"parent-snapshot-id":4,
        "sequence-number":5,"timestamp-ms":1700000000000,"manifest-list":"s3://b/m.avro",
        "summary":{"operation":"append"},"schema-id":0,"first-row-id":10,"added-rows":5}})",
    R"({"action":"set-snapshot-ref","ref-name":"main","snapshot-id":5,"type":"branch",
        "max-ref-age-ms":100,"max-snapshot-age-ms":200,"min-snapshots-to-keep":3})",
    R"({"action":"remove-snapshots","snapshot-ids":[1,2,9007199254740993]})",
    R"({"action":"remove-snapshot-ref","ref-name":"dev"})",
    R"({"action":"set-location","location":"s3://bucket/db/t"})",
    R"({"action":"set-properties","updates":{"a":"1","b":"2"}})",
    R"({"action":"remove-properties","removals":["a","b"]})",
    R"({"action":"set-statistics","snapshot-id":5,"statistics":{"snapshot-id":5,
        "statistics-path":"s3://b/s.puffin","file-size-in-bytes":10,
        "file-footer-size-in-bytes":2,"blob-metadata":[]}})",
    R"({"action":"remove-statistics","snapshot-id":5})",
    R"({"action":"set-partition-statistics","partition-statistics":{"snapshot-id":5,
        "statistics-path":"s3://b/p.parquet","file-size-in-bytes":10}})",
    R"({"action":"remove-partition-statistics","snapshot-id":5})",
    R"({"action":"remove-partition-specs","spec-ids":[1,2]})",
    R"({"action":"remove-schemas","schema-ids":[0]})",
    R"({"action":"add-encryption-key","encryption-key":{"key-id":"k1",
        "encrypted-key-metadata":"AAEC","encrypted-by-id":"kms","properties":{"x":"y"}}})",
    R"({"action":"remove-encryption-key","key-id":"k1"})",
};

TEST(TableUpdateTest, RoundTripsEveryAction) {
  std::set<std::string_view> seen;
  for (const char* doc : kEveryAction) {
    auto first = ParseText(doc);
    ASSERT_TRUE(first.has_value()) << doc << ": " << first.error().message;
    seen.insert(TableUpdateAction(*first));
    boost::json::object json = TableUpdateToJson(*first);
    EXPECT_EQ(json.at("action").as_string(), TableUpdateAction(*first));
    auto second = ParseTableUpdate(json);
    ASSERT_TRUE(second.has_value()) << doc << ": " << second.error().message;
    EXPECT_EQ(*first, *second) << doc;
  }
  EXPECT_EQ(seen.size(), std::variant_size_v<TableUpdate>);
}

TEST(TableUpdateTest, ParsesFieldsIntoStructs) {
  auto ref = ParseText(kEveryAction[9]);
  ASSERT_TRUE(ref.has_value());
  SnapshotRef expected{"branch", 5, 3, 200, 100};
  EXPECT_EQ(*ref, TableUpdate(SetSnapshotRef{"main", expected}));
  auto removal = ParseText(kEveryAction[10]);
  ASSERT_TRUE(removal.has_value());
  EXPECT_EQ(std::get<RemoveSnapshots>(*removal).snapshot_ids,
            (std::vector<int64_t>{1, 2, 9007199254740993}));
  auto key = ParseText(kEveryAction[21]);
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(std::get<AddEncryptionKey>(*key).encryption_key.key_id, "k1");
}

TEST(TableUpdateTest, AcceptsLegacyPropertyKeys) {
  auto set = ParseText(R"({"action":"set-properties","updated":{"k":"v"}})");
  ASSERT_TRUE(set.has_value());
  EXPECT_EQ(std::get<SetProperties>(*set).updates.at("k"), "v");
  auto removed = ParseText(R"({"action":"remove-properties","removed":["k"]})");
  ASSERT_TRUE(removed.has_value());
  EXPECT_EQ(std::get<RemoveProperties>(*removed).removals, std::vector<std::string>{"k"});
}

TEST(TableUpdateTest, AcceptsRequestsWithoutReadOnlyIds) {
  auto schema = ParseText(R"({"action":"add-schema","schema":{"type":"struct","fields":[
      {"id":1,"name":"id","required":true,"type":"long"}]}})");
  ASSERT_TRUE(schema.has_value()) << schema.error().message;
  EXPECT_FALSE(std::get<AddSchema>(*schema).last_column_id.has_value());
  auto spec = ParseText(R"({"action":"add-spec","spec":{"fields":[
      {"source-id":1,"name":"id_b","transform":"bucket[4]"}]}})");
  ASSERT_TRUE(spec.has_value()) << spec.error().message;
  EXPECT_FALSE(std::get<AddPartitionSpec>(*spec).spec.fields[0].field_id.has_value());
  auto ref = ParseText(R"({"action":"set-snapshot-ref","ref-name":"t","snapshot-id":1,
      "type":"TAG"})");
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(std::get<SetSnapshotRef>(*ref).ref.type, "tag");
}

TEST(TableUpdateTest, UnknownActionIsBadRequest) {
  Error error = ParseError(R"({"action":"drop-everything"})");
  EXPECT_EQ(error.kind, ErrorKind::kBadRequest);
  EXPECT_EQ(error.message, "Cannot parse update: unknown action 'drop-everything'");
  error = ParseError(R"({"action":")" + std::string(100, 'y') + R"("})");
  EXPECT_EQ(error.message, "Cannot parse update: unknown action '" + std::string(64, 'y') + "'");
  EXPECT_EQ(ParseError(R"({"uuid":"x"})").message, "Cannot parse update: missing field 'action'");
  // 63 ASCII bytes then a 2-byte character: cutting at 64 would split it, so it is dropped.
  error = ParseError(R"({"action":")" + std::string(63, 'z') + "\u00e9" + R"("})");
  EXPECT_EQ(error.message, "Cannot parse update: unknown action '" + std::string(63, 'z') + "'");
  EXPECT_EQ(ParseError(R"("add-schema")").kind, ErrorKind::kBadRequest);
}

// One malformed document per action: each must fail with kBadRequest naming the field.
TEST(TableUpdateTest, WrongFieldTypesNameTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"action":"assign-uuid","uuid":1})", "'uuid'"},
      {R"({"action":"upgrade-format-version","format-version":"3"})", "'format-version'"},
      {R"({"action":"add-schema","schema":[]})", "'schema'"},
      {R"({"action":"set-current-schema","schema-id":1.5})", "'schema-id'"},
      {R"({"action":"add-spec"})", "'spec'"},
      {R"({"action":"set-default-spec","spec-id":null})", "'spec-id'"},
      {R"({"action":"add-sort-order","sort-order":1})", "'sort-order'"},
      {R"({"action":"set-default-sort-order"})", "'sort-order-id'"},
      {R"({"action":"add-snapshot"})", "'snapshot'"},
      {R"({"action":"set-snapshot-ref","ref-name":"x","snapshot-id":1,"type":"leaf"})", "'type'"},
      {R"({"action":"remove-snapshots","snapshot-ids":["1"]})", "'snapshot-ids'"},
      {R"({"action":"remove-snapshot-ref","ref-name":false})", "'ref-name'"},
      {R"({"action":"set-location"})", "'location'"},
      {R"({"action":"set-properties","updates":{"a":1}})", "'updates'"},
      {R"({"action":"remove-properties","removals":"a"})", "'removals'"},
      {R"({"action":"set-statistics"})", "'statistics'"},
      {R"({"action":"remove-statistics","snapshot-id":"5"})", "'snapshot-id'"},
      {R"({"action":"set-partition-statistics"})", "'partition-statistics'"},
      {R"({"action":"remove-partition-statistics"})", "'snapshot-id'"},
      {R"({"action":"remove-partition-specs","spec-ids":[1,"2"]})", "'spec-ids'"},
      {R"({"action":"remove-schemas","schema-ids":{}})", "'schema-ids'"},
      {R"({"action":"add-encryption-key"})", "'encryption-key'"},
      {R"({"action":"remove-encryption-key","key-id":7})", "'key-id'"},
  };
  for (const auto& [doc, field] : cases) {
    Error error = ParseError(doc);
    EXPECT_EQ(error.kind, ErrorKind::kBadRequest) << doc;
    EXPECT_THAT(error.message, HasSubstr(field)) << doc;
  }
}

TEST(TableUpdateTest, NestedObjectErrorsComeFromTheirParser) {
  Error error = ParseError(R"({"action":"add-snapshot","snapshot":{"timestamp-ms":1}})");
  EXPECT_EQ(error.kind, ErrorKind::kBadRequest);
  EXPECT_THAT(error.message, HasSubstr("snapshot-id"));
}

TEST(TableUpdateTest, ParsesAList) {
  auto parsed = ParseTableUpdates(boost::json::parse(
      R"([{"action":"remove-schemas","schema-ids":[1]},{"action":"set-location","location":"x"}])"));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->size(), 2u);
  auto bad = ParseTableUpdates(boost::json::parse(R"([{"action":"nope"}])"));
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().kind, ErrorKind::kBadRequest);
}

}  // namespace
}  // namespace firn::metadata
