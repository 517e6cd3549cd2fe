#include "rest/error_model.h"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

namespace firn::rest {
namespace {

constexpr ErrorKind kAllKinds[] = {
    ErrorKind::kBadRequest,         ErrorKind::kIllegalArgument,   ErrorKind::kValidation,
    ErrorKind::kNotAuthorized,      ErrorKind::kForbidden,         ErrorKind::kNoSuchNamespace,
    ErrorKind::kNoSuchTable,        ErrorKind::kNoSuchView,        ErrorKind::kNotFound,
    ErrorKind::kNoSuchWarehouse,    ErrorKind::kNoRoute,           ErrorKind::kMethodNotAllowed,
    ErrorKind::kUnsupportedOperation, ErrorKind::kAlreadyExists,   ErrorKind::kNamespaceNotEmpty,
    ErrorKind::kCommitFailed,       ErrorKind::kPayloadTooLarge,   ErrorKind::kUnprocessableEntity,
    ErrorKind::kTooManyRequests,    ErrorKind::kInternal,          ErrorKind::kCommitStateUnknown,
    ErrorKind::kServiceUnavailable, ErrorKind::kLocationConflict,
};

TEST(ErrorModelTest, EveryKindMapsToAnErrorStatusAndANamedType) {
  for (ErrorKind kind : kAllKinds) {
    const ErrorMapping m = MapError(kind);
    EXPECT_GE(m.status, 400) << ErrorKindName(kind);
    EXPECT_LT(m.status, 600) << ErrorKindName(kind);
    EXPECT_FALSE(m.type.empty()) << ErrorKindName(kind);
  }
}

TEST(ErrorModelTest, ResponseBodyIsTheIcebergErrorModelWithCodeEqualToStatus) {
  for (ErrorKind kind : kAllKinds) {
    http::Response r = ErrorResponse(Error(kind, "what went wrong", "secret detail"));
    const auto body = boost::json::parse(r.body).as_object();
    ASSERT_EQ(body.size(), 1u);
    const auto& error = body.at("error").as_object();
    EXPECT_EQ(error.at("code").as_int64(), r.status);
    EXPECT_EQ(error.at("message").as_string(), "what went wrong");
    EXPECT_EQ(error.at("type").as_string(), MapError(kind).type);
    EXPECT_EQ(r.body.find("secret detail"), std::string::npos) << "detail must stay in the log";
  }
}

TEST(ErrorModelTest, CommitOutcomesMapAsJavaClientsExpect) {
  EXPECT_EQ(MapError(ErrorKind::kCommitFailed).status, 409);
  EXPECT_EQ(MapError(ErrorKind::kCommitFailed).type, "CommitFailedException");
  EXPECT_EQ(MapError(ErrorKind::kLocationConflict).status, 409);
  EXPECT_EQ(MapError(ErrorKind::kLocationConflict).type, "AlreadyExistsException");
  EXPECT_EQ(MapError(ErrorKind::kCommitStateUnknown).status, 500);
  EXPECT_EQ(MapError(ErrorKind::kCommitStateUnknown).type, "CommitStateUnknownException");
  EXPECT_EQ(MapError(ErrorKind::kNoSuchTable).type, "NoSuchTableException");
  EXPECT_EQ(MapError(ErrorKind::kUnprocessableEntity).status, 422);
}

TEST(ErrorModelTest, ServiceUnavailableCarriesRetryAfter) {
  http::Response r = ErrorResponse(Error(ErrorKind::kServiceUnavailable, "database down"));
  EXPECT_EQ(r.status, 503);
  bool found = false;
  for (const auto& h : r.headers) found |= h.name == "Retry-After";
  EXPECT_TRUE(found);
}

// Messages quote what the client sent in several places; whatever bytes those are, the body
// must stay valid JSON (Boost.JSON's parser refuses ill-formed UTF-8, so parsing proves it).
TEST(ErrorModelTest, IllFormedUtf8InAnyEchoedFieldIsReplacedSoTheBodyIsValidJson) {
  const std::string bad = "x\xFF\xC0\xAF\xED\xA0\x80y";
  const std::string fffd = "\xEF\xBF\xBD";
  const struct {
    ErrorKind kind;
    std::string message;
  } echoed[] = {
      {ErrorKind::kNoSuchWarehouse, "Catalog does not exist: " + bad},    // {prefix}
      {ErrorKind::kNoSuchWarehouse, "Warehouse does not exist: " + bad},  // ?warehouse=
      {ErrorKind::kNoSuchTable, "Table does not exist: db." + bad},       // a name
      {ErrorKind::kNoSuchNamespace, "Namespace does not exist: " + bad},  // a namespace
      {ErrorKind::kForbidden, "Location " + bad + " is not allowed"},     // a location
      {ErrorKind::kBadRequest, "Invalid table properties: the value of '" + bad + "' is"},
      {ErrorKind::kBadRequest, bad},                                      // nothing else
      {ErrorKind::kBadRequest, "truncated at the end \xE2\x82"},
  };
  for (const auto& e : echoed) {
    http::Response r = ErrorResponse(Error(e.kind, e.message));
    boost::system::error_code ec;
    boost::json::value parsed = boost::json::parse(r.body, ec);
    ASSERT_FALSE(ec) << "not valid JSON for: " << e.message;
    const std::string message(parsed.at("error").at("message").as_string());
    EXPECT_EQ(message.find('\xFF'), std::string::npos);
    EXPECT_NE(message.find(fffd), std::string::npos) << message;
  }
  // Well-formed text, accents and emoji included, is sent unchanged.
  const std::string good = "Table does not exist: caf\xC3\xA9.\xF0\x9F\x98\x80";
  EXPECT_EQ(boost::json::parse(ErrorResponse(Error(ErrorKind::kNoSuchTable, good)).body)
                .at("error").at("message").as_string(),
            good);
}

}  // namespace
}  // namespace firn::rest
