#include "metadata/view_update.h"

#include <boost/json.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace firn::metadata {
namespace {

TEST(ViewUpdateTest, RoundTripsEveryAction) {
  const char* docs[] = {
      R"({"action":"assign-uuid","uuid":"u"})",
      R"({"action":"upgrade-format-version","format-version":1})",
      R"({"action":"add-schema","schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":false,"type":"int"}]}})",
      R"({"action":"set-location","location":"file:/tmp/v"})",
      R"({"action":"set-properties","updates":{"k":"v"}})",
      R"({"action":"remove-properties","removals":["k"]})",
      R"({"action":"add-view-version","view-version":{"version-id":1,"timestamp-ms":5,"schema-id":-1,"summary":{"operation":"replace"},"default-catalog":"c","default-namespace":["ns"],"representations":[{"type":"sql","sql":"select 1","dialect":"spark"}]}})",
      R"({"action":"set-current-view-version","view-version-id":-1})",
  };
  for (const char* doc : docs) {
    auto first = ParseViewUpdate(boost::json::parse(doc));
    ASSERT_TRUE(first.has_value()) << doc << ": " << first.error().message;
    boost::json::object json = ViewUpdateToJson(*first);
    EXPECT_EQ(json, boost::json::parse(doc).as_object()) << doc;
    auto second = ParseViewUpdate(json);
    ASSERT_TRUE(second.has_value()) << doc;
    EXPECT_EQ(*first, *second) << doc;
  }
}

TEST(ViewUpdateTest, AcceptsLegacyPropertyFields) {
  auto set = ParseViewUpdate(boost::json::parse(R"({"action":"set-properties","updated":{"a":"b"}})"));
  ASSERT_TRUE(set.has_value());
  EXPECT_EQ(std::get<SetProperties>(*set).updates.at("a"), "b");
  auto remove =
      ParseViewUpdate(boost::json::parse(R"({"action":"remove-properties","removed":["a"]})"));
  ASSERT_TRUE(remove.has_value());
  EXPECT_EQ(std::get<RemoveProperties>(*remove).removals, std::vector<std::string>{"a"});
}

TEST(ViewUpdateTest, TableOnlyActionIsRejected) {
  auto parsed = ParseViewUpdate(
      boost::json::parse(R"({"action":"set-current-schema","schema-id":1})"));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().kind, ErrorKind::kBadRequest);
  EXPECT_EQ(parsed.error().message,
            "Cannot parse view update: action 'set-current-schema' does not apply to views");
}

TEST(ViewUpdateTest, UnknownActionIsRejected) {
  auto parsed = ParseViewUpdate(boost::json::parse(R"({"action":"nope"})"));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().kind, ErrorKind::kBadRequest);
}

TEST(ViewUpdateTest, AddViewVersionNeedsAVersion) {
  auto parsed = ParseViewUpdate(boost::json::parse(R"({"action":"add-view-version"})"));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_THAT(parsed.error().message, ::testing::HasSubstr("view-version"));
}

TEST(ViewUpdateTest, SetCurrentViewVersionNeedsAnId) {
  auto parsed = ParseViewUpdate(boost::json::parse(R"({"action":"set-current-view-version"})"));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_THAT(parsed.error().message, ::testing::HasSubstr("view-version-id"));
}

TEST(ViewUpdateTest, ParsesAListInOrder) {
  auto parsed = ParseViewUpdates(boost::json::parse(
      R"([{"action":"set-location","location":"a"},{"action":"set-current-view-version","view-version-id":2}])"));
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->size(), 2u);
  EXPECT_EQ(ViewUpdateAction((*parsed)[1]), "set-current-view-version");
}

}  // namespace
}  // namespace firn::metadata
