#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include "metadata/serde.h"

namespace firn::metadata {
namespace {

namespace json = boost::json;

constexpr const char* kNested = R"j({
  "type": "struct", "schema-id": 4, "identifier-field-ids": [1],
  "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long", "doc": "key"},
    {"id": 2, "name": "loc", "required": false, "type": {"type": "struct", "fields": [
      {"id": 3, "name": "lat", "required": true, "type": "double"}]}},
    {"id": 4, "name": "tags", "required": false, "type": {"type": "list", "element-id": 5,
      "element-required": false, "element": "string"}},
    {"id": 6, "name": "attrs", "required": false, "type": {"type": "map", "key-id": 7,
      "key": "string", "value-id": 8, "value-required": true, "value": "decimal(10,3)"}}
  ]})j";

Schema Parse(const char* text) {
  Result<Schema> s = SchemaFromJson(json::parse(text));
  EXPECT_TRUE(s) << (s ? "" : s.error().message);
  return s ? *s : Schema{};
}

TEST(SchemaSerdeTest, RoundTrips) {
  Schema schema = Parse(kNested);
  EXPECT_EQ(schema.schema_id, 4);
  EXPECT_EQ(schema.identifier_field_ids, std::vector<int>{1});
  json::object out = SchemaToJson(schema);
  Result<Schema> again = SchemaFromJson(out);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, schema);
}

TEST(SchemaSerdeTest, WritesJavaKeysInOrder) {
  std::string out = json::serialize(SchemaToJson(Parse(kNested)));
  EXPECT_EQ(out.find(R"({"type":"struct","schema-id":4,"identifier-field-ids":[1],"fields":[)"),
            0u)
      << out;
  EXPECT_NE(out.find(R"j("value":"decimal(10, 3)")j"), std::string::npos) << out;
  EXPECT_NE(out.find(R"({"id":1,"name":"id","required":true,"type":"long","doc":"key"})"),
            std::string::npos)
      << out;
}

TEST(SchemaSerdeTest, OmitsEmptyIdentifierFieldIds) {
  Schema schema = Parse(R"({"type":"struct","fields":[]})");
  EXPECT_EQ(schema.schema_id, 0);
  EXPECT_FALSE(SchemaToJson(schema).contains("identifier-field-ids"));
}

TEST(SchemaSerdeTest, KeepsDefaults) {
  Schema schema = Parse(R"({"type":"struct","fields":[{"id":1,"name":"a","required":false,
      "type":"int","initial-default":7,"write-default":8}]})");
  const json::object& field = schema.fields[0].as_object();
  EXPECT_EQ(field.at("initial-default"), json::value(7));
  EXPECT_EQ(field.at("write-default"), json::value(8));
}

TEST(SchemaSerdeTest, RejectsMissingAndMistypedFields) {
  struct Case {
    const char* json;
    const char* message_part;
  };
  for (const Case& c : {
           Case{R"({"type":"struct"})", "'fields'"},
           Case{R"({"fields":[]})", "'type'"},
           Case{R"({"type":"struct","fields":[{"name":"a","required":true,"type":"int"}]})",
                "'id'"},
           Case{R"({"type":"struct","fields":[{"id":"1","name":"a","required":true,"type":"int"}]})",
                "'id'"},
           Case{R"({"type":"struct","fields":[{"id":1,"name":"a","required":"yes","type":"int"}]})",
                "'required'"},
           Case{R"({"type":"struct","schema-id":1.5,"fields":[]})", "'schema-id'"},
           Case{R"({"type":"struct","identifier-field-ids":[2],"fields":[
                   {"id":1,"name":"a","required":true,"type":"int"}]})", "'identifier-field-ids'"},
           Case{R"({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"},
                   {"id":1,"name":"b","required":true,"type":"int"}]})", "duplicate field id"},
           Case{R"({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"},
                   {"id":2,"name":"a","required":true,"type":"int"}]})", "duplicate field name"},
       }) {
    Result<Schema> s = SchemaFromJson(json::parse(c.json));
    ASSERT_FALSE(s) << c.json;
    EXPECT_EQ(s.error().kind, ErrorKind::kBadRequest) << c.json;
    EXPECT_NE(s.error().message.find(c.message_part), std::string::npos) << s.error().message;
  }
}

TEST(SchemaSerdeTest, ErrorDoesNotEchoInput) {
  Result<Schema> s = SchemaFromJson(json::parse(
      R"({"type":"struct","fields":[{"id":1,"name":"secret-name","required":true,"type":"blob"}]})"));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message.find("secret-name"), std::string::npos);
  EXPECT_EQ(s.error().message.find("blob"), std::string::npos);
}

TEST(ValidateSchemaTypesTest, RejectsV3TypesBeforeV3) {
  Schema schema = Parse(R"({"type":"struct","fields":[
      {"id":1,"name":"v","required":false,"type":"variant"}]})");
  Status v2 = ValidateSchemaTypes(schema, 2);
  ASSERT_FALSE(v2);
  EXPECT_EQ(v2.error().kind, ErrorKind::kValidation);
  EXPECT_NE(v2.error().message.find("variant is not supported until v3"), std::string::npos)
      << v2.error().message;
  EXPECT_TRUE(ValidateSchemaTypes(schema, 3));
}

TEST(ValidateSchemaTypesTest, FindsNestedV3Types) {
  Schema schema = Parse(R"({"type":"struct","fields":[{"id":1,"name":"m","required":false,
      "type":{"type":"map","key-id":2,"key":"string","value-id":3,"value-required":false,
      "value":"timestamp_ns"}}]})");
  Status v1 = ValidateSchemaTypes(schema, 1);
  ASSERT_FALSE(v1);
  EXPECT_NE(v1.error().message.find("m.value: timestamp_ns is not supported until v3"),
            std::string::npos)
      << v1.error().message;
}

TEST(ValidateSchemaTypesTest, RejectsDefaultsBeforeV3) {
  Schema schema = Parse(R"({"type":"struct","fields":[{"id":1,"name":"a","required":false,
      "type":"int","write-default":1}]})");
  Status v2 = ValidateSchemaTypes(schema, 2);
  ASSERT_FALSE(v2);
  EXPECT_NE(v2.error().message.find("write-default"), std::string::npos);
  EXPECT_TRUE(ValidateSchemaTypes(schema, 3));
}

TEST(ValidateSchemaTypesTest, NullDefaultsAreFineBeforeV3) {
  Schema schema = Parse(R"({"type":"struct","fields":[{"id":1,"name":"a","required":false,
      "type":"int","initial-default":null}]})");
  EXPECT_TRUE(ValidateSchemaTypes(schema, 1));
}

TEST(ValidateSchemaTypesTest, RejectsRequiredUnknownAndNonNullVariantDefault) {
  EXPECT_FALSE(ValidateSchemaTypes(Parse(R"({"type":"struct","fields":[
      {"id":1,"name":"u","required":true,"type":"unknown"}]})"), 3));
  EXPECT_FALSE(ValidateSchemaTypes(Parse(R"({"type":"struct","fields":[
      {"id":1,"name":"v","required":false,"type":"variant","initial-default":{}}]})"), 3));
}

TEST(MaxFieldIdTest, CoversNestedIds) {
  EXPECT_EQ(MaxFieldId(Parse(kNested)), 8);
  EXPECT_EQ(MaxFieldId(Parse(R"({"type":"struct","fields":[]})")), 0);
}

TEST(SameSchemaStructureTest, IgnoresSchemaIdAndKeyOrder) {
  Schema a = Parse(kNested);
  Schema b = Parse(R"j({"schema-id": 9, "identifier-field-ids": [1], "type": "struct",
    "fields": [
    {"name": "id", "id": 1, "type": "long", "required": true, "doc": "key"},
    {"id": 2, "name": "loc", "required": false, "type": {"fields": [
      {"id": 3, "name": "lat", "required": true, "type": "double"}], "type": "struct"}},
    {"id": 4, "name": "tags", "required": false, "type": {"type": "list", "element-id": 5,
      "element-required": false, "element": "string"}},
    {"id": 6, "name": "attrs", "required": false, "type": {"type": "map", "key-id": 7,
      "key": "string", "value-id": 8, "value-required": true, "value": "decimal(10, 3)"}}
  ]})j");
  EXPECT_TRUE(SameSchemaStructure(a, b));
  b.identifier_field_ids.clear();
  EXPECT_FALSE(SameSchemaStructure(a, b));
}

TEST(SameSchemaStructureTest, DetectsDifferentFields) {
  Schema a = Parse(R"({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"}]})");
  Schema b = Parse(R"({"type":"struct","fields":[{"id":1,"name":"a","required":false,"type":"int"}]})");
  EXPECT_FALSE(SameSchemaStructure(a, b));
}

}  // namespace
}  // namespace firn::metadata
