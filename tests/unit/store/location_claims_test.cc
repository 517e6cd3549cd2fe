// The pure rules of store/location_claims.h: ancestors, ranges, and who may overlap whom.
#include "store/location_claims.h"

#include <gtest/gtest.h>

namespace firn::store {
namespace {

LocationOwner Table(std::string catalog, std::string name, std::string realm = "r") {
  return {std::move(realm), std::move(catalog), LocationOwnerKind::kTable, {"ns"},
          std::move(name)};
}
LocationOwner Ns(std::string catalog) {
  return {"r", std::move(catalog), LocationOwnerKind::kNamespace, {"ns"}, ""};
}
LocationOwner Catalog(std::string catalog, std::string realm = "r") {
  return {std::move(realm), std::move(catalog), LocationOwnerKind::kCatalog, {}, ""};
}

TEST(LocationClaimsTest, AncestorsStopAtTheRootAndStayOnSegmentBoundaries) {
  EXPECT_EQ(LocationAncestors("s3://b/x/y"), (std::vector<std::string>{"s3://b/", "s3://b/x"}));
  EXPECT_EQ(LocationAncestors("file:///wh/a"),
            (std::vector<std::string>{"file:///", "file:///wh"}));
  EXPECT_TRUE(LocationAncestors("s3://b/").empty());
  EXPECT_TRUE(LocationAncestors("not-a-location").empty());
}

TEST(LocationClaimsTest, DescendantRangeHoldsChildrenButNotSiblingsWithTheSamePrefix) {
  const auto [low, high] = LocationDescendantRange("s3://b/t");
  auto inside = [&](const std::string& l) { return l >= low && l < high; };
  EXPECT_TRUE(inside("s3://b/t/data"));
  EXPECT_TRUE(inside("s3://b/t/x/y/z"));
  EXPECT_FALSE(inside("s3://b/t"));
  EXPECT_FALSE(inside("s3://b/t2"));
  EXPECT_FALSE(inside("s3://b/t-old"));
  EXPECT_FALSE(inside("s3://b/t.x"));
  const auto [rlow, rhigh] = LocationDescendantRange("s3://b/");
  EXPECT_TRUE("s3://b/anything" >= rlow && "s3://b/anything" < rhigh);
  EXPECT_FALSE("s3://bb/x" >= rlow && "s3://bb/x" < rhigh);
}

TEST(LocationClaimsTest, TablesNeverOverlapEachOtherInAnyDirection) {
  LocationClaim claim;
  const HeldLocation other{"s3://b/t", Table("c", "other")};
  for (auto rel : {LocationRelation::kSame, LocationRelation::kContains,
                   LocationRelation::kInside}) {
    EXPECT_TRUE(LocationsConflict(Table("c", "mine"), claim, other, rel));
  }
  // Its own claims never conflict with a new claim of the same owner.
  EXPECT_FALSE(LocationsConflict(Table("c", "other"), claim, other, LocationRelation::kSame));
}

TEST(LocationClaimsTest, ATableSitsInsideItsOwnNamespaceOrCatalogButNeverContainsOne) {
  LocationClaim claim;
  for (const LocationOwner& container : {Ns("c"), Catalog("c")}) {
    const HeldLocation held{"s3://b/c", container};
    EXPECT_FALSE(LocationsConflict(Table("c", "t"), claim, held, LocationRelation::kContains));
    EXPECT_TRUE(LocationsConflict(Table("c", "t"), claim, held, LocationRelation::kSame));
    EXPECT_TRUE(LocationsConflict(Table("c", "t"), claim, held, LocationRelation::kInside));
  }
  // And a container may hold existing tables but not sit inside one.
  const HeldLocation table{"s3://b/c/ns/t", Table("c", "t")};
  EXPECT_FALSE(LocationsConflict(Ns("c"), claim, table, LocationRelation::kInside));
  EXPECT_TRUE(LocationsConflict(Ns("c"), claim, table, LocationRelation::kContains));
  EXPECT_TRUE(LocationsConflict(Catalog("c"), claim, table, LocationRelation::kSame));
}

TEST(LocationClaimsTest, NothingOfOneCatalogOrRealmOverlapsAnotherCatalog) {
  LocationClaim claim;
  const HeldLocation other_catalog{"s3://b/c2", Catalog("c2")};
  const HeldLocation other_realm{"s3://b/c", Catalog("c", "r2")};
  for (auto rel : {LocationRelation::kSame, LocationRelation::kContains,
                   LocationRelation::kInside}) {
    EXPECT_TRUE(LocationsConflict(Table("c", "t"), claim, other_catalog, rel));
    EXPECT_TRUE(LocationsConflict(Catalog("c"), claim, other_catalog, rel));
    EXPECT_TRUE(LocationsConflict(Catalog("c"), claim, other_realm, rel));
  }
}

TEST(LocationClaimsTest, TheSharedOptOutOnlyRelaxesTablesOfTheSameCatalog) {
  LocationClaim shared;
  shared.shared_within_catalog = true;
  EXPECT_FALSE(LocationsConflict(Table("c", "a"), shared, {"s3://b/t", Table("c", "b")},
                                 LocationRelation::kSame));
  EXPECT_TRUE(LocationsConflict(Table("c", "a"), shared, {"s3://b/t", Table("c2", "b")},
                                LocationRelation::kSame));
  EXPECT_TRUE(LocationsConflict(Table("c", "a"), shared, {"s3://b/t", Ns("c")},
                                LocationRelation::kSame));
}

}  // namespace
}  // namespace firn::store
