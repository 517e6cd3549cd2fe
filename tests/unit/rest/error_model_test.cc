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
    ErrorKind::kServiceUnavailable,
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

}  // namespace
}  // namespace firn::rest
