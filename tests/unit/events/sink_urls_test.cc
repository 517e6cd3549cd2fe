// Where a webhook may point (events/sink_urls.h), written as the attacks on an allowlist of
// URL prefixes: a longer host name, userinfo, another port, another scheme, a path that only
// shares letters; and the audit's copy of a URL keeps no credential.
#include "events/sink_urls.h"

#include <gtest/gtest.h>

namespace firn::events {
namespace {

std::vector<std::string> Prefixes(std::string_view text) {
  auto parsed = ParseSinkUrlPrefixes(text);
  EXPECT_TRUE(parsed) << parsed.error().message;
  return parsed ? *parsed : std::vector<std::string>{};
}

TEST(SinkUrlsTest, WithoutAnAllowlistAnyWellFormedHttpUrlIsAccepted) {
  EXPECT_TRUE(CheckSinkUrl("https://hooks.example.com/firn", {}));
  EXPECT_TRUE(CheckSinkUrl("http://127.0.0.1:9000", {}));
  for (std::string_view bad : {"", "ftp://x/", "https://", "https:///path", "file:///etc/passwd",
                               "https://a b/", "https://a/\n", "hooks.example.com/firn"}) {
    auto st = CheckSinkUrl(bad, {});
    ASSERT_FALSE(st) << bad;
    EXPECT_EQ(st.error().kind, ErrorKind::kBadRequest) << bad;
  }
  EXPECT_FALSE(CheckSinkUrl("https://h/" + std::string(2100, 'a'), {}));
}

TEST(SinkUrlsTest, AnAllowlistAdmitsItsPrefixesOnlyAtABoundary) {
  const auto allowed = Prefixes(" https://hooks.example.com , http://10.0.0.5:8080/firn/,");
  ASSERT_EQ(allowed.size(), 2u);
  for (std::string_view ok : {"https://hooks.example.com", "https://hooks.example.com/",
                              "https://hooks.example.com/a/b?x=1", "https://hooks.example.com?t=1",
                              "http://10.0.0.5:8080/firn/", "http://10.0.0.5:8080/firn/x",
                              "http://10.0.0.5:8080/firn/a..b/.c?next=../x"}) {
    EXPECT_TRUE(CheckSinkUrl(ok, allowed)) << ok;
  }
  for (std::string_view attack : {
           "https://hooks.example.com.evil.net/",  // a longer host
           "https://hooks.example.com@169.254.169.254/latest",  // userinfo, then another host
           "https://hooks.example.com:8443/",                    // another port
           "http://hooks.example.com/",                          // another scheme
           "https://hooks.example.co/",                          // a shorter host
           "http://10.0.0.5:8080/firnx",                         // a path sharing letters
           "http://10.0.0.5:8080/",                              // above the allowed path
           "http://10.0.0.55:8080/firn/",                        // another address
           "http://10.0.0.5:8080/firn/../admin",                 // climbing out of the path
           "http://10.0.0.5:8080/firn/%2E%2E/admin", "http://10.0.0.5:8080/firn/..",
           "http://10.0.0.5:8080/firn/./x", "http://10.0.0.5:8080/firn/a\\..\\..\\admin",
           "https://HOOKS.example.com/"}) {  // not the operator's spelling: refused, not let by
    auto st = CheckSinkUrl(attack, allowed);
    ASSERT_FALSE(st) << attack;
    EXPECT_EQ(st.error().kind, ErrorKind::kBadRequest);
    EXPECT_NE(st.error().message.find("--event-sink-urls"), std::string::npos);
    EXPECT_EQ(st.error().message.find(attack), std::string::npos) << "the URL leaked";
  }
}

TEST(SinkUrlsTest, AMalformedPrefixIsRefusedAtStart) {
  EXPECT_TRUE(Prefixes("").empty());
  EXPECT_TRUE(Prefixes(" , ").empty());
  for (std::string_view bad : {"hooks.example.com", "https://", "ftp://x", "https://a b"}) {
    auto parsed = ParseSinkUrlPrefixes(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kIllegalArgument);
  }
}

TEST(SinkUrlsTest, TheAuditCopyDropsUserinfoQueryAndFragment) {
  EXPECT_EQ(RedactedSinkUrl("https://user:pa55@hooks.example.com/x?token=t#f"),
            "https://hooks.example.com/x");
  EXPECT_EQ(RedactedSinkUrl("https://hooks.example.com:8443/x/y"), "https://hooks.example.com:8443/x/y");
  EXPECT_EQ(RedactedSinkUrl("https://u@h"), "https://h");
  EXPECT_EQ(RedactedSinkUrl("https://h/a@b"), "https://h/a@b");  // an @ in the path is no userinfo
}

}  // namespace
}  // namespace firn::events
