#include "metadata/view_requirement.h"

#include <boost/json.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "view_test_util.h"

namespace firn::metadata {
namespace {

using testing::MakeView;

TEST(ViewRequirementTest, RoundTripsAssertViewUuid) {
  const auto doc = boost::json::parse(R"({"type":"assert-view-uuid","uuid":"abc"})");
  auto parsed = ParseViewRequirement(doc);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(ViewRequirementToJson(*parsed), doc.as_object());
  EXPECT_EQ(ViewRequirementType(*parsed), "assert-view-uuid");
}

TEST(ViewRequirementTest, MatchingUuidPassesIgnoringCase) {
  ViewMetadata base = MakeView();
  EXPECT_TRUE(CheckViewRequirement(AssertViewUuid{"FA6506C3-7681-40C8-86DC-E36561F83385"}, base)
                  .has_value());
}

TEST(ViewRequirementTest, OtherUuidFailsWithJavaMessage) {
  ViewMetadata base = MakeView();
  Status st = CheckViewRequirements({AssertViewUuid{"other"}}, base);
  ASSERT_FALSE(st.has_value());
  EXPECT_EQ(st.error().kind, ErrorKind::kCommitFailed);
  EXPECT_EQ(st.error().message,
            "Requirement failed: view UUID does not match: expected "
            "fa6506c3-7681-40c8-86dc-e36561f83385 != other");
}

TEST(ViewRequirementTest, TableRequirementIsRejected) {
  auto parsed = ParseViewRequirement(boost::json::parse(R"({"type":"assert-create"})"));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().kind, ErrorKind::kBadRequest);
  EXPECT_EQ(parsed.error().message, "Cannot parse view requirement: unknown type 'assert-create'");
}

TEST(ViewRequirementTest, MissingUuidIsRejected) {
  auto parsed = ParseViewRequirement(boost::json::parse(R"({"type":"assert-view-uuid"})"));
  ASSERT_FALSE(parsed.has_value());
  EXPECT_THAT(parsed.error().message, ::testing::HasSubstr("uuid"));
}

TEST(ViewRequirementTest, NonArrayListIsRejected) {
  EXPECT_FALSE(ParseViewRequirements(boost::json::parse("{}")).has_value());
}

}  // namespace
}  // namespace firn::metadata
