// The web console's routes and embedded files (docs/console.md): what /ui serves, with which
// headers, that nothing outside the embedded set is reachable, that every file the page and its
// modules refer to is embedded, and that the console's code keeps to the rules its
// Content-Security-Policy and its XSS safety rest on.
#include "console/console_routes.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "auth/privilege.h"
#include "console/assets.h"
#include "rest/request_pipeline.h"
#include "rest/routes.h"

namespace firn::console {
namespace {

namespace json = boost::json;

http::Request Get(std::string path, http::Method method = http::Method::kGet) {
  http::Request r;
  r.method = method;
  r.path = std::move(path);
  r.target = r.path;
  return r;
}

class ConsoleRoutesTest : public ::testing::Test {
 protected:
  ConsoleRoutesTest() : router_(rest::ErrorFallbacks()) {
    AddConsoleRoutes(router_, ConsoleOptions{.realm_header = "X-Test-Realm"});
  }

  http::Response Dispatch(const http::Request& req) const { return router_.Dispatch(req); }

  static const Asset* Find(std::string_view path) {
    for (const Asset& a : EmbeddedAssets()) {
      if (a.path == path) return &a;
    }
    return nullptr;
  }

  http::Router router_;
};

void ExpectConsoleHeaders(const http::Response& r) {
  const std::string csp(r.GetHeader("Content-Security-Policy"));
  EXPECT_NE(csp.find("default-src 'self'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe-eval"), std::string::npos) << csp;
  EXPECT_EQ(r.GetHeader("X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(r.GetHeader("Cache-Control"), "no-cache");
  EXPECT_FALSE(r.GetHeader("ETag").empty());
}

TEST_F(ConsoleRoutesTest, EveryEmbeddedFileIsServedWithItsTypeAndTheConsoleHeaders) {
  ASSERT_FALSE(EmbeddedAssets().empty());
  for (const Asset& a : EmbeddedAssets()) {
    SCOPED_TRACE(std::string(a.path));
    const http::Response r = Dispatch(Get("/ui/" + std::string(a.path)));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, a.bytes);
    EXPECT_EQ(r.GetHeader("Content-Type"), a.content_type);
    EXPECT_EQ(r.GetHeader("ETag"), a.etag);
    ExpectConsoleHeaders(r);
    EXPECT_EQ(router_.Find(Get("/ui/" + std::string(a.path))).tag,
              static_cast<uint32_t>(rest::RouteKind::kPublic));
  }
}

TEST_F(ConsoleRoutesTest, UiAndUiSlashServeTheIndexPage) {
  const Asset* index = Find("index.html");
  ASSERT_NE(index, nullptr);
  for (const char* path : {"/ui", "/ui/", "/ui/index.html"}) {
    const http::Response r = Dispatch(Get(path));
    EXPECT_EQ(r.status, 200) << path;
    EXPECT_EQ(r.body, index->bytes) << path;
    EXPECT_EQ(r.GetHeader("Content-Type"), "text/html; charset=utf-8") << path;
    ExpectConsoleHeaders(r);
  }
  EXPECT_EQ(Dispatch(Get("/ui/", http::Method::kHead)).status, 200);
}

TEST_F(ConsoleRoutesTest, AMatchingIfNoneMatchIsNotModified) {
  const Asset* index = Find("index.html");
  ASSERT_NE(index, nullptr);
  for (const std::string& header :
       {std::string(index->etag), "W/" + std::string(index->etag),
        "\"other\", " + std::string(index->etag), std::string("*")}) {
    http::Request req = Get("/ui/");
    req.headers.push_back({"If-None-Match", header});
    const http::Response r = Dispatch(req);
    EXPECT_EQ(r.status, 304) << header;
    EXPECT_TRUE(r.body.empty());
    EXPECT_EQ(r.GetHeader("ETag"), index->etag);
  }
  http::Request stale = Get("/ui/");
  stale.headers.push_back({"If-None-Match", "\"0000\""});
  EXPECT_EQ(Dispatch(stale).status, 200);
}

TEST_F(ConsoleRoutesTest, PathsOutsideTheEmbeddedSetAreTheRouters404ErrorModel) {
  for (const char* path :
       {"/ui/nope.js", "/ui/js", "/ui/js/", "/ui//index.html", "/ui/index.html/",
        "/ui/../v1/config", "/ui/%2e%2e/v1/config", "/ui/js/..%2f..%2fetc%2fpasswd",
        "/ui/.%2e/index.html", "/ui/index.html%00", "/ui/INDEX.HTML", "/UI/"}) {
    const http::Response r = Dispatch(Get(path));
    EXPECT_EQ(r.status, 404) << path;
    auto body = json::parse(r.body);
    EXPECT_EQ(body.at("error").at("type").as_string(), "NotFoundException") << path;
  }
  // Only GET and HEAD: anything else is the router's 405.
  EXPECT_EQ(Dispatch(Get("/ui/", http::Method::kPost)).status, 405);
}

TEST_F(ConsoleRoutesTest, SettingsNameTheRealmHeaderAndTheGrantablePrivileges) {
  const http::Response r = Dispatch(Get("/ui/console.json"));
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.GetHeader("Content-Type"), "application/json");
  ExpectConsoleHeaders(r);
  auto body = json::parse(r.body).as_object();
  EXPECT_EQ(body.at("realmHeader").as_string(), "X-Test-Realm");
  const std::pair<const char*, auth::SecurableType> types[] = {
      {"catalog", auth::SecurableType::kCatalog},
      {"namespace", auth::SecurableType::kNamespace},
      {"table", auth::SecurableType::kTable},
      {"view", auth::SecurableType::kView}};
  for (const auto& [name, type] : types) {
    std::set<std::string> listed;
    for (const auto& p : body.at("grantable").at(name).as_array()) {
      listed.insert(std::string(p.as_string()));
    }
    std::set<std::string> want;
    for (int i = 0; i < auth::kPrivilegeCount; ++i) {
      const auto p = static_cast<auth::Privilege>(i);
      if (auth::GrantableOn(p, type)) want.insert(std::string(auth::PrivilegeName(p)));
    }
    EXPECT_EQ(listed, want) << name;
  }
}

// Every "/ui/..." the page names, and every module a module imports ("./x.js", "../x.js"),
// is an embedded file: a renamed file cannot leave a broken console behind.
TEST_F(ConsoleRoutesTest, EveryReferenceOfThePageAndItsModulesIsEmbedded) {
  const Asset* index = Find("index.html");
  ASSERT_NE(index, nullptr);
  const std::string html(index->bytes);
  const std::regex ui_ref(R"re((?:src|href)="/ui/([^"]+)")re");
  int refs = 0;
  for (std::sregex_iterator it(html.begin(), html.end(), ui_ref), end; it != end; ++it) {
    EXPECT_NE(Find((*it)[1].str()), nullptr) << (*it)[1].str();
    ++refs;
  }
  EXPECT_GE(refs, 2);  // the stylesheet and the entry module at least

  const std::regex import_ref(R"re((?:from|import)\s*\(?\s*"(\.{1,2}/[^"]+)")re");
  int imports = 0;
  for (const Asset& a : EmbeddedAssets()) {
    if (!a.path.ends_with(".js")) continue;
    const std::string text(a.bytes);
    const std::string dir = a.path.rfind('/') == std::string_view::npos
                                ? ""
                                : std::string(a.path.substr(0, a.path.rfind('/') + 1));
    for (std::sregex_iterator it(text.begin(), text.end(), import_ref), end; it != end; ++it) {
      std::string target = dir + (*it)[1].str();
      // Resolve "./" and "../" against the importing module's folder.
      std::vector<std::string> parts;
      size_t start = 0;
      while (start <= target.size()) {
        size_t slash = target.find('/', start);
        std::string seg = target.substr(start, slash == std::string::npos ? std::string::npos
                                                                          : slash - start);
        if (seg == "..") {
          if (!parts.empty()) parts.pop_back();
        } else if (!seg.empty() && seg != ".") {
          parts.push_back(seg);
        }
        if (slash == std::string::npos) break;
        start = slash + 1;
      }
      std::string resolved;
      for (const std::string& p : parts) resolved += (resolved.empty() ? "" : "/") + p;
      EXPECT_NE(Find(resolved), nullptr) << a.path << " imports " << (*it)[1].str();
      ++imports;
    }
  }
  EXPECT_GE(imports, 10);
}

// The rules the CSP and the XSS safety rest on: no inline script, handler or style in the page;
// no HTML built from strings and no code from strings in any module (text goes in as text).
TEST_F(ConsoleRoutesTest, ThePageAndModulesHaveNoInlineCodeAndBuildNoHtmlFromStrings) {
  const std::string html(Find("index.html")->bytes);
  EXPECT_FALSE(std::regex_search(html, std::regex(R"(<script(?![^>]*\bsrc=)[^>]*>)")));
  EXPECT_FALSE(std::regex_search(html, std::regex(R"(\son[a-z]+\s*=)", std::regex::icase)));
  EXPECT_FALSE(std::regex_search(html, std::regex(R"(\sstyle\s*=)", std::regex::icase)));
  for (const Asset& a : EmbeddedAssets()) {
    if (!a.path.ends_with(".js")) continue;
    const std::string text(a.bytes);
    for (const char* banned : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                               "eval(", "new Function", "localStorage.setItem"}) {
      EXPECT_EQ(text.find(banned), std::string::npos) << a.path << " uses " << banned;
    }
  }
}

}  // namespace
}  // namespace firn::console
