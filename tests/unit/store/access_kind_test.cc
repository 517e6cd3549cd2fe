#include <gtest/gtest.h>

#include "store/access_store.h"

namespace firn::store {
namespace {

TEST(AccessKindTest, NamesRoundTripForEveryKind) {
  for (AccessKind kind :
       {AccessKind::kRealm, AccessKind::kSigningKey, AccessKind::kPrincipal,
        AccessKind::kPrincipalRole, AccessKind::kCatalog, AccessKind::kCatalogRole,
        AccessKind::kPrincipalRoleGrant, AccessKind::kCatalogRoleGrant,
        AccessKind::kPrivilegeGrant}) {
    auto parsed = ParseAccessKind(AccessKindName(kind));
    ASSERT_TRUE(parsed) << AccessKindName(kind);
    EXPECT_EQ(*parsed, kind);
  }
}

TEST(AccessKindTest, StoredNamesAreTheLowerCaseEnumerators) {
  EXPECT_EQ(AccessKindName(AccessKind::kRealm), "realm");
  EXPECT_EQ(AccessKindName(AccessKind::kSigningKey), "signing_key");
  EXPECT_EQ(AccessKindName(AccessKind::kPrincipalRoleGrant), "principal_role_grant");
  EXPECT_EQ(AccessKindName(AccessKind::kPrivilegeGrant), "privilege_grant");
}

TEST(AccessKindTest, UnknownNamesDoNotParse) {
  EXPECT_FALSE(ParseAccessKind(""));
  EXPECT_FALSE(ParseAccessKind("Realm"));
  EXPECT_FALSE(ParseAccessKind("grant"));
}

}  // namespace
}  // namespace firn::store
