#include "io/s3/s3_xml.h"

#include <gtest/gtest.h>

#include <string>

namespace firn::io::s3 {
namespace {

constexpr const char* kPage = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>warehouse</Name><Prefix>ns/</Prefix><KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys>
  <IsTruncated>true</IsTruncated>
  <Contents><Key>ns/a &amp; b&lt;1&gt;.json</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified>
    <ETag>&quot;abc&quot;</ETag><Size>1234</Size><StorageClass>STANDARD</StorageClass></Contents>
  <!-- a comment -->
  <Contents><Key>ns/&#xE9;t&#233;&#x1F600;</Key><Size>0</Size></Contents>
  <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
</ListBucketResult>)";

TEST(S3XmlTest, ParsesListObjectsV2PageWithEntities) {
  auto page = ParseListObjectsV2(kPage);
  ASSERT_TRUE(page) << page.error().detail;
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, "ns/a & b<1>.json");
  EXPECT_EQ(page->objects[0].size, 1234);
  EXPECT_EQ(page->objects[1].key, "ns/\xC3\xA9t\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(page->objects[1].size, 0);
  EXPECT_TRUE(page->truncated);
  EXPECT_EQ(page->next_continuation_token, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
}

TEST(S3XmlTest, EmptyLastPage) {
  auto page = ParseListObjectsV2(
      "<ListBucketResult><Name>b</Name><KeyCount>0</KeyCount>"
      "<IsTruncated>false</IsTruncated></ListBucketResult>");
  ASSERT_TRUE(page);
  EXPECT_TRUE(page->objects.empty());
  EXPECT_FALSE(page->truncated);
}

TEST(S3XmlTest, KeepsWhitespaceAndCdataInKeys) {
  auto page = ParseListObjectsV2(
      "<ListBucketResult><Contents><Key> a  b </Key><Size>1</Size></Contents>"
      "<Contents><Key><![CDATA[x<y>&z]]></Key><Size>2</Size></Contents>"
      "<IsTruncated>false</IsTruncated></ListBucketResult>");
  ASSERT_TRUE(page);
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, " a  b ");
  EXPECT_EQ(page->objects[1].key, "x<y>&z");
}

// A delimiter listing rolls sub-"directories" up into <CommonPrefixes> (recover's discovery).
TEST(S3XmlTest, CommonPrefixesAreTheSubDirectories) {
  auto page = ParseListObjectsV2(
      "<ListBucketResult><Prefix>wh/db/</Prefix><Delimiter>/</Delimiter>"
      "<Contents><Key>wh/db/readme</Key><Size>3</Size></Contents>"
      "<CommonPrefixes><Prefix>wh/db/t1/</Prefix></CommonPrefixes>"
      "<CommonPrefixes><Prefix>wh/db/t2/</Prefix></CommonPrefixes>"
      "<IsTruncated>false</IsTruncated></ListBucketResult>");
  ASSERT_TRUE(page);
  ASSERT_EQ(page->objects.size(), 1u);
  EXPECT_EQ(page->common_prefixes, (std::vector<std::string>{"wh/db/t1/", "wh/db/t2/"}));
  EXPECT_FALSE(ParseListObjectsV2("<ListBucketResult><CommonPrefixes></CommonPrefixes>"
                                  "<IsTruncated>false</IsTruncated></ListBucketResult>"));
}

TEST(S3XmlTest, TruncatedWithoutTokenIsRefused) {
  auto page = ParseListObjectsV2(
      "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>");
  ASSERT_FALSE(page);
  EXPECT_EQ(page.error().kind, ErrorKind::kInternal);
}

TEST(S3XmlTest, RejectsMalformedDocuments) {
  for (const char* xml : {
           "",
           "<ListBucketResult>",
           "<ListBucketResult></Other>",
           "<a></a><b></b>",
           "text<a/>",
           "<a>&bogus;</a>",
           "<a>&#0;</a>",
           "<a>&#xD800;</a>",
           "<a>&amp</a>",
           "<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>",
           "<a><![CDATA[never closed</a>",
           "<a attr=\"unterminated></a>",
       }) {
    auto parsed = ParseXml(xml);
    EXPECT_FALSE(parsed) << xml;
  }
  EXPECT_FALSE(ParseListObjectsV2("<Error><Code>x</Code></Error>"));
  EXPECT_FALSE(ParseListObjectsV2(
      "<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>"));
  EXPECT_FALSE(ParseListObjectsV2(
      "<ListBucketResult><Contents><Key>k</Key><Size>-1</Size></Contents></ListBucketResult>"));
}

TEST(S3XmlTest, RefusesDeepNestingWithoutRecursing) {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "<a>";
  auto parsed = ParseXml(deep);
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().detail.find("deep"), std::string::npos);
}

TEST(S3XmlTest, AttributesWithAngleBracketsAndSelfClosingElements) {
  auto parsed = ParseXml("<r x='a>b' y=\"c\"><e/><f z='1' /><g>t</g></r>");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->name, "r");
  ASSERT_EQ(parsed->children.size(), 3u);
  EXPECT_EQ(parsed->ChildText("g"), "t");
  EXPECT_NE(parsed->Child("f"), nullptr);
  EXPECT_EQ(parsed->Child("missing"), nullptr);
}

TEST(S3XmlTest, ParsesS3ErrorBody) {
  S3ErrorBody e = ParseS3Error(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code>"
      "<Message>The specified key does not exist.</Message><Key>a/b</Key>"
      "<RequestId>4442587FB7D0A2F9</RequestId></Error>");
  EXPECT_EQ(e.code, "NoSuchKey");
  EXPECT_EQ(e.message, "The specified key does not exist.");
  EXPECT_EQ(ParseS3Error("").code, "");
  EXPECT_EQ(ParseS3Error("<html>502 Bad Gateway</html>").code, "");
}

}  // namespace
}  // namespace firn::io::s3
