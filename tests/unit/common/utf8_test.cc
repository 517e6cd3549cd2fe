#include "common/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace firn::utf8 {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(Utf8Test, AcceptsAsciiAndEveryWellFormedLength) {
  EXPECT_TRUE(IsWellFormed(""));
  EXPECT_TRUE(IsWellFormed("plain ascii"));
  EXPECT_TRUE(IsWellFormed("caf\xC3\xA9"));           // U+00E9, two bytes
  EXPECT_TRUE(IsWellFormed("\xE2\x82\xAC"));          // U+20AC, three bytes
  EXPECT_TRUE(IsWellFormed("\xF0\x9F\x98\x80"));      // U+1F600, four bytes
  EXPECT_TRUE(IsWellFormed("\xF4\x8F\xBF\xBF"));      // U+10FFFF, the last code point
  EXPECT_TRUE(IsWellFormed(std::string("a\0b", 3)));  // NUL is well-formed UTF-8
}

TEST(Utf8Test, RejectsEveryKindOfIllFormedSequence) {
  EXPECT_FALSE(IsWellFormed("\xFF"));              // never a lead byte
  EXPECT_FALSE(IsWellFormed("\x80"));              // lone continuation
  EXPECT_FALSE(IsWellFormed("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(IsWellFormed("\xE0\x80\xAF"));      // overlong, three bytes
  EXPECT_FALSE(IsWellFormed("\xED\xA0\x80"));      // surrogate U+D800
  EXPECT_FALSE(IsWellFormed("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsWellFormed("\xC3"));              // truncated at the end
  EXPECT_FALSE(IsWellFormed("ab\xE2\x82"));        // truncated three-byte sequence
  EXPECT_FALSE(IsWellFormed("\xE2\x82x"));         // continuation missing mid-text
}

TEST(Utf8Test, SanitizeKeepsWellFormedTextUnchanged) {
  const std::string text = "ns.t\xC3\xA9\xF0\x9F\x98\x80";
  EXPECT_EQ(Sanitize(text), text);
}

TEST(Utf8Test, SanitizeReplacesEachMaximalIllFormedSubpart) {
  EXPECT_EQ(Sanitize("a\xFF" "b"), "a" + kFffd + "b");
  // A truncated sequence is one replacement, not one per byte.
  EXPECT_EQ(Sanitize("a\xF0\x9F\x98"), "a" + kFffd);
  // An overlong lead byte is ill-formed on its own: each byte gets its replacement.
  EXPECT_EQ(Sanitize("\xC0\xAF"), kFffd + kFffd);
  EXPECT_EQ(Sanitize("\xED\xA0\x80"), kFffd + kFffd + kFffd);
  EXPECT_TRUE(IsWellFormed(Sanitize("\xFE\xFF\xC3\x28\xE2\x28\xA1")));
}

TEST(Utf8Test, SequenceLengthNamesTheBytesOfOneCodePoint) {
  const std::string text = "a\xC3\xA9\xE2\x82\xAC\xFF";
  EXPECT_EQ(SequenceLength(text, 0), 1u);
  EXPECT_EQ(SequenceLength(text, 1), 2u);
  EXPECT_EQ(SequenceLength(text, 3), 3u);
  EXPECT_EQ(SequenceLength(text, 6), 0u);
  EXPECT_EQ(SequenceLength(text, 7), 0u);  // past the end
}

}  // namespace
}  // namespace firn::utf8
