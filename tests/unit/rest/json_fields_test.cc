// The field readers the catalog routes frame request bodies with: each failure is a 400 that
// names the field and what it must be, never the value sent.
#include "rest/json_fields.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <string>

namespace firn::rest {
namespace {

boost::json::object Body(const char* text) { return boost::json::parse(text).as_object(); }

std::string MessageOf(const Result<const boost::json::value*>& r) {
  EXPECT_FALSE(r);
  if (r) return "(found)";
  EXPECT_EQ(r.error().kind, ErrorKind::kBadRequest);
  return r.error().message;
}

// Infinity is not JSON: a body whose number overflows a double would reach metadata that no
// reader could parse again, so it is refused before anything else reads it.
TEST(JsonFieldsTest, ParseJsonBodyRefusesNumbersBeyondDoubleRange) {
  ASSERT_TRUE(ParseJsonBody(R"({"updates": [{"initial-default": 1.5e308}]})"));
  auto huge = ParseJsonBody(R"({"updates": [{"initial-default": 1e309}]})");
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().kind, ErrorKind::kBadRequest);
  EXPECT_EQ(huge.error().message, "Malformed JSON request body: number out of range");
}

TEST(JsonFieldsTest, RequiredObjectReturnsTheObjectOrNamesTheField) {
  auto body = Body(R"({"schema": {"type": "struct"}, "list": [], "nil": null})");
  auto schema = RequiredObject(body, "schema");
  ASSERT_TRUE(schema);
  EXPECT_EQ((*schema)->as_object().at("type").as_string(), "struct");
  const std::string want = "Invalid request body: field 'list' must be an object (required)";
  EXPECT_EQ(MessageOf(RequiredObject(body, "list")), want);
  EXPECT_EQ(MessageOf(RequiredObject(body, "nil")),
            "Invalid request body: field 'nil' must be an object (required)");
  EXPECT_EQ(MessageOf(RequiredObject(body, "absent")),
            "Invalid request body: field 'absent' must be an object (required)");
}

TEST(JsonFieldsTest, OptionalArrayTreatsAbsentAndNullAsNone) {
  auto body = Body(R"({"a": [1], "nil": null, "obj": {"secret": "x"}})");
  auto a = OptionalArray(body, "a");
  ASSERT_TRUE(a && *a);
  EXPECT_EQ((*a)->as_array().size(), 1u);
  auto nil = OptionalArray(body, "nil");
  ASSERT_TRUE(nil);
  EXPECT_EQ(*nil, nullptr);
  auto absent = OptionalArray(body, "absent");
  ASSERT_TRUE(absent);
  EXPECT_EQ(*absent, nullptr);
  const std::string message = MessageOf(OptionalArray(body, "obj"));
  EXPECT_EQ(message, "Invalid request body: field 'obj' must be an array");
  EXPECT_EQ(message.find("secret"), std::string::npos);
}

TEST(JsonFieldsTest, RequiredArrayRefusesAbsentNullAndOtherTypes) {
  auto body = Body(R"({"a": [], "nil": null, "s": "x"})");
  EXPECT_TRUE(RequiredArray(body, "a"));
  for (const char* key : {"nil", "s", "absent"}) {
    EXPECT_EQ(MessageOf(RequiredArray(body, key)),
              "Invalid request body: field '" + std::string(key) + "' must be an array (required)");
  }
}

}  // namespace
}  // namespace firn::rest
