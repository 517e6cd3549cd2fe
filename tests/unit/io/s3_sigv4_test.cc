// SigV4 against AWS's published vectors: the aws-sig-v4-test-suite (credentials AKIDEXAMPLE,
// 2015-08-30T12:36:00Z, us-east-1, service "service") and the S3 SigV4 documentation examples
// (AKIAIOSFODNN7EXAMPLE, 2013-05-24, us-east-1, s3). Inputs and expected values are typed in
// from those publications.
#include "io/s3/sigv4.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "common/encoding.h"

namespace firn::io::s3 {
namespace {

constexpr std::string_view kSuiteDate = "20150830T123600Z";
constexpr std::string_view kS3Date = "20130524T000000Z";
constexpr std::string_view kS3Host = "examplebucket.s3.amazonaws.com";

Credentials SuiteCredentials() {
  return {"AKIDEXAMPLE", Secret("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), Secret()};
}
Credentials S3DocCredentials() {
  return {"AKIAIOSFODNN7EXAMPLE", Secret("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"), Secret()};
}
SigningScope SuiteScope() { return {"us-east-1", "service"}; }
SigningScope S3Scope() { return {"us-east-1", "s3"}; }

// A suite request: host and x-amz-date plus `extra` headers.
SigningRequest SuiteRequest(std::string method, std::string uri, std::vector<QueryParam> query,
                            std::vector<HttpHeader> extra = {}, std::string_view body = "") {
  SigningRequest r;
  r.method = std::move(method);
  r.canonical_uri = std::move(uri);
  r.query = std::move(query);
  r.headers = {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", std::string(kSuiteDate)}};
  for (auto& h : extra) r.headers.push_back(std::move(h));
  r.payload_hash = Sha256Hex(body);
  return r;
}

std::string SuiteSignature(const SigningRequest& r) {
  return SignRequest(r, SuiteCredentials(), SuiteScope(), kSuiteDate).signature;
}

TEST(SigV4Test, Sha256OfEmptyStringIsTheWellKnownConstant) {
  EXPECT_EQ(Sha256Hex(""), kEmptyPayloadSha256);
}

TEST(SigV4Test, SigningKeyMatchesTheDocumentedDerivationExample) {
  // AWS General Reference, "Examples of how to derive a signing key for Signature Version 4".
  std::string key = SigningKey(Secret("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
                               "20120215T000000Z", {"us-east-1", "iam"});
  EXPECT_EQ(HexEncode(key), "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d");
}

TEST(SigV4Test, GetVanillaMatchesCanonicalRequestStringToSignAndSignature) {
  SignedRequest s =
      SignRequest(SuiteRequest("GET", "/", {}), SuiteCredentials(), SuiteScope(), kSuiteDate);
  EXPECT_EQ(s.canonical_request,
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
            "host;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(s.string_to_sign,
            "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
            "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63");
  EXPECT_EQ(s.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(SigV4Test, GetVanillaQueryOrderKeySortsRepeatedNamesByValue) {
  // get-vanilla-query-order-key: "?Param1=value2&Param1=Value1".
  SigningRequest r = SuiteRequest("GET", "/", {{"Param1", "value2"}, {"Param1", "Value1"}});
  EXPECT_EQ(CanonicalQueryString(r.query), "Param1=Value1&Param1=value2");
  EXPECT_EQ(SuiteSignature(r), "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1");
}

TEST(SigV4Test, GetVanillaQueryOrderKeyCaseSortsByName) {
  // get-vanilla-query-order-key-case: "?Param2=value2&Param1=value1".
  SigningRequest r = SuiteRequest("GET", "/", {{"Param2", "value2"}, {"Param1", "value1"}});
  EXPECT_EQ(SuiteSignature(r), "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
}

TEST(SigV4Test, GetVanillaQueryWithOneParameter) {
  SigningRequest r = SuiteRequest("GET", "/", {{"Param1", "value1"}});
  EXPECT_EQ(SuiteSignature(r), "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb");
}

TEST(SigV4Test, GetVanillaQueryUnreservedCharactersAreNotEncoded) {
  const std::string unreserved =
      "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  SigningRequest r = SuiteRequest("GET", "/", {{unreserved, unreserved}});
  EXPECT_EQ(SuiteSignature(r), "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197");
}

TEST(SigV4Test, GetVanillaUtf8QueryEncodesEachByte) {
  SigningRequest r = SuiteRequest("GET", "/", {{"\xE1\x88\xB4", "bar"}});
  EXPECT_EQ(CanonicalQueryString(r.query), "%E1%88%B4=bar");
  EXPECT_EQ(SuiteSignature(r), "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04");
}

TEST(SigV4Test, GetHeaderValueTrimCollapsesWhitespaceEvenInsideQuotes) {
  // get-header-value-trim: "My-Header1: value1" and "My-Header2: \"a   b   c\"".
  SigningRequest r =
      SuiteRequest("GET", "/", {}, {{"My-Header1", " value1"}, {"My-Header2", " \"a   b   c\""}});
  SignedRequest s = SignRequest(r, SuiteCredentials(), SuiteScope(), kSuiteDate);
  EXPECT_EQ(s.canonical_request,
            "GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\nmy-header2:\"a b c\"\n"
            "x-amz-date:20150830T123600Z\n\nhost;my-header1;my-header2;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(s.signature, "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736");
}

TEST(SigV4Test, GetHeaderKeyDuplicateJoinsValuesInOrder) {
  SigningRequest r = SuiteRequest(
      "GET", "/", {},
      {{"My-Header1", "value2"}, {"My-Header1", "value2"}, {"My-Header1", "value1"}});
  EXPECT_EQ(CanonicalizeHeaders(r.headers).canonical,
            "host:example.amazonaws.com\nmy-header1:value2,value2,value1\n"
            "x-amz-date:20150830T123600Z\n");
  EXPECT_EQ(SuiteSignature(r), "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea");
}

TEST(SigV4Test, PostVanilla) {
  SigningRequest r = SuiteRequest("POST", "/", {});
  EXPECT_EQ(SuiteSignature(r), "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
}

TEST(SigV4Test, PostXWwwFormUrlencodedSignsTheBodyHash) {
  SigningRequest r = SuiteRequest("POST", "/", {},
                                  {{"Content-Type", "application/x-www-form-urlencoded"}},
                                  "Param1=value1");
  EXPECT_EQ(r.payload_hash, "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e");
  SignedRequest s = SignRequest(r, SuiteCredentials(), SuiteScope(), kSuiteDate);
  EXPECT_EQ(s.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date, "
            "Signature=ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a");
}

TEST(SigV4Test, UriEncodeFollowsAwsRules) {
  EXPECT_EQ(UriEncode("a b+c/d~e_f-g.h", false), "a%20b%2Bc/d~e_f-g.h");
  EXPECT_EQ(UriEncode("a b+c/d", true), "a%20b%2Bc%2Fd");
  EXPECT_EQ(UriEncode("$=&?*%", false), "%24%3D%26%3F%2A%25");
  EXPECT_EQ(UriEncode("\xE1\x88\xB4", false), "%E1%88%B4");
  // S3 does not normalise: dot segments and doubled slashes are kept as they are.
  EXPECT_EQ(UriEncode("/a/../b//c", false), "/a/../b//c");
}

TEST(SigV4Test, FormatAmzDateIsUtcBasicFormat) {
  // 2015-08-30T12:36:00Z is 1440938160 seconds after the epoch.
  auto t = std::chrono::system_clock::time_point(std::chrono::seconds(1440938160));
  EXPECT_EQ(FormatAmzDate(t), "20150830T123600Z");
}

// --- S3 documentation, "Signature calculations for the Authorization header" ---

SigningRequest S3DocRequest(std::string method, std::string uri, std::vector<QueryParam> query,
                            std::vector<HttpHeader> extra, std::string payload_hash) {
  SigningRequest r;
  r.method = std::move(method);
  r.canonical_uri = std::move(uri);
  r.query = std::move(query);
  r.headers = {{"Host", std::string(kS3Host)},
               {"x-amz-date", std::string(kS3Date)},
               {"x-amz-content-sha256", payload_hash}};
  for (auto& h : extra) r.headers.push_back(std::move(h));
  r.payload_hash = std::move(payload_hash);
  return r;
}

TEST(SigV4Test, S3DocGetObjectExample) {
  SigningRequest r = S3DocRequest("GET", "/test.txt", {}, {{"Range", "bytes=0-9"}},
                                  std::string(kEmptyPayloadSha256));
  SignedRequest s = SignRequest(r, S3DocCredentials(), S3Scope(), kS3Date);
  EXPECT_EQ(s.canonical_request,
            "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
            "x-amz-content-sha256:"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
            "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(s.string_to_sign,
            "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  EXPECT_EQ(s.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
            "aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4Test, S3DocPutObjectExampleEncodesDollarInKeyOnce) {
  std::string body_hash = Sha256Hex("Welcome to Amazon S3.");
  EXPECT_EQ(body_hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  SigningRequest r = S3DocRequest("PUT", "/" + UriEncode("test$file.text", false), {},
                                  {{"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                                   {"x-amz-storage-class", "REDUCED_REDUNDANCY"}},
                                  body_hash);
  EXPECT_EQ(r.canonical_uri, "/test%24file.text");
  SignedRequest s = SignRequest(r, S3DocCredentials(), S3Scope(), kS3Date);
  EXPECT_EQ(s.signature, "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

TEST(SigV4Test, S3DocGetBucketLifecycleExampleSignsEmptyQueryValue) {
  SigningRequest r =
      S3DocRequest("GET", "/", {{"lifecycle", ""}}, {}, std::string(kEmptyPayloadSha256));
  EXPECT_EQ(CanonicalQueryString(r.query), "lifecycle=");
  EXPECT_EQ(SignRequest(r, S3DocCredentials(), S3Scope(), kS3Date).signature,
            "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

TEST(SigV4Test, S3DocListObjectsExample) {
  SigningRequest r = S3DocRequest("GET", "/", {{"prefix", "J"}, {"max-keys", "2"}}, {},
                                  std::string(kEmptyPayloadSha256));
  EXPECT_EQ(SignRequest(r, S3DocCredentials(), S3Scope(), kS3Date).signature,
            "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

TEST(SigV4Test, S3DocPresignedUrlExample) {
  // "Authenticating Requests: Using Query Parameters", GET examplebucket/test.txt for 86400 s.
  SigningRequest r;
  r.method = "GET";
  r.canonical_uri = "/test.txt";
  r.headers = {{"Host", std::string(kS3Host)}};
  std::string query = PresignUrlQuery(r, S3DocCredentials(), S3Scope(), kS3Date, 86400);
  EXPECT_EQ(query,
            "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2F"
            "us-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&"
            "X-Amz-SignedHeaders=host&X-Amz-Signature="
            "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");
}

TEST(SigV4Test, PresignWithSessionTokenSignsTheToken) {
  SigningRequest r;
  r.method = "GET";
  r.canonical_uri = "/test.txt";
  r.headers = {{"Host", std::string(kS3Host)}};
  Credentials with_token = S3DocCredentials();
  with_token.session_token = Secret("tok/en+1");
  std::string plain = PresignUrlQuery(r, S3DocCredentials(), S3Scope(), kS3Date, 60);
  std::string tokened = PresignUrlQuery(r, with_token, S3Scope(), kS3Date, 60);
  EXPECT_NE(tokened.find("X-Amz-Security-Token=tok%2Fen%2B1&"), std::string::npos);
  EXPECT_NE(plain.substr(plain.size() - 64), tokened.substr(tokened.size() - 64));
}

TEST(SigV4Test, AuthorizationNeverContainsTheSecret) {
  SignedRequest s =
      SignRequest(SuiteRequest("GET", "/", {}), SuiteCredentials(), SuiteScope(), kSuiteDate);
  EXPECT_EQ(s.authorization.find("wJalrXUtnFEMI"), std::string::npos);
  EXPECT_EQ(s.string_to_sign.find("wJalrXUtnFEMI"), std::string::npos);
}

}  // namespace
}  // namespace firn::io::s3
