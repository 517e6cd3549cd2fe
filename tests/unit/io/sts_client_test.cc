// STS AssumeRole and the session policy: the AssumeRole request Firn sends (form body, SigV4 for
// "sts"), its limits, the answers it understands, how refusals map to error kinds — against a
// scripted loopback server — and, when a real S3-compatible store with STS is configured
// (FIRN_TEST_S3_* and FIRN_TEST_S3_ROLE_ARN; FIRN_TEST_S3_SESSION_POLICY=1 when it enforces
// session policies, as SeaweedFS does), that credentials confined to one table's location
// reach that location and are refused everywhere else.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <chrono>
#include <cstdlib>
#include <string>

#include "common/clock.h"
#include "common/uuid.h"
#include "io/s3/aws_http.h"
#include "io/s3/s3_client.h"
#include "io/s3/session_policy.h"
#include "io/s3/sts_client.h"
#include "support/scripted_server.h"

namespace firn::io::s3 {
namespace {

using testing::Response;
using testing::ScriptedServer;

const char* kAssumed = R"(<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <Credentials>
      <AccessKeyId>ASIATEMP</AccessKeyId>
      <SecretAccessKey>temp-secret</SecretAccessKey>
      <SessionToken>temp-token</SessionToken>
      <Expiration>2026-12-01T15:00:00Z</Expiration>
    </Credentials>
    <AssumedRoleUser><AssumedRoleId>x:y</AssumedRoleId><Arn>arn</Arn></AssumedRoleUser>
  </AssumeRoleResult>
  <ResponseMetadata><RequestId>r</RequestId></ResponseMetadata>
</AssumeRoleResponse>)";

AssumeRoleRequest ARequest() {
  AssumeRoleRequest r;
  r.role_arn = "arn:aws:iam::123456789012:role/vend";
  r.session_name = "firn-alice";
  r.policy = R"({"Version":"2012-10-17","Statement":[]})";
  r.duration = std::chrono::seconds(3600);
  return r;
}

std::unique_ptr<AwsHttpClient> ClientFor(const ScriptedServer& server) {
  auto client = AwsHttpClient::Create(testing::LoopbackS3Config(server), "sts");
  EXPECT_TRUE(client);
  return std::move(*client);
}

TEST(StsClientTest, SendsASignedFormPostForStsAndReadsTheCredentials) {
  ScriptedServer server({Response(200, "OK", kAssumed)});
  auto client = ClientFor(server);
  auto got = AssumeRole(*client, ARequest());
  ASSERT_TRUE(got) << got.error().message << " " << got.error().detail;
  EXPECT_EQ(got->access_key_id, "ASIATEMP");
  EXPECT_EQ(got->secret_access_key.Reveal(), "temp-secret");
  EXPECT_EQ(got->session_token.Reveal(), "temp-token");
  EXPECT_EQ(got->expires_at_ms, int64_t{1796137200} * 1000);
  ASSERT_EQ(server.requests().size(), 1u);
  const std::string sent = server.requests()[0];
  EXPECT_TRUE(sent.starts_with("POST / HTTP/1.1\r\n")) << sent;
  EXPECT_NE(sent.find("/us-east-1/sts/aws4_request"), std::string::npos) << sent;
  EXPECT_NE(sent.find("content-type: application/x-www-form-urlencoded"), std::string::npos);
  EXPECT_NE(sent.find("Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A"
                      "123456789012%3Arole%2Fvend&RoleSessionName=firn-alice&"
                      "DurationSeconds=3600&Policy=%7B%22Version%22"),
            std::string::npos)
      << sent;
  EXPECT_EQ(sent.find("the-secret-value"), std::string::npos);
}

TEST(StsClientTest, RetriesThrottlingAndServerErrors) {
  ScriptedServer server(
      {Response(400, "Bad Request",
                "<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code></Error>"
                "</ErrorResponse>"),
       Response(503, "Unavailable"), Response(200, "OK", kAssumed)});
  auto client = ClientFor(server);
  ASSERT_TRUE(AssumeRole(*client, ARequest()));
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(StsClientTest, RefusalsMapToWhatTheCatalogMustDo) {
  struct Case {
    std::string response;
    ErrorKind kind;
  };
  const Case cases[] = {
      {Response(400, "Bad Request",
                "<ErrorResponse><Error><Code>MalformedPolicyDocument</Code><Message>no"
                "</Message></Error></ErrorResponse>"),
       ErrorKind::kUnsupportedOperation},
      {Response(400, "Bad Request",
                "<ErrorResponse><Error><Code>InvalidAction</Code></Error></ErrorResponse>"),
       ErrorKind::kUnsupportedOperation},
      {Response(501, "Not Implemented"), ErrorKind::kUnsupportedOperation},
      {Response(403, "Forbidden",
                "<ErrorResponse><Error><Code>AccessDenied</Code></Error></ErrorResponse>"),
       ErrorKind::kForbidden},
      {Response(503, "Unavailable"), ErrorKind::kServiceUnavailable},
      {Response(200, "OK", "<html>not sts</html>"), ErrorKind::kInternal},
  };
  for (const Case& c : cases) {
    ScriptedServer server({c.response});
    auto got = AssumeRole(*ClientFor(server), ARequest());
    ASSERT_FALSE(got) << c.response;
    EXPECT_EQ(got.error().kind, c.kind) << c.response << " -> " << got.error().detail;
    EXPECT_EQ(got.error().message.find("the-secret-value"), std::string::npos);
  }
}

TEST(StsClientTest, AnUnreachableServiceIsUnavailable) {
  S3Config c;
  c.endpoint = "http://127.0.0.1:1";
  c.access_key_id = "AKIDEXAMPLE";
  c.secret_access_key = Secret("the-secret-value");
  c.max_attempts = 1;
  auto client = AwsHttpClient::Create(c, "sts");
  ASSERT_TRUE(client);
  auto got = AssumeRole(**client, ARequest());
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().kind, ErrorKind::kServiceUnavailable);
}

TEST(StsClientTest, RequestsOutsideStsLimitsAreRefusedBeforeSending) {
  ScriptedServer server({Response(200, "OK", kAssumed)});
  auto client = ClientFor(server);
  AssumeRoleRequest r = ARequest();
  r.session_name = "a";
  EXPECT_EQ(AssumeRole(*client, r).error().kind, ErrorKind::kIllegalArgument);
  r.session_name = "has space";
  EXPECT_EQ(AssumeRole(*client, r).error().kind, ErrorKind::kIllegalArgument);
  r.session_name = std::string(65, 'x');
  EXPECT_EQ(AssumeRole(*client, r).error().kind, ErrorKind::kIllegalArgument);
  r = ARequest();
  r.duration = std::chrono::seconds(899);
  EXPECT_EQ(AssumeRole(*client, r).error().kind, ErrorKind::kIllegalArgument);
  r.duration = std::chrono::seconds(43201);
  EXPECT_EQ(AssumeRole(*client, r).error().kind, ErrorKind::kIllegalArgument);
  r = ARequest();
  r.policy = std::string(kMaxSessionPolicyChars + 1, ' ');
  EXPECT_EQ(AssumeRole(*client, r).error().kind, ErrorKind::kUnsupportedOperation);
  EXPECT_TRUE(server.requests().empty());
}

TEST(StsClientTest, ExpirationTimesParseAsUtc) {
  EXPECT_EQ(ParseIso8601Millis("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseIso8601Millis("1970-01-01T00:00:01.5Z"), 1500);
  EXPECT_EQ(ParseIso8601Millis("2026-12-01T15:00:00+00:00"), int64_t{1796137200} * 1000);
  EXPECT_FALSE(ParseIso8601Millis("2026-12-01 15:00:00Z"));
  EXPECT_FALSE(ParseIso8601Millis("2026-12-01T15:00:00+01:00"));
  EXPECT_FALSE(ParseIso8601Millis("2026-13-01T15:00:00Z"));
  EXPECT_FALSE(ParseIso8601Millis("2026-12-01T15:00:00.Z"));
  EXPECT_FALSE(ParseIso8601Millis(""));
}

// --- the session policy ----------------------------------------------------------------------

TEST(SessionPolicyTest, ReadersGetGetAndListUnderTheirPrefixOnly) {
  auto policy = SessionPolicy({"s3://wh/cat/db/t"}, DataAccess::kRead);
  ASSERT_TRUE(policy) << policy.error().message;
  EXPECT_EQ(*policy,
            R"({"Version":"2012-10-17","Statement":[)"
            R"({"Effect":"Allow","Action":["s3:GetObject","s3:GetObjectVersion"],)"
            R"("Resource":["arn:aws:s3:::wh/cat/db/t/*"]},)"
            R"({"Effect":"Allow","Action":["s3:ListBucket"],"Resource":["arn:aws:s3:::wh"],)"
            R"("Condition":{"StringLike":{"s3:prefix":["cat/db/t","cat/db/t/*"]}}},)"
            R"({"Effect":"Allow","Action":["s3:GetBucketLocation"],)"
            R"("Resource":["arn:aws:s3:::wh"]}]})");
}

TEST(SessionPolicyTest, WritersAlsoPutAndDeleteAndNestedPathsAddNothing) {
  auto policy = SessionPolicy({"s3://wh/db/t/", "s3a://wh/db/t/data", "s3://other/x/meta"},
                              DataAccess::kReadWrite);
  ASSERT_TRUE(policy) << policy.error().message;
  auto doc = boost::json::parse(*policy);
  const auto& statements = doc.at("Statement").as_array();
  ASSERT_EQ(statements.size(), 8u);  // per bucket: get, write, list, location
  std::string text = *policy;
  EXPECT_NE(text.find(R"("s3:PutObject","s3:DeleteObject")"), std::string::npos);
  EXPECT_NE(text.find("arn:aws:s3:::other/x/meta/*"), std::string::npos);
  EXPECT_NE(text.find("arn:aws:s3:::wh/db/t/*"), std::string::npos);
  EXPECT_EQ(text.find("db/t/data"), std::string::npos) << "inside db/t: adds nothing";
  EXPECT_EQ(SessionPolicy({"s3://wh/db/t"}, DataAccess::kRead)->find("PutObject"),
            std::string::npos);
}

TEST(SessionPolicyTest, WildcardsWholeBucketsAndOtherSchemesAreRefused) {
  EXPECT_EQ(SessionPolicy({"s3://wh/db/t*"}, DataAccess::kRead).error().kind,
            ErrorKind::kUnsupportedOperation);
  EXPECT_EQ(SessionPolicy({"s3://wh/db/?"}, DataAccess::kRead).error().kind,
            ErrorKind::kUnsupportedOperation);
  EXPECT_EQ(SessionPolicy({"s3://wh/"}, DataAccess::kRead).error().kind,
            ErrorKind::kIllegalArgument);
  EXPECT_FALSE(SessionPolicy({"file:///tmp/x"}, DataAccess::kRead));
  EXPECT_FALSE(SessionPolicy({}, DataAccess::kRead));
}

// --- a real store with STS -------------------------------------------------------------------

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

TEST(StsServerTest, CredentialsConfinedToOneTableAreRefusedOnAnother) {
  S3Config admin;
  admin.endpoint = Env("FIRN_TEST_S3_ENDPOINT");
  admin.access_key_id = Env("FIRN_TEST_S3_ACCESS_KEY");
  admin.secret_access_key = Secret(Env("FIRN_TEST_S3_SECRET_KEY"));
  if (!Env("FIRN_TEST_S3_REGION").empty()) admin.region = Env("FIRN_TEST_S3_REGION");
  admin.path_style_access = true;
  const std::string bucket = Env("FIRN_TEST_S3_BUCKET");
  const std::string role = Env("FIRN_TEST_S3_ROLE_ARN");
  if (admin.endpoint.empty() || bucket.empty() || role.empty()) {
    GTEST_SKIP() << "SKIPPED: no S3 store with STS configured (FIRN_TEST_S3_* and "
                    "FIRN_TEST_S3_ROLE_ARN)";
  }
  if (Env("FIRN_TEST_S3_SESSION_POLICY") != "1") {
    GTEST_SKIP() << "SKIPPED: the configured store does not enforce session policies";
  }
  const std::string run = "sts-test-" + NewUuidV4();
  const std::string a = run + "/db/a";
  const std::string b = run + "/db/b";
  auto admin_client = S3Client::Create(admin);
  ASSERT_TRUE(admin_client);
  ASSERT_TRUE((*admin_client)->PutObjectIfAbsent(bucket, b + "/victim", "keep", "s3://b"));

  auto sts = AwsHttpClient::Create(admin, "sts");
  ASSERT_TRUE(sts);
  auto policy = SessionPolicy({"s3://" + bucket + "/" + a}, DataAccess::kReadWrite);
  ASSERT_TRUE(policy);
  AssumeRoleRequest request;
  request.role_arn = role;
  request.session_name = "firn-sts-test";
  request.policy = *policy;
  request.duration = std::chrono::seconds(900);
  auto creds = AssumeRole(**sts, request);
  ASSERT_TRUE(creds) << creds.error().message << " " << creds.error().detail;
  EXPECT_GT(creds->expires_at_ms, NowMillis());

  S3Config vended = admin;
  vended.access_key_id = creds->access_key_id;
  vended.secret_access_key = creds->secret_access_key;
  vended.session_token = creds->session_token;
  vended.max_attempts = 1;
  auto table_a = S3Client::Create(vended);
  ASSERT_TRUE(table_a);
  EXPECT_TRUE((*table_a)->PutObjectIfAbsent(bucket, a + "/data/f1", "rows", "s3://a/f1"));
  auto read = (*table_a)->GetObject(bucket, a + "/data/f1", "s3://a/f1");
  ASSERT_TRUE(read) << read.error().detail;
  EXPECT_EQ(*read, "rows");
  EXPECT_TRUE((*table_a)->ListObjectsV2(bucket, a + "/", "", "s3://a"));
  // Table B: no read, no write, no delete, no listing.
  auto steal = (*table_a)->GetObject(bucket, b + "/victim", "s3://b/victim");
  ASSERT_FALSE(steal);
  EXPECT_NE(steal.error().detail.find("403"), std::string::npos) << steal.error().detail;
  EXPECT_FALSE((*table_a)->PutObjectIfAbsent(bucket, b + "/planted", "x", "s3://b/planted"));
  EXPECT_FALSE((*table_a)->DeleteObject(bucket, b + "/victim", "s3://b/victim"));
  EXPECT_FALSE((*table_a)->ListObjectsV2(bucket, b + "/", "", "s3://b"));
  auto kept = (*admin_client)->GetObject(bucket, b + "/victim", "s3://b/victim");
  ASSERT_TRUE(kept);
  EXPECT_EQ(*kept, "keep");

  // Read-only credentials for table A cannot write to it.
  request.policy = *SessionPolicy({"s3://" + bucket + "/" + a}, DataAccess::kRead);
  auto reader = AssumeRole(**sts, request);
  ASSERT_TRUE(reader) << reader.error().detail;
  vended.access_key_id = reader->access_key_id;
  vended.secret_access_key = reader->secret_access_key;
  vended.session_token = reader->session_token;
  auto read_only = S3Client::Create(vended);
  ASSERT_TRUE(read_only);
  EXPECT_TRUE((*read_only)->GetObject(bucket, a + "/data/f1", "s3://a/f1"));
  EXPECT_FALSE((*read_only)->PutObjectIfAbsent(bucket, a + "/data/f2", "x", "s3://a/f2"));

  (void)(*admin_client)->DeleteObject(bucket, a + "/data/f1", "s3://a/f1");
  (void)(*admin_client)->DeleteObject(bucket, b + "/victim", "s3://b/victim");
}

}  // namespace
}  // namespace firn::io::s3
