#include "auth/base64url.h"

#include <gtest/gtest.h>

namespace firn::auth {
namespace {

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

TEST(Base64UrlTest, RoundTripsAllByteValues) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t n = 0; n < all.size(); n += 7) {
    auto s = all.substr(0, n);
    EXPECT_EQ(Base64UrlDecode(Base64UrlEncode(s)), s);
  }
}

TEST(Base64UrlTest, RejectsPaddingAlphabetLengthAndNonCanonicalBits) {
  EXPECT_FALSE(Base64UrlDecode("Zg=="));
  EXPECT_FALSE(Base64UrlDecode("Zm9v+g"));  // standard alphabet, not url-safe
  EXPECT_FALSE(Base64UrlDecode("Zm9v/g"));
  EXPECT_FALSE(Base64UrlDecode("Z"));       // 4n+1 characters cannot be valid
  EXPECT_FALSE(Base64UrlDecode("Zh"));      // "Zg" with non-zero trailing bits
  EXPECT_FALSE(Base64UrlDecode("Zm9 v"));
  EXPECT_TRUE(Base64UrlDecode("Zg"));
}

}  // namespace
}  // namespace firn::auth
