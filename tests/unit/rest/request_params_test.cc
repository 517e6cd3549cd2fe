// Names entering through the path, the query and the body are held to the name rules
// (catalog/input_rules.h) in every position: 400 BadRequest, never echoing the bytes.
#include "rest/request_params.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <string>
#include <vector>

#include "rest/json_fields.h"

namespace firn::rest {
namespace {

// Hostile names as a Java client would put them in a path segment (form-encoded).
const std::vector<std::string> kHostileSegments = {
    "%2E", ".", "%2E%2E", "..", "a%2Fb", "%2Fetc", "a%00b", "a%0Ab", "a%7F", "a%C2%85",
    "a%FF", "a%C0%AFb", "%ED%A0%80", std::string(256, 'n'),
};

http::PathParams Params(const std::string& ns, const std::string& table) {
  return {{"namespace", ns}, {"table", table}};
}

void ExpectBadRequest(const Error& e, const std::string& raw) {
  EXPECT_EQ(e.kind, ErrorKind::kBadRequest) << raw;
  EXPECT_TRUE(e.message.starts_with("Invalid ")) << e.message;
  // The message names the rule, never the bytes (which may be invalid UTF-8).
  for (char c : e.message) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << e.message;
  for (char c : e.message) EXPECT_LT(static_cast<unsigned char>(c), 0x7F) << e.message;
}

TEST(RequestParamsTest, HostileTableNameInThePathIsABadRequest) {
  for (const std::string& seg : kHostileSegments) {
    auto id = IdentifierParam(Params("db", seg), "table");
    ASSERT_FALSE(id) << seg;
    ExpectBadRequest(id.error(), seg);
    EXPECT_TRUE(id.error().message.starts_with("Invalid table name: ")) << id.error().message;
  }
}

TEST(RequestParamsTest, HostileNamespaceLevelInThePathIsABadRequest) {
  for (const std::string& seg : kHostileSegments) {
    for (const std::string& ns : {seg, "db%1F" + seg, seg + "%1Fdb"}) {
      auto parsed = NamespaceParam(Params(ns, "t"));
      ASSERT_FALSE(parsed) << ns;
      ExpectBadRequest(parsed.error(), ns);
      auto id = IdentifierParam(Params(ns, "t"), "table");
      ASSERT_FALSE(id) << ns;
    }
  }
}

TEST(RequestParamsTest, OrdinaryNamesStillDecode) {
  auto id = IdentifierParam(Params("a%1Fb+c", "my+t.v1%C3%A9"), "table");
  ASSERT_TRUE(id) << id.error().message;
  EXPECT_EQ(id->ns, (store::Namespace{"a", "b c"}));
  EXPECT_EQ(id->name, "my t.v1\xC3\xA9");
}

TEST(RequestParamsTest, HostileParentQueryIsABadRequestAndEmptyIsTheTopLevel) {
  auto top = ParentParam(QueryParams::Parse("parent=").value());
  ASSERT_TRUE(top);
  EXPECT_TRUE(top->empty());
  for (const char* raw : {"parent=a%1F..", "parent=a%00", "parent=%FF", "parent=a%2Fb"}) {
    auto parent = ParentParam(QueryParams::Parse(raw).value());
    ASSERT_FALSE(parent) << raw;
    ExpectBadRequest(parent.error(), raw);
  }
}

// JSON strings are valid UTF-8 by construction, but can still carry every other rule breaker.
const std::vector<std::string> kHostileJsonStrings = {
    R"(".")", R"("..")", R"("")", R"("a/b")", R"("a\u0000b")", R"("a\u001fb")",
    R"("a\u007f")", R"("a\u0085")", "\"" + std::string(256, 'n') + "\"",
};

TEST(RequestParamsTest, HostileNamespaceInABodyIsABadRequest) {
  for (const std::string& level : kHostileJsonStrings) {
    auto body = boost::json::parse(R"({"namespace":["db",)" + level + "]}");
    auto ns = NamespaceField(body.as_object(), "namespace");
    ASSERT_FALSE(ns) << level;
    ExpectBadRequest(ns.error(), level);
  }
}

TEST(RequestParamsTest, HostileIdentifierInABodyIsABadRequestInNameAndNamespace) {
  for (const std::string& name : kHostileJsonStrings) {
    for (const std::string& json :
         {R"({"source":{"namespace":["db"],"name":)" + name + "}}",
          R"({"source":{"namespace":[)" + name + R"(],"name":"t"}})"}) {
      auto id = IdentifierField(boost::json::parse(json).as_object(), "source");
      ASSERT_FALSE(id) << json;
      ExpectBadRequest(id.error(), json);
    }
  }
  auto ok = IdentifierField(
      boost::json::parse(R"({"source":{"namespace":["db"],"name":"t.1"}})").as_object(),
      "source");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->name, "t.1");
}

}  // namespace
}  // namespace firn::rest
