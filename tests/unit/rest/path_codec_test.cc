#include "rest/path_codec.h"

#include <gtest/gtest.h>

namespace firn::rest {
namespace {

TEST(PathCodecTest, FormDecodeTurnsPlusIntoSpaceAndDecodesPercent) {
  EXPECT_EQ(FormDecode("a+b%2Fc%2B").value(), "a b/c+");
}

TEST(PathCodecTest, FormDecodeRejectsTruncatedOrNonHexEscapes) {
  EXPECT_FALSE(FormDecode("abc%2").has_value());
  EXPECT_FALSE(FormDecode("abc%").has_value());
  EXPECT_FALSE(FormDecode("%zz").has_value());
  EXPECT_EQ(FormDecode("%zz").error().kind, ErrorKind::kBadRequest);
}

TEST(PathCodecTest, NamespaceSplitsOnUnitSeparatorBeforeDecoding) {
  auto ns = DecodeNamespaceSegment("accounting%1Ftax%1fpaid").value();
  EXPECT_EQ(ns, (store::Namespace{"accounting", "tax", "paid"}));
}

TEST(PathCodecTest, EncodedSlashStaysInsideOneLevel) {
  auto ns = DecodeNamespaceSegment("new%2Fdb").value();
  EXPECT_EQ(ns, (store::Namespace{"new/db"}));
}

TEST(PathCodecTest, EncodedUnitSeparatorInsideALevelIsStillASeparator) {
  // Java encodes 0x1F inside a level as %1F too; the protocol cannot tell them apart.
  EXPECT_EQ(DecodeNamespaceSegment("a%1Fb").value().size(), 2u);
}

TEST(PathCodecTest, EmptyLevelIsABadRequest) {
  EXPECT_FALSE(DecodeNamespaceSegment("a%1F%1Fb").has_value());
  EXPECT_FALSE(DecodeNamespaceSegment("").has_value());
}

TEST(PathCodecTest, NameSegmentKeepsDotsAndDecodesSpaces) {
  EXPECT_EQ(DecodeNameSegment("my+table.v1").value(), "my table.v1");
  EXPECT_EQ(DecodeNameSegment("tab%2Fle").value(), "tab/le");
}

TEST(PathCodecTest, QueryParamsDecodeValuesAndKeepEmptyOnes) {
  auto q = QueryParams::Parse("pageToken=&parent=a%1Fb&pageSize=2").value();
  EXPECT_EQ(q.Get("pageToken").value(), "");
  EXPECT_EQ(q.Get("pageSize").value(), "2");
  EXPECT_EQ(NamespaceFromQueryValue(q.Get("parent").value()), (store::Namespace{"a", "b"}));
  EXPECT_FALSE(q.Get("missing").has_value());
}

TEST(PathCodecTest, EmptyParentMeansTopLevel) {
  EXPECT_TRUE(NamespaceFromQueryValue("").empty());
}

TEST(PathCodecTest, MalformedQueryIsABadRequest) {
  EXPECT_FALSE(QueryParams::Parse("a=%G1").has_value());
  auto truncated = QueryParams::Parse("pageToken=abc&parent=x%2");
  ASSERT_FALSE(truncated.has_value());
  EXPECT_EQ(truncated.error().kind, ErrorKind::kBadRequest);
  EXPECT_EQ(truncated.error().message, "Malformed percent-encoding in request URI");
}

TEST(PathCodecTest, QueryBytesTheHttpParserAdmitsAreKeptNotRefused) {
  // Only escapes are judged (docs/decisions.md): raw '|', braces and UTF-8 pass through.
  auto q = QueryParams::Parse("parent=a|b&x={y}&z=caf\xC3\xA9&parent=second").value();
  EXPECT_EQ(q.Get("parent").value(), "a|b");  // the first of a repeated name wins
  EXPECT_EQ(q.Get("x").value(), "{y}");
  EXPECT_EQ(q.Get("z").value(), "caf\xC3\xA9");
}

}  // namespace
}  // namespace firn::rest
