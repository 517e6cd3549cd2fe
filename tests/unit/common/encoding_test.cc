#include "common/encoding.h"

#include <gtest/gtest.h>

#include <string>

namespace firn {
namespace {

TEST(HexTest, EncodesEveryByteAsTwoLowercaseDigits) {
  EXPECT_EQ(HexEncode(""), "");
  EXPECT_EQ(HexEncode(std::string("\x00\x0f\xa0\xff", 4)), "000fa0ff");
  EXPECT_EQ(HexEncode("Firn"), "4669726e");
}

TEST(Base64UrlTest, EncodesRfc4648VectorsWithoutPadding) {
  EXPECT_EQ(Base64UrlEncode(""), "");
  EXPECT_EQ(Base64UrlEncode("f"), "Zg");
  EXPECT_EQ(Base64UrlEncode("fo"), "Zm8");
  EXPECT_EQ(Base64UrlEncode("foo"), "Zm9v");
  EXPECT_EQ(Base64UrlEncode("foob"), "Zm9vYg");
  EXPECT_EQ(Base64UrlEncode("fooba"), "Zm9vYmE");
  EXPECT_EQ(Base64UrlEncode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64UrlEncode("\xfb\xff"), "-_8");
}

TEST(Base64Test, EncodesRfc4648VectorsWithPadding) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode("\xfb\xff"), "+/8=");
}

TEST(Base64UrlTest, RoundTripsEveryLengthAndByteValue) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t n = 0; n <= all.size(); ++n) {
    const std::string bytes = all.substr(256 - n);
    const std::string encoded = Base64UrlEncode(bytes);
    EXPECT_EQ(encoded.find_first_of("+/="), std::string::npos);
    EXPECT_EQ(Base64UrlDecode(encoded), bytes) << n;
  }
}

TEST(Base64UrlTest, RejectsPaddingAlphabetLengthAndNonCanonicalBits) {
  EXPECT_FALSE(Base64UrlDecode("Zg=="));
  EXPECT_FALSE(Base64UrlDecode("ab="));
  EXPECT_FALSE(Base64UrlDecode("Zm9v+g"));  // standard alphabet, not url-safe
  EXPECT_FALSE(Base64UrlDecode("Zm9v/g"));
  EXPECT_FALSE(Base64UrlDecode("Z"));       // 4n+1 characters cannot be valid
  EXPECT_FALSE(Base64UrlDecode("Zh"));      // "Zg" with non-zero trailing bits
  EXPECT_FALSE(Base64UrlDecode("Zm9 v"));
  EXPECT_FALSE(Base64UrlDecode(std::string("Zg\0", 3)));
  EXPECT_EQ(Base64UrlDecode("Zg"), "f");
  EXPECT_EQ(Base64UrlDecode(""), "");
}

TEST(PercentDecodeTest, PathRulesKeepPlusAndDecodeEitherHexCase) {
  EXPECT_EQ(PercentDecodePath("a+b%2Fc%2f%2B"), "a+b/c/+");
  EXPECT_EQ(PercentDecodePath("caf%C3%A9"), "caf\xC3\xA9");
  EXPECT_EQ(PercentDecodePath("%00"), std::string(1, '\0'));
  EXPECT_EQ(PercentDecodePath(""), "");
}

TEST(PercentDecodeTest, FormRulesTurnPlusIntoSpaceButNotAnEncodedPlus) {
  EXPECT_EQ(PercentDecodeForm("a+b%2Fc%2B"), "a b/c+");
  EXPECT_EQ(PercentDecodeForm("%20+"), "  ");
}

TEST(PercentDecodeTest, RejectsTruncatedOrNonHexEscapesUnderBothRules) {
  for (std::string_view bad : {"%", "abc%", "abc%2", "%zz", "%2g", "%%41", "a%"}) {
    EXPECT_FALSE(PercentDecodePath(bad)) << bad;
    EXPECT_FALSE(PercentDecodeForm(bad)) << bad;
  }
}

TEST(PercentDecodeTest, BytesOutsideTheUriAlphabetPassThrough) {
  // The HTTP parser admits them in a target; only escapes are judged here.
  EXPECT_EQ(PercentDecodeForm("a|b{c}\xC3\xA9"), "a|b{c}\xC3\xA9");
}

TEST(FormEncodedTest, SplitsPairsDecodesBothSidesAndKeepsOrderAndRepeats) {
  auto f = ParseFormEncoded("a=b+c&d=%2F%3a&e&=x&&a=2&k%3D=v=w");
  ASSERT_TRUE(f);
  const FormPairs want = {{"a", "b c"}, {"d", "/:"}, {"e", ""}, {"", "x"},
                          {"a", "2"},   {"k=", "v=w"}};
  EXPECT_EQ(*f, want);
  EXPECT_EQ(ParseFormEncoded(""), FormPairs());
}

TEST(FormEncodedTest, AnyMalformedEscapeRejectsTheWholeText) {
  EXPECT_FALSE(ParseFormEncoded("a=%4"));
  EXPECT_FALSE(ParseFormEncoded("a=%g0"));
  EXPECT_FALSE(ParseFormEncoded("ok=1&%zz=1"));
}

}  // namespace
}  // namespace firn
