#include "http/content_coding.h"

#include <gtest/gtest.h>

#include <string>

#include "common/gzip.h"

namespace firn::http {
namespace {

constexpr size_t kLimit = size_t{16} << 20;

// A JSON body comfortably over the threshold.
std::string BigJson() {
  std::string body = R"({"snapshots":[)";
  for (int i = 0; i < 200; ++i) {
    body += (i ? "," : "") + std::string(R"({"snapshot-id":)") + std::to_string(1000 + i) + "}";
  }
  return body + "]}";
}

Request WithAcceptEncoding(std::string value, Method method = Method::kGet) {
  Request req;
  req.method = method;
  req.headers.push_back({"Accept-Encoding", std::move(value)});
  return req;
}

TEST(AcceptEncodingTest, GzipListedOrCoveredByStarIsAccepted) {
  for (std::string_view v :
       {"gzip", "GZIP", "gZiP", "x-gzip", "gzip, deflate", "gzip, deflate, br, zstd",
        "br;q=1.0, gzip;q=0.8, *;q=0.1", "*", "identity;q=0.5, gzip", " \tgzip\t ",
        "gzip;q=1", "gzip;Q=0.001", "gzip ; q = 0.5", "gzip;q=1.000", "gzip;q=1.",
        "gzip;level=9", ",,gzip,,", "deflate, gzip;q=0.5"}) {
    EXPECT_TRUE(AcceptsGzip(v)) << v;
  }
}

TEST(AcceptEncodingTest, ZeroWeightEmptyOrOtherCodingsMeanIdentity) {
  for (std::string_view v :
       {"", " ", ",", "identity", "deflate", "br", "zstd, br", "gzip;q=0", "gzip;q=0.000",
        "gzip;q=0.",
        "GZIP;Q=0", "gzip;q=0, *", "*, gzip;q=0", "*;q=0", "*;q=0, identity",
        "gzip, gzip;q=0",  // listed twice: the lowest weight holds
        "gzipx", "xgzip", "gz ip", "gzip q=1", "\"gzip\""}) {
    EXPECT_FALSE(AcceptsGzip(v)) << v;
  }
}

TEST(AcceptEncodingTest, IdentityWinsOnlyWithAHigherStatedWeight) {
  EXPECT_FALSE(AcceptsGzip("gzip;q=0.5, identity;q=1"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0.5, *;q=0.9"));  // * stands for the unlisted identity
  EXPECT_TRUE(AcceptsGzip("gzip;q=0.5, *;q=0.9, identity;q=0.1"));
  EXPECT_TRUE(AcceptsGzip("gzip;q=0.5, identity;q=0.5"));  // a tie: the smaller body
  EXPECT_TRUE(AcceptsGzip("gzip;q=0.5"));
  EXPECT_TRUE(AcceptsGzip("gzip, identity;q=0"));
}

TEST(AcceptEncodingTest, MalformedWeightsAreIgnoredNotGuessed) {
  for (std::string_view v :
       {"gzip;q=", "gzip;q=abc", "gzip;q=1.5", "gzip;q=2", "gzip;q=-1", "gzip;q=0.1234",
        "gzip;q=1.001", "gzip;q=.5", "gzip;q=0.5;q=1", "gzip;q=0x1", "gzip;q=1e0",
        "gzip;q=0.5 0"}) {
    EXPECT_FALSE(AcceptsGzip(v)) << v;
    // The malformed element is dropped; a well-formed one beside it still counts.
    EXPECT_TRUE(AcceptsGzip(std::string(v) + ", x-gzip")) << v;
  }
}

TEST(AcceptEncodingTest, HostileInputIsLinearAndHarmless) {
  // 64 KiB of other codings (the server's header limit), then gzip.
  std::string many;
  while (many.size() < (64u << 10)) many += "br;q=0.9, ";
  EXPECT_FALSE(AcceptsGzip(many));
  EXPECT_TRUE(AcceptsGzip(many + "gzip"));
  // 20,000 gzip elements, one of them q=0: refused however many say yes.
  std::string votes;
  for (int i = 0; i < 20000; ++i) votes += i == 12345 ? "gzip;q=0," : "gzip,";
  EXPECT_FALSE(AcceptsGzip(votes));
  // Bytes of every value, semicolons and equals signs without meaning.
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage.push_back(static_cast<char>((i * 131) & 0xff));
  EXPECT_FALSE(AcceptsGzip(garbage));
  EXPECT_FALSE(AcceptsGzip(std::string(70000, ';')));
  EXPECT_FALSE(AcceptsGzip(std::string(70000, '=')));
  EXPECT_FALSE(AcceptsGzip(std::string("gzip\0;q=1", 9)));
  EXPECT_TRUE(AcceptsGzip("gzip;" + std::string(60000, 'q') + "=0"));  // not a weight: ignored
  EXPECT_TRUE(AcceptsGzip("gzip;" + std::string(60000, ';')));  // empty parameters
}

TEST(AcceptEncodingTest, EveryFieldLineOfTheRequestCounts) {
  Request none;
  EXPECT_FALSE(AcceptsGzip(none));
  Request two = WithAcceptEncoding("br");
  two.headers.push_back({"accept-encoding", "gzip"});
  EXPECT_TRUE(AcceptsGzip(two));
  Request refused = WithAcceptEncoding("gzip");
  refused.headers.push_back({"ACCEPT-ENCODING", "gzip;q=0"});
  EXPECT_FALSE(AcceptsGzip(refused));
}

TEST(ContentCodingTest, ACompressibleResponseIsSentGzipAndInflatesToTheSameBytes) {
  const std::string body = BigJson();
  ASSERT_GE(body.size(), kGzipMinBytes);
  Response r = Response::Json(200, body);
  r.SetHeader("ETag", "\"abc123\"");
  EncodeContent(WithAcceptEncoding("gzip, deflate"), r);
  EXPECT_EQ(r.GetHeader("Content-Encoding"), "gzip");
  EXPECT_EQ(r.GetHeader("Vary"), "Accept-Encoding");
  EXPECT_EQ(r.GetHeader("Content-Type"), "application/json");
  EXPECT_EQ(r.GetHeader("ETag"), "\"abc123-gzip\"");
  EXPECT_LT(r.body.size(), body.size() / 4);
  Result<std::string> back = Gunzip(r.body, kLimit);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, body);
}

TEST(ContentCodingTest, WithoutGzipTheBodyIsUntouchedAndVaryStillSaysItCould) {
  const std::string body = BigJson();
  for (Request req : {Request{}, WithAcceptEncoding("identity"), WithAcceptEncoding("gzip;q=0"),
                      WithAcceptEncoding("br")}) {
    Response r = Response::Json(200, body);
    r.SetHeader("ETag", "\"abc123\"");
    EncodeContent(req, r);
    EXPECT_EQ(r.body, body);
    EXPECT_TRUE(r.GetHeader("Content-Encoding").empty());
    EXPECT_EQ(r.GetHeader("Vary"), "Accept-Encoding");
    EXPECT_EQ(r.GetHeader("ETag"), "\"abc123\"");
  }
}

TEST(ContentCodingTest, OnlyTextualBodiesWithABodyStatusAndEnoughBytesAreCompressed) {
  const std::string body = BigJson();
  auto encoded = [&](Response r, Method method = Method::kGet) {
    EncodeContent(WithAcceptEncoding("gzip", method), r);
    return !r.GetHeader("Content-Encoding").empty();
  };
  auto typed = [&](std::string type, std::string b) {
    Response r = Response::Json(200, std::move(b));
    r.SetHeader("Content-Type", std::move(type));
    return r;
  };
  EXPECT_TRUE(encoded(Response::Json(200, body)));
  EXPECT_TRUE(encoded(Response::Json(404, body)));  // an error body is a body
  EXPECT_TRUE(encoded(Response::Text(200, body)));
  for (std::string type : {"text/html; charset=utf-8", "text/javascript; charset=utf-8",
                           "text/css", "image/svg+xml", "application/problem+json",
                           "APPLICATION/JSON", "application/javascript",
                           "text/plain; version=0.0.4; charset=utf-8"}) {
    EXPECT_TRUE(encoded(typed(type, body))) << type;
  }
  for (std::string type : {"image/png", "image/x-icon", "application/gzip",
                           "application/octet-stream", "application/zip", "json", "",
                           "application/jsonx", "application/+json"}) {
    EXPECT_FALSE(encoded(typed(type, body))) << type;
  }
  Response untyped;
  untyped.body = body;
  EXPECT_FALSE(encoded(untyped));
  EXPECT_FALSE(encoded(Response::Json(200, body), Method::kHead));
  EXPECT_FALSE(encoded(Response::Json(200, std::string(kGzipMinBytes - 1, ' '))));
  EXPECT_TRUE(encoded(Response::Json(200, std::string(kGzipMinBytes, ' '))));
  for (int status : {100, 204, 304}) {
    Response r = Response::Json(status, body);
    EXPECT_FALSE(encoded(r)) << status;
  }
  // Never twice: a body that already has a coding keeps it, bytes and all.
  Response br = Response::Json(200, body);
  br.SetHeader("Content-Encoding", "br");
  EncodeContent(WithAcceptEncoding("gzip"), br);
  EXPECT_EQ(br.GetHeader("Content-Encoding"), "br");
  EXPECT_EQ(br.body, body);
}

TEST(ContentCodingTest, VaryIsAddedOnceToWhatIsThere) {
  const std::string body = BigJson();
  Response r = Response::Json(200, body);
  r.SetHeader("Vary", "Origin");
  EncodeContent(WithAcceptEncoding("gzip"), r);
  EXPECT_EQ(r.GetHeader("Vary"), "Origin, Accept-Encoding");
  Response already = Response::Json(200, body);
  already.SetHeader("Vary", "origin, accept-encoding");
  EncodeContent(Request{}, already);
  EXPECT_EQ(already.GetHeader("Vary"), "origin, accept-encoding");
}

TEST(ContentCodingTest, AHandlersOwnGzipBodyIsKeptAsIs) {
  const std::string body = BigJson();
  Request req = WithAcceptEncoding("gzip");
  Response r = Response::Json(200, body);
  r.SetHeader("ETag", "\"v1\"");
  ASSERT_TRUE(ShouldGzip(req, r));
  const std::string own = Gzip(body, kGzipLevelDefault);
  UseGzipBody(r, own);
  EncodeContent(req, r);
  EXPECT_EQ(r.body, own);
  EXPECT_EQ(r.GetHeader("ETag"), "\"v1-gzip\"");
  EXPECT_EQ(r.GetHeader("Vary"), "Accept-Encoding");
}

TEST(ContentCodingTest, WeakTagsStayAndStrongTagsGetTheirGzipForm) {
  EXPECT_EQ(GzipEtag("\"abc\""), "\"abc-gzip\"");
  EXPECT_EQ(GzipEtag("\"\""), "\"-gzip\"");
  EXPECT_EQ(GzipEtag("W/\"abc\""), "W/\"abc\"");
  EXPECT_EQ(GzipEtag("abc"), "abc");  // not a tag: left alone
  Response r = Response::Json(200, BigJson());
  r.SetHeader("ETag", "W/\"weak\"");
  EncodeContent(WithAcceptEncoding("gzip"), r);
  EXPECT_EQ(r.GetHeader("ETag"), "W/\"weak\"");
}

TEST(ContentCodingTest, IfNoneMatchNamesATagInEitherCoding) {
  const std::string tag = "\"abc\"";
  for (std::string_view v :
       {"\"abc\"", "\"abc-gzip\"", "W/\"abc\"", "W/\"abc-gzip\"", "*", " * ",
        "\"x\", \"abc\"", "\"x\",\"abc-gzip\"", " \"x\" , W/\"abc\" ", ",\"abc\","}) {
    EXPECT_TRUE(IfNoneMatch(v, tag)) << v;
  }
  for (std::string_view v :
       {"", "abc", "\"ab\"", "\"abc-br\"", "\"abcd\"", "\"x\", \"y\"", "\"abc", "w/\"abc\"",
        "\"x\" \"abc\"", "\"x\", garbage, \"abc\"", "\"x\",*"}) {
    EXPECT_FALSE(IfNoneMatch(v, tag)) << v;
  }
  std::string long_list;
  for (int i = 0; i < 5000; ++i) long_list += "\"t" + std::to_string(i) + "\", ";
  EXPECT_FALSE(IfNoneMatch(long_list, tag));
  EXPECT_TRUE(IfNoneMatch(long_list + "\"abc-gzip\"", tag));
}

TEST(ContentCodingTest, ANotModifiedAnswerNamesTheFormTheClientHolds) {
  auto not_modified = [](std::string if_none_match) {
    Request req = WithAcceptEncoding("gzip");
    req.headers.push_back({"If-None-Match", std::move(if_none_match)});
    Response r = Response::Empty(304);
    r.SetHeader("ETag", "\"abc\"");
    EncodeContent(req, r);
    EXPECT_TRUE(r.body.empty());
    EXPECT_TRUE(r.GetHeader("Content-Encoding").empty());
    return r;
  };
  const Response gzip_form = not_modified("\"abc-gzip\"");
  EXPECT_EQ(gzip_form.GetHeader("ETag"), "\"abc-gzip\"");
  EXPECT_EQ(gzip_form.GetHeader("Vary"), "Accept-Encoding");
  EXPECT_EQ(not_modified("\"abc\"").GetHeader("ETag"), "\"abc\"");
}

}  // namespace
}  // namespace firn::http
