#include "metadata/create_table.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include "common/uuid.h"
#include "metadata/serde.h"

namespace firn::metadata {
namespace {

namespace json = boost::json;

constexpr int64_t kNow = 1700000000000;

CreateTableInput Input(const char* schema) {
  CreateTableInput in;
  in.location = "file:///wh/ns/t";
  in.schema = json::parse(schema);
  return in;
}

// The RCK's table: two columns with ids 3 and 4, partitioned and sorted by them.
constexpr const char* kRckSchema = R"({"type":"struct","schema-id":7,"identifier-field-ids":[3],
  "fields":[{"id":3,"name":"id","required":true,"type":"int"},
            {"id":4,"name":"data","required":false,"type":"string"}]})";

TEST(CreateTableTest, ReassignsRckColumnIdsFromOne) {
  CreateTableInput in = Input(kRckSchema);
  in.partition_spec = json::parse(
      R"({"spec-id":5,"fields":[{"source-id":4,"field-id":1234,"name":"data_bucket","transform":"bucket[16]"}]})");
  in.write_order = json::parse(
      R"({"order-id":9,"fields":[{"transform":"identity","source-id":3,"direction":"asc","null-order":"nulls-first"}]})");
  Result<TableMetadata> m = NewTableMetadata(in, kNow);
  ASSERT_TRUE(m) << m.error().message;
  const Schema& schema = m->schemas.at(0);
  EXPECT_EQ(schema.schema_id, 0);
  EXPECT_EQ(schema.fields[0].as_object().at("id"), json::value(1));
  EXPECT_EQ(schema.fields[1].as_object().at("id"), json::value(2));
  EXPECT_EQ(schema.identifier_field_ids, std::vector<int>{1});
  EXPECT_EQ(m->last_column_id, 2);

  const PartitionSpec& spec = m->partition_specs.at(0);
  EXPECT_EQ(spec.spec_id, 0);
  ASSERT_EQ(spec.fields.size(), 1u);
  EXPECT_EQ(spec.fields[0].source_id, 2);
  EXPECT_EQ(spec.fields[0].field_id, 1000);
  EXPECT_EQ(m->last_partition_id, 1000);

  ASSERT_EQ(m->sort_orders.size(), 1u);
  EXPECT_EQ(m->sort_orders[0].order_id, 1);
  EXPECT_EQ(m->sort_orders[0].fields[0].source_id, 1);
  EXPECT_EQ(m->default_sort_order_id, 1);
}

TEST(CreateTableTest, NestedIdsFollowJavaOrder) {
  // Java's assignFreshIds numbers a struct's own fields before descending: a=1, b=2, c=3,
  // then a's fields (x=4, y=5), then b's element (6) and its struct (z=7), then c's key and
  // value (8, 9) and the value's element (10).
  CreateTableInput in = Input(R"({"type":"struct","fields":[
    {"id":10,"name":"a","required":false,"type":{"type":"struct","fields":[
      {"id":11,"name":"x","required":true,"type":"int"},
      {"id":12,"name":"y","required":false,"type":"string"}]}},
    {"id":20,"name":"b","required":false,"type":{"type":"list","element-id":21,
      "element-required":true,"element":{"type":"struct","fields":[
        {"id":22,"name":"z","required":false,"type":"long"}]}}},
    {"id":30,"name":"c","required":false,"type":{"type":"map","key-id":31,"key":"string",
      "value-id":32,"value-required":false,"value":{"type":"list","element-id":33,
      "element-required":false,"element":"double"}}}]})");
  in.partition_spec = json::parse(
      R"({"fields":[{"source-id":11,"name":"ax","transform":"identity"},
                    {"source-id":22,"name":"bz","transform":"truncate[4]"}]})");
  Result<TableMetadata> m = NewTableMetadata(in, kNow);
  ASSERT_TRUE(m) << m.error().message;
  const json::array& f = m->schemas[0].fields;
  EXPECT_EQ(json::serialize(f),
            R"([{"id":1,"name":"a","required":false,"type":{"type":"struct","fields":[)"
            R"({"id":4,"name":"x","required":true,"type":"int"},)"
            R"({"id":5,"name":"y","required":false,"type":"string"}]}},)"
            R"({"id":2,"name":"b","required":false,"type":{"type":"list","element-id":6,)"
            R"("element":{"type":"struct","fields":[{"id":7,"name":"z","required":false,"type":"long"}]},)"
            R"("element-required":true}},)"
            R"({"id":3,"name":"c","required":false,"type":{"type":"map","key-id":8,"key":"string",)"
            R"("value-id":9,"value":{"type":"list","element-id":10,"element":"double",)"
            R"("element-required":false},"value-required":false}}])");
  EXPECT_EQ(m->last_column_id, 10);
  EXPECT_EQ(m->partition_specs[0].fields[0].source_id, 4);
  EXPECT_EQ(m->partition_specs[0].fields[1].source_id, 7);
  EXPECT_EQ(m->partition_specs[0].fields[1].field_id, 1001);
  EXPECT_EQ(m->last_partition_id, 1001);
}

TEST(CreateTableTest, UnpartitionedUnsortedDefaults) {
  CreateTableInput in = Input(kRckSchema);
  in.write_order = json::parse(R"({"order-id":0,"fields":[]})");
  Result<TableMetadata> m = NewTableMetadata(in, kNow);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_TRUE(m->partition_specs.at(0).fields.empty());
  EXPECT_EQ(m->default_spec_id, 0);
  EXPECT_EQ(m->last_partition_id, 999);
  EXPECT_EQ(m->sort_orders.at(0).order_id, 0);
  EXPECT_TRUE(m->sort_orders.at(0).fields.empty());
  EXPECT_EQ(m->default_sort_order_id, 0);
  EXPECT_EQ(m->format_version, 2);
  EXPECT_EQ(m->last_updated_ms, kNow);
  EXPECT_EQ(m->last_sequence_number, 0);
  EXPECT_TRUE(IsUuid(m->table_uuid));
  EXPECT_EQ(m->location, "file:///wh/ns/t");
  EXPECT_FALSE(m->current_snapshot_id);
  EXPECT_FALSE(m->next_row_id);
}

TEST(CreateTableTest, FormatVersionPropertyIsReadAndNotStored) {
  CreateTableInput in = Input(kRckSchema);
  in.properties = {{"format-version", "3"}, {"owner", "me"}, {"uuid", "x"},
                   {"current-snapshot-id", "1"}, {"default-sort-order", "x"}};
  Result<TableMetadata> m = NewTableMetadata(in, kNow);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->format_version, 3);
  EXPECT_EQ(m->next_row_id, 0);
  EXPECT_EQ(m->properties, (std::map<std::string, std::string>{{"owner", "me"}}));
}

TEST(CreateTableTest, RejectsUnsupportedFormatVersions) {
  for (const char* version : {"0", "4", "two", ""}) {
    CreateTableInput in = Input(kRckSchema);
    in.properties = {{"format-version", version}};
    Result<TableMetadata> m = NewTableMetadata(in, kNow);
    ASSERT_FALSE(m) << version;
    EXPECT_EQ(m.error().kind, ErrorKind::kIllegalArgument) << version;
  }
}

TEST(CreateTableTest, RejectsV3TypeInV2Table) {
  CreateTableInput in = Input(R"({"type":"struct","fields":[
      {"id":1,"name":"v","required":false,"type":"variant"}]})");
  Result<TableMetadata> m = NewTableMetadata(in, kNow);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().kind, ErrorKind::kValidation);
  EXPECT_NE(m.error().message.find("variant is not supported until v3"), std::string::npos);
  in.properties = {{"format-version", "3"}};
  EXPECT_TRUE(NewTableMetadata(in, kNow));
}

TEST(CreateTableTest, RejectsSpecOnMissingColumn) {
  CreateTableInput in = Input(kRckSchema);
  in.partition_spec =
      json::parse(R"({"fields":[{"source-id":99,"name":"p","transform":"identity"}]})");
  Result<TableMetadata> m = NewTableMetadata(in, kNow);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().kind, ErrorKind::kIllegalArgument);

  in = Input(kRckSchema);
  in.write_order = json::parse(
      R"({"order-id":1,"fields":[{"transform":"identity","source-id":99,"direction":"asc","null-order":"nulls-first"}]})");
  EXPECT_EQ(NewTableMetadata(in, kNow).error().kind, ErrorKind::kIllegalArgument);

  in = Input(R"({"type":"struct","identifier-field-ids":[9],"fields":[]})");
  EXPECT_FALSE(NewTableMetadata(in, kNow));
}

TEST(CreateTableTest, PartitionNamesMustNotShadowOtherColumns) {
  CreateTableInput in = Input(kRckSchema);
  in.partition_spec =
      json::parse(R"({"fields":[{"source-id":3,"name":"data","transform":"bucket[2]"}]})");
  EXPECT_EQ(NewTableMetadata(in, kNow).error().kind, ErrorKind::kIllegalArgument);
  // identity(data) may be named "data".
  in.partition_spec =
      json::parse(R"({"fields":[{"source-id":4,"name":"data","transform":"identity"}]})");
  EXPECT_TRUE(NewTableMetadata(in, kNow));
  in.partition_spec = json::parse(R"({"fields":[
      {"source-id":4,"name":"p","transform":"identity"},
      {"source-id":3,"name":"p","transform":"bucket[2]"}]})");
  EXPECT_EQ(NewTableMetadata(in, kNow).error().kind, ErrorKind::kIllegalArgument);
}

TEST(CreateTableTest, MalformedPartsAreBadRequests) {
  CreateTableInput in = Input(R"({"type":"struct"})");
  EXPECT_EQ(NewTableMetadata(in, kNow).error().kind, ErrorKind::kBadRequest);
  in = Input(kRckSchema);
  in.partition_spec = json::parse(R"({"fields":"none"})");
  EXPECT_EQ(NewTableMetadata(in, kNow).error().kind, ErrorKind::kBadRequest);
}

TEST(CreateTableTest, ResultSerializesAndParsesBack) {
  CreateTableInput in = Input(kRckSchema);
  in.properties = {{"format-version", "1"}};
  Result<TableMetadata> m = NewTableMetadata(in, kNow);
  ASSERT_TRUE(m) << m.error().message;
  Result<TableMetadata> again = ParseTableMetadata(SerializeTableMetadata(*m));
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(*again, *m);
}

}  // namespace
}  // namespace firn::metadata
