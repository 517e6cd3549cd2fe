// Location normalisation and containment (catalog/location_policy.h): the comparisons the
// allowed-locations rule and purge rely on.
#include "catalog/location_policy.h"

#include <gtest/gtest.h>

#include <string>

#include "io/storage_schemes.h"

namespace firn::catalog {
namespace {

std::string ToUpperForTest(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

std::string Norm(std::string_view loc) {
  auto n = NormalizeLocation(loc);
  return n ? *n : "ERROR: " + n.error().message;
}

TEST(LocationPolicyTest, NormalisesEquivalentFileForms) {
  EXPECT_EQ(Norm("file:///wh/db/t"), "file:///wh/db/t");
  EXPECT_EQ(Norm("file:/wh/db/t"), "file:///wh/db/t");
  EXPECT_EQ(Norm("/wh/db/t"), "file:///wh/db/t");
  EXPECT_EQ(Norm("file://localhost/wh/db/t"), "file:///wh/db/t");
  EXPECT_EQ(Norm("FILE:///wh//db/./t/"), "file:///wh/db/t");
}

TEST(LocationPolicyTest, TreatsS3aAndS3nAsS3) {
  EXPECT_EQ(Norm("s3a://bucket/wh//t/"), "s3://bucket/wh/t");
  EXPECT_EQ(Norm("s3n://bucket/wh/t"), "s3://bucket/wh/t");
  EXPECT_EQ(Norm("s3://bucket"), "s3://bucket/");
}

// The policy knows no scheme itself: every registered scheme normalises to its canonical name,
// needs an authority exactly when its entry says so, and drops only its local authority.
TEST(LocationPolicyTest, FollowsTheStorageRegistryForEveryScheme) {
  for (const io::StorageScheme& s : io::StorageSchemes()) {
    const std::string name(s.name);
    const std::string canonical(s.canonical);
    SCOPED_TRACE(name);
    EXPECT_EQ(Norm(name + "://host/wh//t/"), canonical + "://host/wh/t");
    EXPECT_EQ(Norm(ToUpperForTest(name) + "://host/wh"), canonical + "://host/wh");
    EXPECT_EQ(NormalizeLocation(name + ":///wh").has_value(), !s.needs_authority);
    if (!s.local_authority.empty()) {
      EXPECT_EQ(Norm(name + "://" + std::string(s.local_authority) + "/wh"), canonical + ":///wh");
    }
  }
  EXPECT_EQ(Norm("/wh/t"), std::string(io::BarePathScheme().canonical) + ":///wh/t");
  // A scheme no store serves is compared as written (lower case) and needs an authority.
  EXPECT_EQ(Norm("GS://bucket/wh"), "gs://bucket/wh");
  EXPECT_FALSE(NormalizeLocation("gs:///wh"));
  EXPECT_EQ(Norm("hdfs://localhost/wh"), "hdfs://localhost/wh");
}

// A scheme starts with a letter (RFC 3986), as the object store reads it: "1x://b/p" names no
// store, and is not taken for a location either.
TEST(LocationPolicyTest, ASchemeStartsWithALetter) {
  EXPECT_FALSE(NormalizeLocation("1x://bucket/wh"));
  EXPECT_FALSE(NormalizeLocation("+s3://bucket/wh"));
  EXPECT_EQ(Norm("x1+.-://bucket/wh"), "x1+.-://bucket/wh");
}

TEST(LocationPolicyTest, RejectsParentSegmentsAndRelativeForms) {
  EXPECT_FALSE(NormalizeLocation("file:///wh/../etc"));
  EXPECT_FALSE(NormalizeLocation("s3://bucket/wh/%2E%2E/other"));
  EXPECT_FALSE(NormalizeLocation("wh/db/t"));
  EXPECT_FALSE(NormalizeLocation("file:wh/db"));
  EXPECT_FALSE(NormalizeLocation("s3:///no-bucket"));
  EXPECT_FALSE(NormalizeLocation(""));
}

TEST(LocationPolicyTest, IsUnderHonoursSegmentBoundaries) {
  EXPECT_TRUE(IsUnder("file:///wh/a", "file:///wh/a"));
  EXPECT_TRUE(IsUnder("file:///wh/a/x/y.parquet", "file:///wh/a/"));
  EXPECT_TRUE(IsUnder("file:/wh/a//x", "/wh/a"));
  EXPECT_FALSE(IsUnder("file:///wh/ab", "file:///wh/a"));
  EXPECT_FALSE(IsUnder("file:///wh/a/../b", "file:///wh/a"));
  EXPECT_FALSE(IsUnder("s3://other/wh/a/x", "s3://bucket/wh/a"));
  EXPECT_TRUE(IsUnder("s3a://bucket/wh/a/x", "s3://bucket/wh"));
  EXPECT_TRUE(IsUnder("s3://bucket/anything", "s3://bucket"));
}

TEST(LocationPolicyTest, CheckAllowedAcceptsBaseAndAllowedLocations) {
  CatalogInfo c{"c", "file:///wh", "FILE", {"s3://bucket/extra"}, {}};
  EXPECT_TRUE(CheckLocationAllowed(c, "file:///wh/db/t"));
  EXPECT_TRUE(CheckLocationAllowed(c, "s3a://bucket/extra/t"));
  auto refused = CheckLocationAllowed(c, "file:///etc/t");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(refused.error().message,
            "Location file:///etc/t is not allowed for catalog 'c'; allowed: file:///wh, "
            "s3://bucket/extra");
  CatalogInfo listed_twice{"c", "file:///wh", "FILE", {"file:///wh"}, {}};
  EXPECT_EQ(CheckLocationAllowed(listed_twice, "file:///etc").error().message,
            "Location file:///etc is not allowed for catalog 'c'; allowed: file:///wh");
  auto sibling = CheckLocationAllowed(c, "file:///wh2/t");
  EXPECT_FALSE(sibling);
  auto escape = CheckLocationAllowed(c, "file:///wh/../etc");
  ASSERT_FALSE(escape);
  EXPECT_EQ(escape.error().kind, ErrorKind::kForbidden);
}

TEST(LocationPolicyTest, CheckAllowedFallsBackToRegistryWithoutResolvedCatalog) {
  CatalogRegistry registry(CatalogInfo{"c", "file:///wh"});
  registry.Add(CatalogInfo{"d", "file:///other"});
  RequestContext ctx;
  ctx.scope = {"R", "d"};
  EXPECT_TRUE(CheckLocationAllowed(ctx, registry, "file:///other/t"));
  EXPECT_FALSE(CheckLocationAllowed(ctx, registry, "file:///wh/t"));
  ctx.catalog = std::make_shared<CatalogInfo>(CatalogInfo{"d", "file:///resolved"});
  EXPECT_TRUE(CheckLocationAllowed(ctx, registry, "file:///resolved/t"));
  EXPECT_FALSE(CheckLocationAllowed(ctx, registry, "file:///other/t"));
}

}  // namespace
}  // namespace firn::catalog
