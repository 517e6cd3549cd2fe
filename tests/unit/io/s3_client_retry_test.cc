// S3Client against a scripted loopback HTTP server: retries on 503, no retry on 404/403, the
// conditional PUT's read-back after a retried 412, and the headers every request carries.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "io/s3/s3_client.h"
#include "io/s3/sigv4.h"
#include "support/scripted_server.h"

namespace firn::io::s3 {
namespace {

using testing::Response;
using testing::ScriptedServer;

std::unique_ptr<S3Client> ClientFor(const ScriptedServer& server, bool with_token = false) {
  S3Config c = testing::LoopbackS3Config(server);
  if (with_token) c.session_token = Secret("the-session-token");
  auto client = S3Client::Create(c);
  EXPECT_TRUE(client);
  return std::move(*client);
}

TEST(S3ClientRetryTest, RetriesServerErrorsThenSucceeds) {
  ScriptedServer server({Response(503, "Slow Down", "<Error><Code>SlowDown</Code></Error>"),
                         Response(500, "Internal"), Response(200, "OK", "hello")});
  auto client = ClientFor(server);
  auto got = client->GetObject("b", "k", "s3://b/k");
  ASSERT_TRUE(got) << got.error().detail;
  EXPECT_EQ(*got, "hello");
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(S3ClientRetryTest, GivesUpAfterMaxAttemptsAsServiceUnavailable) {
  ScriptedServer server({Response(503, "Service Unavailable")});
  auto client = ClientFor(server);
  auto got = client->GetObject("b", "k", "s3://b/k");
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().kind, ErrorKind::kServiceUnavailable);
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(S3ClientRetryTest, DoesNotRetryNotFoundOrForbidden) {
  ScriptedServer server({Response(404, "Not Found", "<Error><Code>NoSuchKey</Code></Error>")});
  auto client = ClientFor(server);
  auto got = client->GetObject("b", "k", "s3://b/k");
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(server.requests().size(), 1u);

  ScriptedServer denied({Response(403, "Forbidden", "<Error><Code>AccessDenied</Code></Error>")});
  auto client2 = ClientFor(denied);
  EXPECT_FALSE(client2->HeadObject("b", "k", "s3://b/k"));
  EXPECT_EQ(denied.requests().size(), 1u);
}

TEST(S3ClientRetryTest, RetriedPutThatMeets412SucceedsWhenTheObjectIsOurs) {
  // Attempt 1 is "lost" (503), attempt 2 sees the object: 412; the read-back matches.
  ScriptedServer server({Response(503, "Service Unavailable"), Response(412, "Precondition Failed"),
                         Response(200, "OK", "payload")});
  auto client = ClientFor(server);
  EXPECT_TRUE(client->PutObjectIfAbsent("b", "k", "payload", "s3://b/k"));
  ASSERT_EQ(server.requests().size(), 3u);
  EXPECT_TRUE(server.requests()[2].starts_with("GET /b/k "));
}

TEST(S3ClientRetryTest, RetriedPutThatMeets412OfSomeoneElsesObjectIsAlreadyExists) {
  ScriptedServer server({Response(503, "Service Unavailable"), Response(412, "Precondition Failed"),
                         Response(200, "OK", "other writer's bytes")});
  auto client = ClientFor(server);
  auto put = client->PutObjectIfAbsent("b", "k", "payload", "s3://b/k");
  ASSERT_FALSE(put);
  EXPECT_EQ(put.error().kind, ErrorKind::kAlreadyExists);
}

TEST(S3ClientRetryTest, FirstTry412IsAlreadyExistsWithoutReadBack) {
  ScriptedServer server({Response(412, "Precondition Failed")});
  auto client = ClientFor(server);
  auto put = client->PutObjectIfAbsent("b", "k", "payload", "s3://b/k");
  ASSERT_FALSE(put);
  EXPECT_EQ(put.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(S3ClientRetryTest, PutCarriesSignedConditionalHeadersAndPayloadHash) {
  ScriptedServer server({Response(200, "OK")});
  auto client = ClientFor(server, /*with_token=*/true);
  ASSERT_TRUE(client->PutObjectIfAbsent("b", "dir/a b.json", "payload", "s3://b/dir/a b.json"));
  ASSERT_EQ(server.requests().size(), 1u);
  const std::string req = server.requests()[0];
  EXPECT_TRUE(req.starts_with("PUT /b/dir/a%20b.json HTTP/1.1\r\n")) << req;
  EXPECT_NE(req.find("if-none-match: *\r\n"), std::string::npos) << req;
  EXPECT_NE(req.find("x-amz-content-sha256: " + Sha256Hex("payload") + "\r\n"),
            std::string::npos);
  EXPECT_NE(req.find("x-amz-security-token: the-session-token\r\n"), std::string::npos);
  EXPECT_NE(req.find("SignedHeaders=host;if-none-match;x-amz-content-sha256;x-amz-date;"
                     "x-amz-security-token, Signature="),
            std::string::npos)
      << req;
  EXPECT_EQ(req.find("the-secret-value"), std::string::npos);
  EXPECT_EQ(req.find("Expect:"), std::string::npos);
  EXPECT_TRUE(req.ends_with("\r\n\r\npayload"));
}

}  // namespace
}  // namespace firn::io::s3
