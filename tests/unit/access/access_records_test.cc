#include "access/access_records.h"

#include <gtest/gtest.h>

#include "access_test_support.h"

namespace firn::access {
namespace {

using auth::Privilege;
using auth::SecurableType;

TEST(AccessRecordsTest, PrincipalRoundTrips) {
  PrincipalInfo p;
  p.id = "id-1";
  p.name = "alice";
  p.client_id = "c0ffee";
  p.secret_hash = "$scrypt$x";
  p.previous_secret_hash = "$scrypt$y";
  p.credential_version = 4;
  p.properties = {{"team", "data"}};
  store::AccessRecord r = EncodePrincipal("r1", p);
  EXPECT_EQ(r.kind, store::AccessKind::kPrincipal);
  EXPECT_EQ(r.name, "alice");
  EXPECT_EQ(r.realm, "r1");
  r.entity_version = 7;
  r.created_ms = 11;
  auto back = DecodePrincipal(r);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->id, "id-1");
  EXPECT_EQ(back->client_id, "c0ffee");
  EXPECT_EQ(back->secret_hash, "$scrypt$x");
  EXPECT_EQ(back->previous_secret_hash, "$scrypt$y");
  EXPECT_EQ(back->credential_version, 4);
  EXPECT_EQ(back->properties.at("team"), "data");
  EXPECT_EQ(back->entity_version, 7);
  EXPECT_EQ(back->created_ms, 11);
}

TEST(AccessRecordsTest, WrongKindIsRefused) {
  store::AccessRecord r = EncodePrincipalRole("r1", RoleInfo{.name = "x"});
  EXPECT_FALSE(DecodePrincipal(r));
  r.kind = store::AccessKind::kPrincipal;
  r.body = "not json";
  EXPECT_FALSE(DecodePrincipal(r));
}

TEST(AccessRecordsTest, SigningKeyRoundTripsSealed) {
  auth::StoredKey k{"kid1", "EdDSA", Secret("-----BEGIN PRIVATE KEY-----PEM"), 5, true, 0};
  const auto& keks = testing::TestKeks();
  auto r = EncodeSigningKey("r", k, keks);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "kid1");
  EXPECT_EQ(r->body.find("PRIVATE KEY"), std::string::npos) << r->body;
  EXPECT_EQ(r->body.find("PEM"), std::string::npos) << r->body;
  EXPECT_EQ(InspectSigningKey(*r)->kek_id, keks.primary().id());
  auto back = DecodeSigningKey(*r, keks);
  ASSERT_TRUE(back) << back.error().detail;
  EXPECT_EQ(back->alg, "EdDSA");
  EXPECT_EQ(back->private_key_pem.Reveal(), "-----BEGIN PRIVATE KEY-----PEM");
  EXPECT_TRUE(back->active);
  EXPECT_EQ(back->created_at, 5);
}

// The attack: with write access to the rows but not the KEK, move realm r's sealed key into
// another realm (or under another kid, or claim another alg) so it signs there. None opens.
TEST(AccessRecordsTest, ASealedKeyMovedToAnotherRowDoesNotOpen) {
  auth::StoredKey k{"kid1", "EdDSA", Secret("PEM"), 5, true, 0};
  const auto& keks = testing::TestKeks();
  const store::AccessRecord r = *EncodeSigningKey("victim", k, keks);
  store::AccessRecord other_realm = r;
  other_realm.realm = "attacker";
  store::AccessRecord other_kid = r;
  other_kid.name = "kid2";
  store::AccessRecord other_alg = r;
  other_alg.body.replace(other_alg.body.find("EdDSA"), 5, "ES256");
  ASSERT_TRUE(DecodeSigningKey(r, keks));  // control: in place it opens
  for (const auto& moved : {other_realm, other_kid, other_alg}) {
    auto opened = DecodeSigningKey(moved, keks);
    ASSERT_FALSE(opened) << moved.realm << "/" << moved.name;
    EXPECT_EQ(opened.error().kind, ErrorKind::kNotAuthorized);
    EXPECT_EQ(opened.error().detail.find("PEM"), std::string::npos);
  }
}

TEST(AccessRecordsTest, AnotherKekCannotOpenAndAPlaintextRowStillReads) {
  auth::StoredKey k{"kid1", "EdDSA", Secret("PEM"), 5, true, 0};
  auto r = *EncodeSigningKey("r", k, testing::TestKeks());
  auth::KeyEncryptionKeys other(*auth::KeyEncryptionKey::FromText(Secret(std::string(32, 'o'))));
  auto wrong = DecodeSigningKey(r, other);
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().detail.find(testing::TestKeks().primary().id()), std::string::npos);

  store::AccessRecord legacy = r;
  legacy.body = R"({"alg":"EdDSA","private_key_pem":"PEM","created_at":5,"active":true})";
  EXPECT_EQ(InspectSigningKey(legacy)->kek_id, "");
  auto read = DecodeSigningKey(legacy, other);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->private_key_pem.Reveal(), "PEM");
  legacy.body = R"({"alg":"EdDSA","active":true})";
  EXPECT_FALSE(InspectSigningKey(legacy));
  EXPECT_FALSE(DecodeSigningKey(legacy, other));
}

TEST(AccessRecordsTest, CatalogBodyCarriesLocationsAndStorage) {
  catalog::CatalogInfo info;
  info.name = "wh";
  info.base_location = "file:///data/wh";
  info.properties = {{"k", "v"}};
  auto r = EncodeCatalog("r", "wh", CatalogBodyFromInfo(info));
  auto back = DecodeCatalog(r);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->info->name, "wh");
  EXPECT_EQ(back->info->base_location, "file:///data/wh");
  EXPECT_EQ(back->info->storage_type, "FILE");
  ASSERT_EQ(back->info->allowed_locations.size(), 1u);
  EXPECT_EQ(back->info->properties.at("k"), "v");
  EXPECT_EQ(back->body, r.body);
}

TEST(AccessRecordsTest, AssignmentsRoundTrip) {
  auto r = EncodePrincipalRoleGrant("r", {"alice", "eng"});
  auto a = DecodePrincipalRoleGrant(r);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->principal, "alice");
  EXPECT_EQ(a->principal_role, "eng");
  auto r2 = EncodeCatalogRoleGrant("r", {"wh", "eng", "reader"});
  EXPECT_EQ(r2.scope, "wh");
  auto b = DecodeCatalogRoleGrant(r2);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->catalog, "wh");
  EXPECT_EQ(b->catalog_role, "reader");
}

TEST(AccessRecordsTest, PrivilegeGrantRoundTripsWithUniqueNames) {
  PrivilegeGrantInfo g{"wh", "reader", SecurableType::kTable, {"db", "x"}, "t",
                       Privilege::kTABLE_READ_DATA};
  auto r = EncodePrivilegeGrant("r", g);
  auto back = DecodePrivilegeGrant(r);
  ASSERT_TRUE(back) << back.error().detail;
  EXPECT_EQ(*back, g);
  PrivilegeGrantInfo other = g;
  other.namespace_levels = {"db.x"};
  EXPECT_NE(PrivilegeGrantName(g), PrivilegeGrantName(other));
}

TEST(AccessRecordsTest, ValidationRefusesUngrantableOrMisscoped) {
  PrivilegeGrantInfo g{"wh", "reader", SecurableType::kNamespace, {}, "",
                       Privilege::kNAMESPACE_LIST};
  EXPECT_FALSE(ValidatePrivilegeGrant(g));  // namespace without levels
  g.namespace_levels = {"db"};
  EXPECT_TRUE(ValidatePrivilegeGrant(g));
  g.privilege = Privilege::kSERVICE_MANAGE_ACCESS;
  EXPECT_FALSE(ValidatePrivilegeGrant(g));
  PrivilegeGrantInfo root{"", "service_admin", SecurableType::kRoot, {}, "",
                          Privilege::kSERVICE_MANAGE_ACCESS};
  EXPECT_TRUE(ValidatePrivilegeGrant(root));
  root.catalog = "wh";
  EXPECT_FALSE(ValidatePrivilegeGrant(root));
}

}  // namespace
}  // namespace firn::access
