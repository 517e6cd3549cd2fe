// CommitTableRequest parsing: the route's framing (which fields, which are required) around
// metadata::ParseTableRequirements / ParseTableUpdates, which parse the items.
#include "rest/table_change_parser.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <string>
#include <variant>

namespace firn::rest {
namespace {

const store::Identifier kPathId{{"db"}, "t"};

Result<catalog::TableChange> Parse(const std::string& body, const store::Identifier* id) {
  return ParseTableChange(boost::json::parse(body), id);
}

std::string ErrorOf(const std::string& body, const store::Identifier* id = &kPathId) {
  auto change = Parse(body, id);
  if (change) return "(parsed)";
  EXPECT_EQ(change.error().kind, ErrorKind::kBadRequest) << body;
  return change.error().message;
}

TEST(TableChangeParserTest, ParsesRequirementsAndUpdatesInOrder) {
  auto change = Parse(R"({"requirements": [{"type": "assert-create"},
                                           {"type": "assert-table-uuid", "uuid": "u-1"}],
                          "updates": [{"action": "set-properties", "updates": {"k": "v"}},
                                      {"action": "remove-properties", "removals": ["x"]}]})",
                      &kPathId);
  ASSERT_TRUE(change) << change.error().message;
  EXPECT_EQ(change->id, kPathId);
  ASSERT_EQ(change->requirements.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<metadata::AssertCreate>(change->requirements[0]));
  EXPECT_EQ(std::get<metadata::AssertTableUuid>(change->requirements[1]).uuid, "u-1");
  ASSERT_EQ(change->updates.size(), 2u);
  EXPECT_EQ(metadata::TableUpdateAction(change->updates[0]), "set-properties");
  EXPECT_EQ(metadata::TableUpdateAction(change->updates[1]), "remove-properties");
}

TEST(TableChangeParserTest, AbsentOrNullRequirementsAreNone) {
  for (const char* body : {R"({"updates": []})", R"({"requirements": null, "updates": []})"}) {
    auto change = Parse(body, &kPathId);
    ASSERT_TRUE(change) << body;
    EXPECT_TRUE(change->requirements.empty());
    EXPECT_TRUE(change->updates.empty());
  }
}

TEST(TableChangeParserTest, MisshapenFieldsAreNamedBadRequests) {
  EXPECT_EQ(ErrorOf(R"({"requirements": {}, "updates": []})"),
            "Invalid request body: field 'requirements' must be an array");
  EXPECT_EQ(ErrorOf(R"({"requirements": []})"),
            "Invalid request body: field 'updates' must be an array (required)");
  EXPECT_EQ(ErrorOf(R"({"updates": null})"),
            "Invalid request body: field 'updates' must be an array (required)");
  EXPECT_EQ(ErrorOf(R"([])"), "Invalid request body: commit request must be a JSON object");
}

TEST(TableChangeParserTest, ItemErrorsAreTheMetadataParsers) {
  EXPECT_EQ(ErrorOf(R"({"updates": [{"action": "drop-everything"}]})"),
            "Cannot parse update: unknown action 'drop-everything'");
  EXPECT_EQ(ErrorOf(R"({"requirements": [{"type": "assert-nothing"}], "updates": []})"),
            "Cannot parse requirement: unknown type 'assert-nothing'");
  EXPECT_EQ(ErrorOf(R"({"requirements": [7], "updates": []})"),
            "Cannot parse requirement: not a JSON object");
}

TEST(TableChangeParserTest, PathIdentifierWinsAndATransactionNeedsOne) {
  auto change = Parse(R"({"identifier": {"namespace": ["other"], "name": "x"}, "updates": []})",
                      &kPathId);
  ASSERT_TRUE(change);
  EXPECT_EQ(change->id, kPathId);
  auto in_transaction =
      Parse(R"({"identifier": {"namespace": ["other"], "name": "x"}, "updates": []})", nullptr);
  ASSERT_TRUE(in_transaction);
  EXPECT_EQ(in_transaction->id, (store::Identifier{{"other"}, "x"}));
  EXPECT_FALSE(Parse(R"({"updates": []})", nullptr));
}

}  // namespace
}  // namespace firn::rest
