// The remote signer's pure parts: where a client's S3 request goes, what it touches, what
// access it needs, and that the signature covers what the store will check (the same SigV4 as
// the server's own requests, proved against AWS's vectors in s3_sigv4_test and against
// SeaweedFS by the engine tests).
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <utility>
#include <vector>

#include "io/s3/request_signer.h"

namespace firn::io::s3 {
namespace {

TEST(RequestSignerTest, PathStyleAndVirtualHostedTargets) {
  auto path = ParseSignTarget("http://127.0.0.1:9000/wh/db/t/data/a%20b.parquet?x-id=GetObject",
                              "127.0.0.1");
  ASSERT_TRUE(path) << path.error().message;
  EXPECT_EQ(path->bucket, "wh");
  EXPECT_EQ(path->key, "db/t/data/a b.parquet");
  EXPECT_EQ(path->path, "/wh/db/t/data/a%20b.parquet");
  EXPECT_EQ(path->host, "127.0.0.1:9000");
  ASSERT_EQ(path->query.size(), 1u);
  EXPECT_EQ(path->query[0].name, "x-id");

  auto vhost = ParseSignTarget("https://wh.s3.example.com/db/t/m.json", "s3.example.com");
  ASSERT_TRUE(vhost);
  EXPECT_EQ(vhost->bucket, "wh");
  EXPECT_EQ(vhost->key, "db/t/m.json");

  auto list = ParseSignTarget("http://h:1/wh?list-type=2&prefix=db%2Ft%2F", "h");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->bucket, "wh");
  EXPECT_EQ(list->key, "");
}

TEST(RequestSignerTest, HostileTargetsAreRefused) {
  for (const char* uri : {"ftp://h/b/k", "http:///b/k", "http://user@h/b/k", "http://h/",
                          "http://h/b/%zz", "h/b/k"}) {
    auto t = ParseSignTarget(uri, "h");
    ASSERT_FALSE(t) << uri;
    EXPECT_EQ(t.error().kind, ErrorKind::kIllegalArgument) << uri;
  }
}

TEST(RequestSignerTest, ReadsAreGetAndHeadAndEverythingElseWrites) {
  EXPECT_EQ(*AccessOf("GET"), S3Access::kRead);
  EXPECT_EQ(*AccessOf("HEAD"), S3Access::kRead);
  EXPECT_EQ(*AccessOf("PUT"), S3Access::kWrite);
  EXPECT_EQ(*AccessOf("POST"), S3Access::kWrite);
  EXPECT_EQ(*AccessOf("DELETE"), S3Access::kWrite);
  EXPECT_FALSE(AccessOf("PATCH"));
  EXPECT_FALSE(AccessOf("OPTIONS"));
}

TEST(RequestSignerTest, DeleteObjectsTouchesEveryKeyInItsBody) {
  ClientS3Request r{"POST", "http://h/wh?delete", {}, R"(<Delete>
    <Object><Key>db/t/data/1</Key></Object><Object><Key>db/victim/metadata/v1.json</Key></Object>
  </Delete>)"};
  auto target = ParseSignTarget(r.uri, "h");
  ASSERT_TRUE(target);
  auto keys = TouchedKeys(r, *target);
  ASSERT_TRUE(keys);
  EXPECT_EQ(*keys, (std::vector<std::string>{"db/t/data/1", "db/victim/metadata/v1.json"}));
  r.body = "<NotDelete/>";
  EXPECT_FALSE(TouchedKeys(r, *target));
  r.body = "<Delete></Delete>";
  EXPECT_FALSE(TouchedKeys(r, *target));
}

TEST(RequestSignerTest, ListingsTouchTheirPrefixAndABareBucketTouchesEverything) {
  ClientS3Request r{"GET", "http://h/wh?list-type=2&prefix=db/t/", {}, ""};
  auto keys = TouchedKeys(r, *ParseSignTarget(r.uri, "h"));
  ASSERT_TRUE(keys);
  EXPECT_EQ(*keys, std::vector<std::string>{"db/t/"});
  r.uri = "http://h/wh?list-type=2";
  keys = TouchedKeys(r, *ParseSignTarget(r.uri, "h"));
  ASSERT_TRUE(keys);
  EXPECT_EQ(*keys, std::vector<std::string>{""});
}

TEST(RequestSignerTest, SignedHeadersCarryTheServerSignatureAndDropUnsignableOnes) {
  ClientS3Request r{"PUT",
                    "http://127.0.0.1:9000/wh/db/t/data/f",
                    {{"User-Agent", "aws-sdk"},
                     {"Authorization", "client's own"},
                     {"Content-Type", "application/octet-stream"},
                     {"x-amz-content-sha256", "UNSIGNED-PAYLOAD"}},
                    ""};
  auto target = ParseSignTarget(r.uri, "127.0.0.1");
  ASSERT_TRUE(target);
  Credentials creds{"AKIDSERVER", Secret("server-secret"), Secret()};
  auto headers = SignClientRequest(r, *target, creds, "us-east-1",
                                   std::chrono::system_clock::from_time_t(1796137200));
  std::map<std::string, std::string> h;
  for (const auto& x : headers) h[x.name] = x.value;
  EXPECT_EQ(h.count("user-agent"), 0u);
  EXPECT_EQ(h["host"], "127.0.0.1:9000");
  EXPECT_EQ(h["x-amz-date"], "20261201T150000Z");
  EXPECT_EQ(h["x-amz-content-sha256"], "UNSIGNED-PAYLOAD");
  EXPECT_EQ(h["content-type"], "application/octet-stream");
  ASSERT_TRUE(h["authorization"].starts_with(
      "AWS4-HMAC-SHA256 Credential=AKIDSERVER/20261201/us-east-1/s3/aws4_request, "
      "SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature="))
      << h["authorization"];
  EXPECT_EQ(h["authorization"].find("server-secret"), std::string::npos);
}

// A bucket-level request that is not a listing acts on the whole bucket: never signed, whatever
// prefix it carries (PUT ?policy would replace the bucket's policy with the server's keys).
TEST(RequestSignerTest, BucketLevelRequestsOtherThanListingsAreRefused) {
  for (auto [method, uri] : std::vector<std::pair<std::string, std::string>>{
           {"PUT", "http://h/wh?policy&prefix=db/t/"},
           {"DELETE", "http://h/wh?prefix=db/t/"},
           {"PUT", "http://h/wh?prefix=db/t/"},
           {"GET", "http://h/wh?acl&prefix=db/t/"},
           {"GET", "http://h/wh?policy&list-type=2&prefix=db/t/"},
           {"POST", "http://h/wh?uploads&prefix=db/t/"}}) {
    ClientS3Request r{method, uri, {}, ""};
    auto target = ParseSignTarget(r.uri, "h");
    ASSERT_TRUE(target) << uri;
    EXPECT_FALSE(TouchedKeys(r, *target)) << method << " " << uri;
  }
}

}  // namespace
}  // namespace firn::io::s3
