#include "metadata/view_serde.h"

#include <boost/json.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "view_test_util.h"

namespace firn::metadata {
namespace {

using ::testing::HasSubstr;
using testing::MakeView;

constexpr std::string_view kSpecExample = R"({
  "view-uuid": "fa6506c3-7681-40c8-86dc-e36561f83385",
  "format-version" : 1,
  "location" : "s3://bucket/warehouse/default.db/event_agg",
  "current-version-id" : 1,
  "properties" : {"comment" : "Daily event counts"},
  "versions" : [ {
    "version-id" : 1,
    "timestamp-ms" : 1573518431292,
    "schema-id" : 1,
    "default-catalog" : "prod",
    "default-namespace" : [ "default" ],
    "summary" : {"engine-name" : "Spark", "engine-version" : "3.3.2"},
    "representations" : [ {
      "type" : "sql",
      "sql" : "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM events\nGROUP BY 2",
      "dialect" : "spark"
    } ]
  } ],
  "schemas": [ {
    "schema-id": 1,
    "type" : "struct",
    "fields" : [ {"id" : 1, "name" : "event_count", "required" : false, "type" : "int",
                  "doc" : "Count of events"},
                 {"id" : 2, "name" : "event_date", "required" : false, "type" : "date"} ]
  } ],
  "version-log" : [ {"timestamp-ms" : 1573518431292, "version-id" : 1} ]
})";

TEST(ViewSerdeTest, ParsesTheSpecExample) {
  auto m = ParseViewMetadata(kSpecExample);
  ASSERT_TRUE(m.has_value()) << m.error().message;
  EXPECT_EQ(m->view_uuid, "fa6506c3-7681-40c8-86dc-e36561f83385");
  EXPECT_EQ(m->current_version_id, 1);
  ASSERT_EQ(m->versions.size(), 1u);
  EXPECT_EQ(m->versions[0].default_catalog, "prod");
  EXPECT_EQ(m->versions[0].representations[0].dialect, "spark");
  EXPECT_EQ(m->properties.at("comment"), "Daily event counts");
  EXPECT_EQ(m->schemas[0].schema_id, 1);
}

TEST(ViewSerdeTest, RoundTripsTheSpecExample) {
  auto first = ParseViewMetadata(kSpecExample);
  ASSERT_TRUE(first.has_value());
  auto second = ParseViewMetadata(SerializeViewMetadata(*first));
  ASSERT_TRUE(second.has_value()) << second.error().message;
  EXPECT_EQ(*first, *second);
  EXPECT_EQ(ViewMetadataToJson(*second), boost::json::parse(kSpecExample).as_object());
}

TEST(ViewSerdeTest, WritesFieldsInJavaOrder) {
  boost::json::object json = ViewMetadataToJson(MakeView());
  std::vector<std::string> keys;
  for (const auto& kv : json) keys.emplace_back(kv.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"view-uuid", "format-version", "location", "schemas",
                                            "current-version-id", "versions", "version-log"}));
}

TEST(ViewSerdeTest, KeepsUnknownRepresentationsAsSent) {
  auto rep = ViewRepresentationFromJson(boost::json::parse(R"({"type":"x","a":[1,2]})"));
  ASSERT_TRUE(rep.has_value());
  EXPECT_EQ(ViewRepresentationToJson(*rep), boost::json::parse(R"({"type":"x","a":[1,2]})"));
}

TEST(ViewSerdeTest, VersionWithoutDefaultNamespaceIsRejected) {
  auto v = ViewVersionFromJson(boost::json::parse(
      R"({"version-id":1,"timestamp-ms":1,"schema-id":0,"summary":{},"representations":[]})"));
  ASSERT_FALSE(v.has_value());
  EXPECT_EQ(v.error().kind, ErrorKind::kBadRequest);
  EXPECT_THAT(v.error().message, HasSubstr("default-namespace"));
}

TEST(ViewSerdeTest, SqlRepresentationWithoutDialectIsRejected) {
  auto rep = ViewRepresentationFromJson(boost::json::parse(R"({"type":"sql","sql":"select 1"})"));
  ASSERT_FALSE(rep.has_value());
  EXPECT_THAT(rep.error().message, HasSubstr("dialect"));
}

TEST(ViewSerdeTest, MissingCurrentVersionIsInvalid) {
  ViewMetadata m = MakeView();
  m.current_version_id = 7;
  auto parsed = ParseViewMetadata(SerializeViewMetadata(m));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().kind, ErrorKind::kValidation);
  EXPECT_THAT(parsed.error().message, HasSubstr("Cannot find current version 7"));
}

TEST(ViewSerdeTest, UnsupportedFormatVersionIsInvalid) {
  ViewMetadata m = MakeView();
  m.format_version = 2;
  auto parsed = ParseViewMetadata(SerializeViewMetadata(m));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_THAT(parsed.error().message, HasSubstr("Unsupported format version: 2"));
}

TEST(ViewSerdeTest, InvalidJsonIsBadRequest) {
  auto parsed = ParseViewMetadata("{");
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().kind, ErrorKind::kBadRequest);
}

}  // namespace
}  // namespace firn::metadata
