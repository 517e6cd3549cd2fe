#include "io/s3/s3_errors.h"

#include <gtest/gtest.h>

#include <string>

namespace firn::io::s3 {
namespace {

S3Outcome Http(long status, std::string body = "") {
  S3Outcome o;
  o.status = status;
  o.body = std::move(body);
  return o;
}

S3Outcome Transport(TransportError t) {
  S3Outcome o;
  o.transport = t;
  o.transport_detail = "Couldn't connect to server";
  return o;
}

std::string ErrorXml(const std::string& code) {
  return "<Error><Code>" + code + "</Code><Message>m</Message></Error>";
}

constexpr std::string_view kUri = "s3://b/ns/t/metadata/1.json";
constexpr std::string_view kWhere = "GET http://h/b/ns/t/metadata/1.json";

TEST(S3ErrorsTest, ReadOf404IsNotFoundWithTheJavaClientWording) {
  Error e = MapS3Failure(S3Op::kRead, kUri, Http(404, ErrorXml("NoSuchKey")), kWhere);
  EXPECT_EQ(e.kind, ErrorKind::kNotFound);
  EXPECT_EQ(e.message, "Failed to open input stream for file: s3://b/ns/t/metadata/1.json");
  EXPECT_NE(e.detail.find("NoSuchKey"), std::string::npos);
}

TEST(S3ErrorsTest, WriteNewOf412IsAlreadyExists) {
  Error e = MapS3Failure(S3Op::kWriteNew, kUri, Http(412, ErrorXml("PreconditionFailed")), kWhere);
  EXPECT_EQ(e.kind, ErrorKind::kAlreadyExists);
}

TEST(S3ErrorsTest, MissingBucketIsNotFound) {
  Error e = MapS3Failure(S3Op::kList, "s3://nob/", Http(404, ErrorXml("NoSuchBucket")), kWhere);
  EXPECT_EQ(e.kind, ErrorKind::kNotFound);
  EXPECT_EQ(e.message, "Bucket does not exist: s3://nob/");
}

TEST(S3ErrorsTest, UnreachableStoreIsServiceUnavailable) {
  for (TransportError t : {TransportError::kConnect, TransportError::kTimeout, TransportError::kIo}) {
    Error e = MapS3Failure(S3Op::kRead, kUri, Transport(t), kWhere);
    EXPECT_EQ(e.kind, ErrorKind::kServiceUnavailable);
    EXPECT_EQ(e.message, "Storage is unavailable");
    EXPECT_NE(e.detail.find("Couldn't connect"), std::string::npos);
  }
}

TEST(S3ErrorsTest, ServerErrorsAndThrottlingAreServiceUnavailable) {
  EXPECT_EQ(MapS3Failure(S3Op::kRead, kUri, Http(503, ErrorXml("SlowDown")), kWhere).kind,
            ErrorKind::kServiceUnavailable);
  EXPECT_EQ(MapS3Failure(S3Op::kRead, kUri, Http(500), kWhere).kind,
            ErrorKind::kServiceUnavailable);
  EXPECT_EQ(MapS3Failure(S3Op::kList, kUri, Http(429), kWhere).kind,
            ErrorKind::kServiceUnavailable);
}

TEST(S3ErrorsTest, AccessDeniedIsInternalNotTheCallersForbidden) {
  Error e = MapS3Failure(S3Op::kRead, kUri, Http(403, ErrorXml("SignatureDoesNotMatch")), kWhere);
  EXPECT_EQ(e.kind, ErrorKind::kInternal);
  EXPECT_EQ(e.message, "Object storage refused access to: s3://b/ns/t/metadata/1.json");
  EXPECT_NE(e.detail.find("SignatureDoesNotMatch"), std::string::npos);
}

TEST(S3ErrorsTest, TlsAndOtherTransportFailuresAreInternal) {
  Error e = MapS3Failure(S3Op::kWriteNew, kUri, Transport(TransportError::kOther), kWhere);
  EXPECT_EQ(e.kind, ErrorKind::kInternal);
  EXPECT_EQ(e.message, "Failed to write object: s3://b/ns/t/metadata/1.json");
}

TEST(S3ErrorsTest, RetriesTransientFailuresOnly) {
  EXPECT_TRUE(IsRetryable(Transport(TransportError::kConnect)));
  EXPECT_TRUE(IsRetryable(Transport(TransportError::kTimeout)));
  EXPECT_TRUE(IsRetryable(Transport(TransportError::kIo)));
  EXPECT_FALSE(IsRetryable(Transport(TransportError::kOther)));
  EXPECT_TRUE(IsRetryable(Http(500)));
  EXPECT_TRUE(IsRetryable(Http(503, ErrorXml("SlowDown"))));
  EXPECT_TRUE(IsRetryable(Http(429)));
  EXPECT_TRUE(IsRetryable(Http(400, ErrorXml("RequestTimeout"))));
  EXPECT_TRUE(IsRetryable(Http(409, ErrorXml("ConditionalRequestConflict"))));
  EXPECT_FALSE(IsRetryable(Http(409, ErrorXml("BucketAlreadyExists"))));
  EXPECT_FALSE(IsRetryable(Http(400, ErrorXml("InvalidArgument"))));
  EXPECT_FALSE(IsRetryable(Http(403, ErrorXml("AccessDenied"))));
  EXPECT_FALSE(IsRetryable(Http(404, ErrorXml("NoSuchKey"))));
  EXPECT_FALSE(IsRetryable(Http(412)));
}

}  // namespace
}  // namespace firn::io::s3
