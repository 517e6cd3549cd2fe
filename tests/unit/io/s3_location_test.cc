#include "io/s3/s3_location.h"

#include <gtest/gtest.h>

namespace firn::io::s3 {
namespace {

TEST(S3LocationTest, ParsesBucketAndKeyKeepingSchemeAndBytes) {
  auto loc = ParseS3Uri("s3a://my-bucket/warehouse/ns/t/metadata/00001-a b%20.json");
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc->scheme, "s3a");
  EXPECT_EQ(loc->bucket, "my-bucket");
  EXPECT_EQ(loc->key, "warehouse/ns/t/metadata/00001-a b%20.json");  // no percent-decoding
  EXPECT_EQ(S3UriOf(*loc, "x/y"), "s3a://my-bucket/x/y");
}

TEST(S3LocationTest, QueryLikeCharactersBelongToTheKey) {
  auto loc = ParseS3Uri("s3://b/k?x=1#y");
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc->key, "k?x=1#y");
}

TEST(S3LocationTest, BucketOnlyHasEmptyKey) {
  EXPECT_EQ(ParseS3Uri("s3://b")->key, "");
  EXPECT_EQ(ParseS3Uri("s3://b/")->key, "");
}

TEST(S3LocationTest, RecognisesS3SchemesCaseInsensitively) {
  EXPECT_TRUE(IsS3Uri("s3://b/k"));
  EXPECT_TRUE(IsS3Uri("S3A://b/k"));
  EXPECT_TRUE(IsS3Uri("s3n://b/k"));
  EXPECT_FALSE(IsS3Uri("file:///tmp/x"));
  EXPECT_FALSE(IsS3Uri("gs://b/k"));
  EXPECT_FALSE(IsS3Uri("s3:/b/k"));
}

TEST(S3LocationTest, RejectsMalformedUris) {
  for (const char* uri : {"s3:///key", "s3://a b/k", "s3://b?x/k", "gs://b/k", "s3:b/k", ""}) {
    auto loc = ParseS3Uri(uri);
    ASSERT_FALSE(loc) << uri;
    EXPECT_EQ(loc.error().kind, ErrorKind::kIllegalArgument) << uri;
  }
}

TEST(S3LocationTest, ParsesEndpointsWithAndWithoutPort) {
  auto e = ParseEndpoint("http://127.0.0.1:8333", "us-east-1");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->scheme, "http");
  EXPECT_EQ(e->host, "127.0.0.1");
  EXPECT_EQ(e->port, 8333);
  EXPECT_EQ(e->HostHeader(), "127.0.0.1:8333");

  auto https = ParseEndpoint("HTTPS://s3.example.com/", "eu-west-1");
  ASSERT_TRUE(https);
  EXPECT_EQ(https->scheme, "https");
  EXPECT_EQ(https->HostHeader(), "s3.example.com");

  auto v6 = ParseEndpoint("http://[::1]:9000", "us-east-1");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host, "[::1]");
  EXPECT_EQ(v6->HostHeader(), "[::1]:9000");
}

TEST(S3LocationTest, EmptyEndpointMeansRegionalAws) {
  auto e = ParseEndpoint("", "eu-central-1");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->scheme, "https");
  EXPECT_EQ(e->HostHeader(), "s3.eu-central-1.amazonaws.com");
}

TEST(S3LocationTest, RejectsBadEndpoints) {
  for (const char* ep : {"127.0.0.1:8333", "ftp://h", "http://", "http://h:0", "http://h:x",
                         "http://h:70000", "http://h/path", "http://u@h", "http://h:"}) {
    auto e = ParseEndpoint(ep, "us-east-1");
    ASSERT_FALSE(e) << ep;
    EXPECT_EQ(e.error().kind, ErrorKind::kIllegalArgument) << ep;
  }
}

TEST(S3LocationTest, PathStyleTargetPutsBucketInPath) {
  Endpoint e{"http", "127.0.0.1", 8333};
  RequestTarget t = MakeTarget(e, true, "warehouse", "ns/t/a b+c$.json");
  EXPECT_EQ(t.host, "127.0.0.1:8333");
  EXPECT_EQ(t.canonical_uri, "/warehouse/ns/t/a%20b%2Bc%24.json");
  EXPECT_EQ(t.url, "http://127.0.0.1:8333/warehouse/ns/t/a%20b%2Bc%24.json");
}

TEST(S3LocationTest, VirtualHostedTargetPutsBucketInHost) {
  Endpoint e{"https", "s3.us-east-1.amazonaws.com", 0};
  RequestTarget t = MakeTarget(e, false, "warehouse", "ns/t/x.json");
  EXPECT_EQ(t.host, "warehouse.s3.us-east-1.amazonaws.com");
  EXPECT_EQ(t.canonical_uri, "/ns/t/x.json");
  EXPECT_EQ(t.url, "https://warehouse.s3.us-east-1.amazonaws.com/ns/t/x.json");
}

TEST(S3LocationTest, KeysAreNotNormalised) {
  Endpoint e{"http", "h", 0};
  RequestTarget t = MakeTarget(e, true, "b", "a/../b//c/./d");
  EXPECT_EQ(t.canonical_uri, "/b/a/../b//c/./d");
}

TEST(S3LocationTest, BucketTargetWithQueryEncodesLikeTheSigner) {
  Endpoint e{"http", "h", 9000};
  RequestTarget path = MakeTarget(e, true, "b", "",
                                  {{"prefix", "ns/t a"}, {"list-type", "2"},
                                   {"continuation-token", "x+y/z="}});
  EXPECT_EQ(path.canonical_uri, "/b");
  EXPECT_EQ(path.url,
            "http://h:9000/b?continuation-token=x%2By%2Fz%3D&list-type=2&prefix=ns%2Ft%20a");
  RequestTarget hosted = MakeTarget(e, false, "b", "", {{"list-type", "2"}});
  EXPECT_EQ(hosted.url, "http://b.h:9000/?list-type=2");
  EXPECT_EQ(hosted.canonical_uri, "/");
}

}  // namespace
}  // namespace firn::io::s3
