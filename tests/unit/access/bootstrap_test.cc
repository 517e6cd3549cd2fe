#include "access/bootstrap.h"

#include <gtest/gtest.h>

#include "access/authenticator.h"
#include "access_test_support.h"

namespace firn::access {
namespace {

using testing::kNow;

TEST(BootstrapTest, CreatesRealmKeyAdminRolesAndCatalog) {
  testing::FakeAccessStore store;
  auto r = Bootstrap(store, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->created);
  EXPECT_TRUE(r->catalog_created);
  EXPECT_EQ(r->credentials.client_id, "alice-id");
  auto snap = testing::Load(store);
  const RealmState* realm = snap->FindRealm("r1");
  ASSERT_TRUE(realm);
  ASSERT_TRUE(realm->keys);
  const PrincipalInfo* alice = snap->FindPrincipal("r1", "alice");
  ASSERT_TRUE(alice);
  EXPECT_TRUE(auth::VerifySecret(Secret("alice-secret"), alice->secret_hash));
  EXPECT_TRUE(realm->principal_roles.contains("service_admin"));
  EXPECT_TRUE(realm->catalog_roles.at("wh").contains("catalog_admin"));
  auth::Subject admin{"r1", "alice", {}, true, false};
  auth::Resource root{"r1", "", {}, {}, {}};
  EXPECT_TRUE(auth::Authorize(*snap->grants, admin, auth::Privilege::kSERVICE_MANAGE_ACCESS, root));
  auth::Resource table{"r1", "wh", {"db"}, "t", {}};
  EXPECT_TRUE(auth::Authorize(*snap->grants, admin, auth::Privilege::kTABLE_WRITE_DATA, table));
}

TEST(BootstrapTest, SecondRunCreatesNothingButEnsuresTheCatalog) {
  testing::FakeAccessStore store;
  ASSERT_TRUE(Bootstrap(store, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
  size_t records = store.record_count();
  auto again = Bootstrap(store, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000);
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->created);
  EXPECT_FALSE(again->catalog_created);
  EXPECT_TRUE(again->credentials.secret.empty());
  EXPECT_EQ(store.record_count(), records);

  auto opts = testing::AliceOptions("r1");
  opts.admin_name = "someone-else";
  opts.catalog->name = "second";
  auto third = Bootstrap(store, opts, testing::TestKeks(), kNow * 1000);
  ASSERT_TRUE(third);
  EXPECT_FALSE(third->created);
  EXPECT_TRUE(third->catalog_created);
  auto snap = testing::Load(store);
  EXPECT_FALSE(snap->FindPrincipal("r1", "someone-else"));
  EXPECT_TRUE(snap->FindCatalog("r1", "second"));
  // The new catalog's admin role reaches the existing service_admin.
  auth::Subject admin{"r1", "alice", {}, true, false};
  EXPECT_TRUE(auth::Authorize(*snap->grants, admin, auth::Privilege::kTABLE_READ_DATA,
                              auth::Resource{"r1", "second", {"db"}, "t", {}}));
}

TEST(BootstrapTest, GeneratesCredentialsWhenNoneAreGiven) {
  testing::FakeAccessStore store;
  BootstrapOptions o;
  o.realm = "r1";
  o.admin_name = "ops";
  auto r = Bootstrap(store, o, testing::TestKeks(), kNow * 1000);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->credentials.client_id.size(), 16u);
  EXPECT_EQ(r->credentials.secret.Reveal().size(), 43u);
  auto snap = testing::Load(store);
  EXPECT_TRUE(auth::VerifySecret(r->credentials.secret, snap->FindPrincipal("r1", "ops")->secret_hash));
}

TEST(BootstrapTest, RejectsEmptyNames) {
  testing::FakeAccessStore store;
  BootstrapOptions o;
  o.realm = "r1";
  EXPECT_FALSE(Bootstrap(store, o, testing::TestKeks(), kNow * 1000));
}

TEST(BootstrapTest, RotationKeepsOldTokensDuringOverlapAndSignsWithTheNewKey) {
  testing::FakeAccessStore store;
  ASSERT_TRUE(Bootstrap(store, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
  auto before = testing::Load(store);
  auth::Claims c;
  c.iss = "firn";
  c.sub = before->FindPrincipal("r1", "alice")->id;
  c.realm = "r1";
  c.scope = "PRINCIPAL_ROLE:ALL";
  c.iat = kNow;
  c.exp = kNow + 3600;
  c.ver = 1;
  std::string old_token = *before->FindRealm("r1")->keys->Sign(c);
  ASSERT_TRUE(RotateSigningKeys(store, "r1", testing::TestKeks(), 3600, kNow));
  auto after = testing::Load(store);
  EXPECT_EQ(after->FindRealm("r1")->keys->size(), 2u);
  EXPECT_NE(after->FindRealm("r1")->keys->active().kid(),
            before->FindRealm("r1")->keys->active().kid());
  Authenticator auth{AuthConfig{}};
  EXPECT_TRUE(auth.Authenticate("r1", "Bearer " + old_token, *after, kNow));
  // A second rotation after the overlap drops the first key.
  ASSERT_TRUE(RotateSigningKeys(store, "r1", testing::TestKeks(), 3600, kNow + 4000));
  auto later = testing::Load(store, kNow + 4000);
  EXPECT_EQ(later->FindRealm("r1")->keys->size(), 2u);
  EXPECT_FALSE(RotateSigningKeys(store, "nowhere", testing::TestKeks(), 3600, kNow));
}

TEST(BootstrapCredentialsTest, ParsesTheEntryOfTheRealm) {
  auto c = ParseBootstrapCredentials("a,id-a,sec-a;r1,id1,s,with,commas", "r1");
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->has_value());
  EXPECT_EQ((*c)->client_id, "id1");
  EXPECT_EQ((*c)->secret.Reveal(), "s,with,commas");
  auto none = ParseBootstrapCredentials("a,id-a,sec-a", "r1");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());
  auto bad = ParseBootstrapCredentials("r1,only-id", "r1");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.find("only-id"), std::string::npos);
}

}  // namespace
}  // namespace firn::access
