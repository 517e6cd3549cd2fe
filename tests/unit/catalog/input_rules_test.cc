// The name and property rules of catalog/input_rules.h, one hostile input at a time.
#include "catalog/input_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metadata/view_update.h"

namespace firn::catalog {
namespace {

struct Hostile {
  std::string label;
  std::string name;
  std::string rule;  // the end of the expected message
};

// Every kind of name the rules refuse, with the rule it breaks.
std::vector<Hostile> HostileNames() {
  return {
      {"empty", "", "must not be empty"},
      {"dot", ".", "must not be '.' or '..'"},
      {"dot-dot", "..", "must not be '.' or '..'"},
      {"slash", "a/b", "must not contain '/'"},
      {"leading slash", "/etc", "must not contain '/'"},
      {"NUL", std::string("a\0b", 3), "must not contain control characters"},
      {"newline", "a\nb", "must not contain control characters"},
      {"unit separator", "a\x1F" "b", "must not contain control characters"},
      {"DEL", "a\x7F", "must not contain control characters"},
      {"C1 NEL", "a\xC2\x85", "must not contain control characters"},
      {"C1 CSI", "\xC2\x9B" "x", "must not contain control characters"},
      {"invalid byte", "a\xFF", "must be valid UTF-8"},
      {"overlong slash", "a\xC0\xAF" "b", "must be valid UTF-8"},
      {"surrogate", "\xED\xA0\x80", "must be valid UTF-8"},
      {"truncated", "abc\xE2\x82", "must be valid UTF-8"},
      {"256 bytes", std::string(256, 'n'), "must be at most 255 bytes"},
      {"128 two-byte characters", [] {
         std::string s;
         for (int i = 0; i < 128; ++i) s += "\xC3\xA9";
         return s;
       }(), "must be at most 255 bytes"},
  };
}

TEST(InputRulesTest, EveryHostileNameIsABadRequestNamingTheRuleNotTheName) {
  for (const Hostile& h : HostileNames()) {
    SCOPED_TRACE(h.label);
    Status st = ValidateName("table name", h.name);
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().kind, ErrorKind::kBadRequest);
    EXPECT_EQ(st.error().message, "Invalid table name: " + h.rule);
  }
}

TEST(InputRulesTest, OrdinaryNamesPass) {
  const std::vector<std::string> names = {
      "t",      "my table", "a.b", "...", ".hidden", "x..y", "caf\xC3\xA9", "\xF0\x9F\x98\x80",
      "tab\\le", "100%",     "a+b", std::string(255, 'n'), "\xC2\xA0nbsp", "\xC2\xBF"};
  for (const std::string& name : names) EXPECT_TRUE(ValidateName("table name", name)) << name;
}

TEST(InputRulesTest, NamespaceNeedsALevelAndChecksEveryLevel) {
  EXPECT_FALSE(ValidateNamespace({}));
  EXPECT_TRUE(ValidateNamespace({"a", "b"}));
  Status st = ValidateNamespace({"a", "..", "c"});
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "Invalid namespace level: must not be '.' or '..'");
}

TEST(InputRulesTest, IdentifierChecksLevelsThenName) {
  EXPECT_TRUE(ValidateIdentifier("table name", {{"db"}, "t"}));
  EXPECT_EQ(ValidateIdentifier("destination name", {{"db"}, "a/b"}).error().message,
            "Invalid destination name: must not contain '/'");
  EXPECT_EQ(ValidateIdentifier("table name", {{"d\xFF"}, "t"}).error().message,
            "Invalid namespace level: must be valid UTF-8");
}

PropertyLimits Small() {
  return PropertyLimits{.max_key_bytes = 4, .max_value_bytes = 8, .max_total_bytes = 20,
                        .max_count = 3};
}

TEST(InputRulesTest, PropertiesAtEveryLimitPass) {
  EXPECT_TRUE(CheckProperties(Small(), "table properties", {}));
  EXPECT_TRUE(CheckProperties(Small(), "table properties", {{"a", ""}, {"b", ""}, {"c", ""}}));
  // The longest key and value, and 20 bytes in all.
  EXPECT_TRUE(CheckProperties(Small(), "table properties",
                              {{"kkkk", "vvvvvvvv"}, {"jjjj", "vvvv"}}));
}

TEST(InputRulesTest, EachPropertyLimitIsItsOwnBadRequest) {
  auto message = [](const store::Properties& props) {
    Status st = CheckProperties(Small(), "table properties", props);
    EXPECT_FALSE(st);
    if (st) return std::string();
    EXPECT_EQ(st.error().kind, ErrorKind::kBadRequest);
    return st.error().message;
  };
  EXPECT_EQ(message({{"a", ""}, {"b", ""}, {"c", ""}, {"d", ""}}),
            "Invalid table properties: more than 3 properties");
  EXPECT_EQ(message({{"kkkkk", "v"}}), "Invalid table properties: a key is longer than 4 bytes");
  EXPECT_EQ(message({{"k", "vvvvvvvvv"}}),
            "Invalid table properties: the value of 'k' is longer than 8 bytes");
  EXPECT_EQ(message({{"kkkk", "vvvvvvvv"}, {"jjjj", "vvvvvvvv"}}),
            "Invalid table properties: keys and values exceed 20 bytes in total");
}

TEST(InputRulesTest, DefaultLimitsAreTheDocumentedOnes) {
  const PropertyLimits limits;
  EXPECT_EQ(limits.max_key_bytes, 256u);
  EXPECT_EQ(limits.max_value_bytes, 65536u);
  EXPECT_EQ(limits.max_total_bytes, 1048576u);
  EXPECT_EQ(limits.max_count, 1000u);
  EXPECT_EQ(InputLimits{}.max_metadata_file_bytes, size_t{64} << 20);
}

TEST(InputRulesTest, OnlyNonEmptySetPropertiesCountsAsSettingProperties) {
  using metadata::RemoveProperties;
  using metadata::SetLocation;
  using metadata::SetProperties;
  using metadata::TableUpdate;
  using metadata::ViewUpdate;
  EXPECT_FALSE(SetsProperties(std::vector<TableUpdate>{}));
  EXPECT_FALSE(SetsProperties(std::vector<TableUpdate>{RemoveProperties{{"a"}}, SetLocation{"x"}}));
  EXPECT_FALSE(SetsProperties(std::vector<TableUpdate>{SetProperties{}}));
  EXPECT_TRUE(SetsProperties(std::vector<TableUpdate>{SetProperties{{{"a", "1"}}}}));
  EXPECT_TRUE(SetsProperties(std::vector<ViewUpdate>{SetProperties{{{"a", "1"}}}}));
}

}  // namespace
}  // namespace firn::catalog
