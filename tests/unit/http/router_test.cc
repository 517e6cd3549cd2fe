#include "http/router.h"

#include <gtest/gtest.h>

#include <string>

namespace firn::http {
namespace {

Request Req(Method m, std::string path) {
  Request r;
  r.method = m;
  r.path = std::move(path);
  r.target = r.path;
  return r;
}

// A handler that answers with its route name and the captured params as "name=value;...".
Handler Named(std::string route) {
  return [route](const Request&, const PathParams& params) {
    std::string body = route;
    for (const auto& [k, v] : params) {
      body += ";";
      body += k;
      body += "=";
      body += v;
    }
    return Response::Text(200, body);
  };
}

Router MakeRouter() {
  Router::Fallbacks fb;
  fb.not_found = [](const Request&) { return Response::Json(404, R"({"e":"nf"})"); };
  fb.method_not_allowed = [](const Request&) { return Response::Json(405, R"({"e":"mna"})"); };
  return Router(std::move(fb));
}

TEST(RouterTest, LiteralRouteMatches) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/v1/config", Named("config"));
  Response resp = r.Dispatch(Req(Method::kGet, "/v1/config"));
  EXPECT_EQ(resp.status, 200);
  EXPECT_EQ(resp.body, "config");
}

TEST(RouterTest, ParamCapturesRawSegmentWithPercent2FAnd1F) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/v1/{prefix}/namespaces/{namespace}/tables/{table}", Named("load"));
  Response resp = r.Dispatch(Req(Method::kGet, "/v1/wh/namespaces/a%1Fb/tables/tab%2Fle"));
  EXPECT_EQ(resp.status, 200);
  EXPECT_EQ(resp.body, "load;prefix=wh;namespace=a%1Fb;table=tab%2Fle");
}

TEST(RouterTest, PlusAndPercentEncodingStayAsSent) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/ns/{namespace}", Named("ns"));
  Response resp = r.Dispatch(Req(Method::kGet, "/ns/my+name%20x%2B"));
  EXPECT_EQ(resp.body, "ns;namespace=my+name%20x%2B");
}

TEST(RouterTest, LiteralBeatsParamRegardlessOfOrder) {
  Router r = MakeRouter();
  r.Add(Method::kPost, "/v1/{prefix}/namespaces", Named("param-first"));
  r.Add(Method::kPost, "/v1/namespaces/{namespace}", Named("literal-first"));
  Response resp = r.Dispatch(Req(Method::kPost, "/v1/namespaces/namespaces"));
  EXPECT_EQ(resp.body, "literal-first;namespace=namespaces");
  // Only the param-first pattern matches here.
  resp = r.Dispatch(Req(Method::kPost, "/v1/wh/namespaces"));
  EXPECT_EQ(resp.body, "param-first;prefix=wh");
}

TEST(RouterTest, LiteralSegmentBeatsParamInSamePosition) {
  Router r = MakeRouter();
  r.Add(Method::kPost, "/v1/{prefix}/tables/{table}", Named("param"));
  r.Add(Method::kPost, "/v1/{prefix}/tables/rename", Named("rename"));
  EXPECT_EQ(r.Dispatch(Req(Method::kPost, "/v1/p/tables/rename")).body, "rename;prefix=p");
  EXPECT_EQ(r.Dispatch(Req(Method::kPost, "/v1/p/tables/t1")).body, "param;prefix=p;table=t1");
}

TEST(RouterTest, MoreSpecificPatternWithoutMethodFallsBackToOneWithIt) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/a/fixed", Named("fixed"));
  r.Add(Method::kDelete, "/a/{x}", Named("param"));
  EXPECT_EQ(r.Dispatch(Req(Method::kDelete, "/a/fixed")).body, "param;x=fixed");
}

TEST(RouterTest, UnknownPathIs404FromFallback) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/v1/config", Named("config"));
  Response resp = r.Dispatch(Req(Method::kGet, "/v1/nothing"));
  EXPECT_EQ(resp.status, 404);
  EXPECT_EQ(resp.body, R"({"e":"nf"})");
  EXPECT_EQ(resp.GetHeader("Allow"), "");
}

TEST(RouterTest, KnownPathWrongMethodIs405WithAllow) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/v1/{prefix}/namespaces/{namespace}", Named("get"));
  r.Add(Method::kHead, "/v1/{prefix}/namespaces/{namespace}", Named("head"));
  r.Add(Method::kDelete, "/v1/{prefix}/namespaces/{namespace}", Named("delete"));
  Response resp = r.Dispatch(Req(Method::kPut, "/v1/p/namespaces/ns"));
  EXPECT_EQ(resp.status, 405);
  EXPECT_EQ(resp.body, R"({"e":"mna"})");
  EXPECT_EQ(resp.GetHeader("allow"), "GET, HEAD, DELETE");
}

TEST(RouterTest, AllowListsMethodsOfEveryMatchingPattern) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/a/fixed", Named("fixed"));
  r.Add(Method::kPost, "/a/{x}", Named("param"));
  Response resp = r.Dispatch(Req(Method::kPut, "/a/fixed"));
  EXPECT_EQ(resp.status, 405);
  EXPECT_EQ(resp.GetHeader("Allow"), "GET, POST");
}

TEST(RouterTest, TrailingSlashIsNotFound) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/v1/config", Named("config"));
  EXPECT_EQ(r.Dispatch(Req(Method::kGet, "/v1/config/")).status, 404);
}

TEST(RouterTest, EmptySegmentDoesNotMatchParam) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/v1/{prefix}/namespaces", Named("list"));
  EXPECT_EQ(r.Dispatch(Req(Method::kGet, "/v1//namespaces")).status, 404);
}

TEST(RouterTest, LiteralMatchIsCaseSensitive) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/v1/config", Named("config"));
  EXPECT_EQ(r.Dispatch(Req(Method::kGet, "/V1/Config")).status, 404);
}

TEST(RouterTest, SegmentCountMustMatch) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/v1/{prefix}", Named("one"));
  EXPECT_EQ(r.Dispatch(Req(Method::kGet, "/v1/a/b")).status, 404);
  EXPECT_EQ(r.Dispatch(Req(Method::kGet, "/v1")).status, 404);
}

TEST(RouterTest, PathWithoutLeadingSlashOrTooDeepIs404) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/{a}", Named("a"));
  EXPECT_EQ(r.Dispatch(Req(Method::kGet, "x")).status, 404);
  std::string deep;
  for (size_t i = 0; i < Router::kMaxSegments + 1; ++i) deep += "/s";
  EXPECT_EQ(r.Dispatch(Req(Method::kGet, deep)).status, 404);
}

TEST(RouterTest, NoImplicitHeadForGet) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/v1/config", Named("config"));
  Response resp = r.Dispatch(Req(Method::kHead, "/v1/config"));
  EXPECT_EQ(resp.status, 405);
  EXPECT_EQ(resp.GetHeader("Allow"), "GET");
}

TEST(RouterTest, AddingSameRouteTwiceReplacesHandler) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/x", Named("first"));
  r.Add(Method::kGet, "/x", Named("second"));
  EXPECT_EQ(r.Dispatch(Req(Method::kGet, "/x")).body, "second");
}

TEST(RouterTest, MissingFallbacksGiveBareStatuses) {
  Router r(Router::Fallbacks{});
  r.Add(Method::kGet, "/x", Named("x"));
  EXPECT_EQ(r.Dispatch(Req(Method::kGet, "/y")).status, 404);
  Response resp = r.Dispatch(Req(Method::kPost, "/x"));
  EXPECT_EQ(resp.status, 405);
  EXPECT_EQ(resp.GetHeader("Allow"), "GET");
}

TEST(RouterTest, FindReportsTheRouteTagWithoutCallingTheHandler) {
  Router r = MakeRouter();
  int calls = 0;
  Handler counting = [&calls](const Request&, const PathParams&) {
    ++calls;
    return Response::Empty(204);
  };
  r.Add(Method::kPost, "/v1/oauth/tokens", counting, /*tag=*/7);
  r.Add(Method::kGet, "/v1/{prefix}/namespaces", counting);
  r.Add(Method::kGet, "/v1/oauth/tokens", counting, /*tag=*/3);  // same pattern, own tag

  Router::Found token = r.Find(Req(Method::kPost, "/v1/oauth/tokens"));
  EXPECT_TRUE(token.found);
  EXPECT_EQ(token.tag, 7u);
  EXPECT_EQ(r.Find(Req(Method::kGet, "/v1/oauth/tokens")).tag, 3u);
  Router::Found untagged = r.Find(Req(Method::kGet, "/v1/wh/namespaces"));
  EXPECT_TRUE(untagged.found);
  EXPECT_EQ(untagged.tag, 0u);
  EXPECT_FALSE(r.Find(Req(Method::kDelete, "/v1/oauth/tokens")).found);  // 405 path
  EXPECT_FALSE(r.Find(Req(Method::kGet, "/nowhere")).found);
  EXPECT_EQ(calls, 0);
  // Dispatch still agrees with Find.
  EXPECT_EQ(r.Dispatch(Req(Method::kPost, "/v1/oauth/tokens")).status, 204);
  EXPECT_EQ(r.Dispatch(Req(Method::kDelete, "/v1/oauth/tokens")).status, 405);
  EXPECT_EQ(calls, 1);
}

TEST(RouterTest, RoutesListsEveryRegisteredMethodAndPatternOnce) {
  Router r = MakeRouter();
  r.Add(Method::kGet, "/v1/a/{x}", Named("a"));
  r.Add(Method::kHead, "/v1/a/{x}", Named("a-head"));
  r.Add(Method::kPost, "/v1/b", Named("b"));
  r.Add(Method::kGet, "/v1/a/{x}", Named("a-again"));  // replaces, not a second entry
  r.Add(Method::kOther, "/v1/ignored", Named("no"));   // invalid: not registered
  std::vector<std::pair<Method, std::string>> got;
  for (const auto& e : r.Routes()) got.emplace_back(e.method, e.pattern);
  std::vector<std::pair<Method, std::string>> want = {
      {Method::kGet, "/v1/a/{x}"}, {Method::kHead, "/v1/a/{x}"}, {Method::kPost, "/v1/b"}};
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace firn::http
