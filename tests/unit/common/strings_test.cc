#include "common/strings.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace firn {
namespace {

TEST(StringsTest, ToLowerMapsAsciiLettersOnly) {
  EXPECT_EQ(ToLower("GZip-Ä1_Z"), "gzip-Ä1_z");
  EXPECT_EQ(ToLower("\xC3\x84"), "\xC3\x84");  // bytes >= 0x80 stay as they are
  EXPECT_EQ(ToLower(""), "");
}

TEST(StringsTest, EqualsIgnoreCaseIsAsciiCaseInsensitiveAndLengthExact) {
  EXPECT_TRUE(EqualsIgnoreCase("Content-Length", "content-LENGTH"));
  EXPECT_TRUE(EqualsIgnoreCase("", ""));
  EXPECT_FALSE(EqualsIgnoreCase("true", "true "));
  EXPECT_FALSE(EqualsIgnoreCase("tru", "true"));
  EXPECT_FALSE(EqualsIgnoreCase("[", "{"));  // '[' + 0x20 == '{': no arithmetic outside A-Z
  EXPECT_FALSE(EqualsIgnoreCase("\xC4", "\xE4"));  // 0xC4 | 0x20 == 0xE4: not ASCII letters
}

TEST(StringsTest, StartsWithIgnoreCase) {
  EXPECT_TRUE(StartsWithIgnoreCase("FILE:/tmp", "file:"));
  EXPECT_TRUE(StartsWithIgnoreCase("Basic abc", "basic "));
  EXPECT_TRUE(StartsWithIgnoreCase("x", ""));
  EXPECT_FALSE(StartsWithIgnoreCase("fil", "file:"));
  EXPECT_FALSE(StartsWithIgnoreCase("s3://b", "file:"));
}

TEST(StringsTest, TrimRemovesOnlyTheGivenCharactersFromBothEnds) {
  EXPECT_EQ(Trim(" \t\r\n\v\fdecimal(1, 2)\n "), "decimal(1, 2)");
  EXPECT_EQ(Trim("  \t "), "");
  EXPECT_EQ(Trim(""), "");
  EXPECT_EQ(Trim("\n Bearer x\t", " \t"), "\n Bearer x");
  EXPECT_EQ(Trim("a b"), "a b");
}

TEST(StringsTest, TrimEndLeavesTheStart) {
  EXPECT_EQ(TrimEnd("  secret\r\n\n", "\r\n"), "  secret");
  EXPECT_EQ(TrimEnd("\n\n", "\r\n"), "");
  EXPECT_EQ(TrimEnd("a  b  ", " "), "a  b");
}

TEST(StringsTest, StripTrailingSlashRemovesAllButKeepsTheFirstCharacter) {
  EXPECT_EQ(StripTrailingSlash("s3://b/t///"), "s3://b/t");
  EXPECT_EQ(StripTrailingSlash("s3://b/t"), "s3://b/t");
  EXPECT_EQ(StripTrailingSlash("/"), "/");
  EXPECT_EQ(StripTrailingSlash("//"), "/");
  EXPECT_EQ(StripTrailingSlash(""), "");
}

TEST(StringsTest, StripOneTrailingSlashRemovesAtMostOne) {
  EXPECT_EQ(StripOneTrailingSlash("s3://b/t//"), "s3://b/t/");
  EXPECT_EQ(StripOneTrailingSlash("s3://b/t/"), "s3://b/t");
  EXPECT_EQ(StripOneTrailingSlash("s3://b/t"), "s3://b/t");
  EXPECT_EQ(StripOneTrailingSlash("/"), "");
  EXPECT_EQ(StripOneTrailingSlash(""), "");
}

TEST(StringsTest, SplitStringDropsOnlyTheTrailingEmptyPiece) {
  using V = std::vector<std::string_view>;
  EXPECT_EQ(SplitString("a,b", ','), (V{"a", "b"}));
  EXPECT_EQ(SplitString("", ','), V{});
  EXPECT_EQ(SplitString("a", ','), V{"a"});
  EXPECT_EQ(SplitString("a/", '/'), V{"a"});
  EXPECT_EQ(SplitString("a//b", '/'), (V{"a", "", "b"}));
  EXPECT_EQ(SplitString(",a", ','), (V{"", "a"}));
}

}  // namespace
}  // namespace firn
