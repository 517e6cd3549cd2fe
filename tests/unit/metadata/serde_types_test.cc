#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include "metadata/types.h"

namespace firn::metadata {
namespace {

namespace json = boost::json;

TEST(PrimitiveTypeTest, ParsesEveryV1Name) {
  for (const char* name : {"boolean", "int", "long", "float", "double", "date", "time",
                           "timestamp", "timestamptz", "string", "uuid", "binary"}) {
    Result<PrimitiveType> t = ParsePrimitiveType(name);
    ASSERT_TRUE(t) << name;
    EXPECT_EQ(t->name, name);
    EXPECT_EQ(t->min_format_version, 1) << name;
  }
}

TEST(PrimitiveTypeTest, V3NamesCarryTheirVersion) {
  for (const char* name : {"variant", "unknown", "timestamp_ns", "timestamptz_ns", "geometry",
                           "geography"}) {
    Result<PrimitiveType> t = ParsePrimitiveType(name);
    ASSERT_TRUE(t) << name;
    EXPECT_EQ(t->min_format_version, 3) << name;
  }
}

TEST(PrimitiveTypeTest, CanonicalisesParameterisedTypes) {
  EXPECT_EQ(ParsePrimitiveType("decimal(9,2)")->name, "decimal(9, 2)");
  EXPECT_EQ(ParsePrimitiveType("DECIMAL( 38 , 0 )")->name, "decimal(38, 0)");
  EXPECT_EQ(ParsePrimitiveType("fixed[16]")->name, "fixed[16]");
  EXPECT_EQ(ParsePrimitiveType("Long")->name, "long");
  EXPECT_EQ(ParsePrimitiveType("geometry(srid:4326)")->name, "geometry(srid:4326)");
  EXPECT_EQ(ParsePrimitiveType("geography(OGC:CRS84, Karney)")->name,
            "geography(OGC:CRS84, karney)");
  EXPECT_EQ(ParsePrimitiveType("decimal(9,2)")->base, "decimal");
  EXPECT_EQ(ParsePrimitiveType("decimal(9,2)")->precision, 9);
  EXPECT_EQ(ParsePrimitiveType("decimal(9,2)")->scale, 2);
}

TEST(PrimitiveTypeTest, RejectsUnknownAndOutOfRange) {
  for (const char* bad : {"varchar", "decimal(39,2)", "decimal(9)", "fixed[0]", "fixed[x]",
                          "geography(srid:1, flat)", "list", ""}) {
    Result<PrimitiveType> t = ParsePrimitiveType(bad);
    ASSERT_FALSE(t) << bad;
    EXPECT_EQ(t.error().kind, ErrorKind::kBadRequest);
  }
}

TEST(NormalizeTypeTest, OrdersKeysAndDropsUnknownOnes) {
  json::value in = json::parse(R"({"element":"Long","element-required":true,"type":"list",
                                   "element-id":3,"extra":1})");
  Result<json::value> out = NormalizeType(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(json::serialize(*out),
            R"({"type":"list","element-id":3,"element":"long","element-required":true})");
}

TEST(NormalizeTypeTest, RejectsMissingNestedKeys) {
  for (const char* bad : {R"({"type":"list","element":"int","element-required":true})",
                          R"({"type":"map","key-id":1,"key":"int","value-id":2,"value":"int"})",
                          R"({"type":"struct"})", R"({"type":"tuple"})", "42"}) {
    Result<json::value> out = NormalizeType(json::parse(bad));
    ASSERT_FALSE(out) << bad;
    EXPECT_EQ(out.error().kind, ErrorKind::kBadRequest);
  }
}

TEST(ForEachFieldNodeTest, VisitsParentsBeforeChildrenWithPaths) {
  Result<json::array> fields = NormalizeStructFields(json::parse(R"([
    {"id":1,"name":"a","required":true,"type":{"type":"struct","fields":[
      {"id":2,"name":"b","required":false,"type":"int"}]}},
    {"id":3,"name":"m","required":false,"type":{"type":"map","key-id":4,"key":"string",
      "value-id":5,"value-required":false,"value":{"type":"list","element-id":6,
      "element-required":true,"element":"int"}}}])"));
  ASSERT_TRUE(fields);
  std::vector<std::pair<int, std::string>> seen;
  ForEachFieldNode(*fields, [&](const FieldNode& n) { seen.emplace_back(n.id, n.path); });
  std::vector<std::pair<int, std::string>> want = {
      {1, "a"}, {2, "a.b"}, {3, "m"}, {4, "m.key"}, {5, "m.value"}, {6, "m.value.element"}};
  EXPECT_EQ(seen, want);
}

}  // namespace
}  // namespace firn::metadata
