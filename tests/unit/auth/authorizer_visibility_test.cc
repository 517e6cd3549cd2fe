// Trusted (external-issuer) roles and the CanSee visibility rule used to filter listings.
#include <gtest/gtest.h>

#include "auth/authorizer.h"

namespace firn::auth {
namespace {

using P = Privilege;

Resource Cat() { return Resource{"R", "wild", {}, std::nullopt, std::nullopt}; }
Resource Ns(std::vector<std::string> ns) {
  return Resource{"R", "wild", std::move(ns), std::nullopt, std::nullopt};
}
Resource Tbl(std::vector<std::string> ns, std::string t) {
  return Resource{"R", "wild", std::move(ns), std::move(t), std::nullopt};
}
Resource Vw(std::vector<std::string> ns, std::string v) {
  return Resource{"R", "wild", std::move(ns), std::nullopt, std::move(v)};
}

// bob → principal role "eng" → catalog role "r" in "wild"; "ops" is a principal role that
// nobody is assigned to in the snapshot but that an external issuer may vouch for.
class AuthorizerVisibilityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(b_.AssignPrincipalRole("R", "bob", "eng"));
    ASSERT_TRUE(b_.AssignCatalogRole("R", "eng", "wild", "r"));
    ASSERT_TRUE(b_.AssignCatalogRole("R", "ops", "wild", "o"));
  }
  const GrantSnapshot& Snap() {
    if (!snap_) snap_ = b_.Build(1);
    return *snap_;
  }
  Subject Bob() { return Subject{"R", "bob", {}, true, false}; }
  Subject External(std::vector<std::string> roles) {
    return Subject{"R", "carol@idp", std::move(roles), false, true};
  }

  GrantSnapshotBuilder b_;
  std::shared_ptr<const GrantSnapshot> snap_;
};

TEST_F(AuthorizerVisibilityTest, TrustedRolesGrantWithoutPrincipalInSnapshot) {
  ASSERT_TRUE(b_.Grant(Ns({"db"}), "o", P::kTABLE_READ_DATA));
  EXPECT_TRUE(Authorize(Snap(), External({"ops"}), P::kTABLE_READ_DATA, Tbl({"db"}, "t")));
  // The same unknown principal without trusted roles is denied.
  Subject untrusted = External({"ops"});
  untrusted.trusted_roles = false;
  EXPECT_FALSE(Authorize(Snap(), untrusted, P::kTABLE_READ_DATA, Tbl({"db"}, "t")));
}

TEST_F(AuthorizerVisibilityTest, TrustedRolesAreOnlyTheRolesGiven) {
  ASSERT_TRUE(b_.Grant(Ns({"db"}), "r", P::kTABLE_READ_DATA));
  // "eng" holds the grant; an external subject vouched only for "ops" does not get it, and
  // all_roles does not widen a trusted subject's roles.
  Subject s = External({"ops"});
  s.all_roles = true;
  EXPECT_FALSE(Authorize(Snap(), s, P::kTABLE_READ_DATA, Tbl({"db"}, "t")));
  EXPECT_TRUE(Authorize(Snap(), External({"eng"}), P::kTABLE_READ_DATA, Tbl({"db"}, "t")));
  EXPECT_FALSE(Authorize(Snap(), External({}), P::kTABLE_READ_DATA, Tbl({"db"}, "t")));
}

TEST_F(AuthorizerVisibilityTest, GrantOnTableMakesItsNamespacesAndCatalogVisible) {
  ASSERT_TRUE(b_.Grant(Tbl({"db", "sub"}, "t"), "r", P::kTABLE_READ_DATA));
  EXPECT_TRUE(CanSee(Snap(), Bob(), Cat()));
  EXPECT_TRUE(CanSee(Snap(), Bob(), Ns({"db"})));
  EXPECT_TRUE(CanSee(Snap(), Bob(), Ns({"db", "sub"})));
  EXPECT_TRUE(CanSee(Snap(), Bob(), Tbl({"db", "sub"}, "t")));
  EXPECT_FALSE(CanSee(Snap(), Bob(), Tbl({"db", "sub"}, "other")));
  EXPECT_FALSE(CanSee(Snap(), Bob(), Ns({"other"})));
  EXPECT_FALSE(CanSee(Snap(), Bob(), Ns({"db", "other"})));
  EXPECT_FALSE(CanSee(Snap(), Bob(), Vw({"db", "sub"}, "t")));  // a view is another securable
}

TEST_F(AuthorizerVisibilityTest, GrantOnNamespaceMakesEverythingBeneathVisible) {
  ASSERT_TRUE(b_.Grant(Ns({"db"}), "r", P::kNAMESPACE_READ_PROPERTIES));
  EXPECT_TRUE(CanSee(Snap(), Bob(), Ns({"db", "any", "depth"})));
  EXPECT_TRUE(CanSee(Snap(), Bob(), Tbl({"db"}, "t")));
  EXPECT_TRUE(CanSee(Snap(), Bob(), Vw({"db", "x"}, "v")));
  EXPECT_FALSE(CanSee(Snap(), Bob(), Ns({"db2"})));
}

TEST_F(AuthorizerVisibilityTest, NothingIsVisibleWithoutGrantsOrToOthers) {
  ASSERT_TRUE(b_.Grant(Ns({"db"}), "o", P::kNAMESPACE_READ_PROPERTIES));  // held by "ops" only
  EXPECT_FALSE(CanSee(Snap(), Bob(), Cat()));
  EXPECT_FALSE(CanSee(Snap(), Bob(), Ns({"db"})));
  Subject other_realm = Bob();
  other_realm.realm = "R2";
  EXPECT_FALSE(CanSee(Snap(), other_realm, Ns({"db"})));
  EXPECT_TRUE(CanSee(Snap(), External({"ops"}), Ns({"db"})));
}

TEST_F(AuthorizerVisibilityTest, RootGrantsDoNotRevealCatalogContent) {
  ASSERT_TRUE(b_.GrantOnRoot("R", "eng", P::kSERVICE_MANAGE_ACCESS));
  EXPECT_FALSE(CanSee(Snap(), Bob(), Ns({"db"})));
  EXPECT_FALSE(CanSee(Snap(), Bob(), Cat()));
}

TEST_F(AuthorizerVisibilityTest, InactiveRoleGrantsNoVisibility) {
  ASSERT_TRUE(b_.Grant(Ns({"db"}), "r", P::kNAMESPACE_READ_PROPERTIES));
  Subject s = Bob();
  s.all_roles = false;
  s.active_roles = {"somethingelse"};
  EXPECT_FALSE(CanSee(Snap(), s, Ns({"db"})));
  s.active_roles = {"eng"};
  EXPECT_TRUE(CanSee(Snap(), s, Ns({"db"})));
}

}  // namespace
}  // namespace firn::auth
