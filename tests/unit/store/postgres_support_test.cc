// Pure parts of the PostgreSQL backend: error mapping and password handling in URLs.
#include <gtest/gtest.h>

#include "store/postgres/pg_connection.h"
#include "store/postgres/postgres_catalog_store.h"

namespace firn::store::postgres {
namespace {

TEST(PgErrorMappingTest, RacesAreRetryableAndOutagesUnavailable) {
  EXPECT_EQ(ClassifySqlState("40001"), SqlStateClass::kRetryable);
  EXPECT_EQ(ClassifySqlState("40P01"), SqlStateClass::kRetryable);
  EXPECT_EQ(ClassifySqlState("23505"), SqlStateClass::kRetryable);
  EXPECT_EQ(ClassifySqlState("23503"), SqlStateClass::kRetryable);
  EXPECT_EQ(ClassifySqlState("57014"), SqlStateClass::kTimeout);
  EXPECT_EQ(ClassifySqlState("57P01"), SqlStateClass::kUnavailable);
  EXPECT_EQ(ClassifySqlState("08006"), SqlStateClass::kUnavailable);
  EXPECT_EQ(ClassifySqlState("53300"), SqlStateClass::kUnavailable);
  EXPECT_EQ(ClassifySqlState("42P01"), SqlStateClass::kOther);
}

TEST(PgErrorMappingTest, LostConnectionMeaningDependsOnWhatWasInFlight) {
  Error before = MapFailure("", true, OnLoss::kNothingCommitted, "gone");
  EXPECT_EQ(before.kind, ErrorKind::kServiceUnavailable);
  EXPECT_EQ(before.message, "Catalog database is unavailable");
  Error during = MapFailure("", true, OnLoss::kOutcomeUnknown, "gone");
  EXPECT_EQ(during.kind, ErrorKind::kCommitStateUnknown);
  // An error the server answered with is definite, even for COMMIT.
  Error answered = MapFailure("40001", false, OnLoss::kOutcomeUnknown, "x");
  EXPECT_EQ(answered.kind, ErrorKind::kServiceUnavailable);
  Error other = MapFailure("42P01", false, OnLoss::kNothingCommitted, "relation missing");
  EXPECT_EQ(other.kind, ErrorKind::kInternal);
  EXPECT_EQ(other.message, "Catalog database error");
  EXPECT_NE(other.detail.find("relation missing"), std::string::npos);
}

TEST(PgUrlTest, PasswordIsTakenOutOfUserinfo) {
  Secret password;
  EXPECT_EQ(TakePasswordFromUrl("postgresql://firn:s%40cret@db:5432/cat?sslmode=require",
                                password),
            "postgresql://firn@db:5432/cat?sslmode=require");
  EXPECT_EQ(password.Reveal(), "s@cret");
}

TEST(PgUrlTest, PasswordIsTakenOutOfTheQuery) {
  Secret password;
  EXPECT_EQ(TakePasswordFromUrl("postgres://firn@db/cat?password=pw&sslmode=require", password),
            "postgres://firn@db/cat?sslmode=require");
  EXPECT_EQ(password.Reveal(), "pw");
  Secret last;
  EXPECT_EQ(TakePasswordFromUrl("postgres://db/cat?sslmode=require&password=pw2", last),
            "postgres://db/cat?sslmode=require");
  EXPECT_EQ(last.Reveal(), "pw2");
}

TEST(PgUrlTest, UrlsWithoutPasswordAreUnchanged) {
  Secret password;
  for (std::string url : {"postgresql://firn@db/cat", "postgresql://db", "postgresql:///cat",
                          "postgresql://[::1]:5432/cat", "postgresql://u@h/d?x=1"}) {
    EXPECT_EQ(TakePasswordFromUrl(url, password), url);
  }
  EXPECT_TRUE(password.empty());
  EXPECT_EQ(RedactDatabaseUrl("postgresql://u:p@h/d"), "postgresql://u@h/d");
}

}  // namespace
}  // namespace firn::store::postgres
