#include "management_test_support.h"

namespace firn::access::testing {
namespace {

using ManagementPrincipalsTest = ManagementTest;

const PrincipalInfo& Stored(AccessState& state, const std::string& name) {
  const PrincipalInfo* p = state.Current()->FindPrincipal("r1", name);
  EXPECT_TRUE(p);
  static const PrincipalInfo kNone;
  return p ? *p : kNone;
}

TEST_F(ManagementPrincipalsTest, CreateShowsTheSecretOnceAndStoresOnlyItsHash) {
  auto created = service_->CreatePrincipal(Admin(), "carol", {{"dept", "eng"}});
  ASSERT_TRUE(created) << created.error().message;
  const std::string secret = created->credentials.client_secret.Reveal();
  EXPECT_EQ(secret.size(), 43u);
  EXPECT_EQ(created->credentials.client_id.size(), 16u);
  EXPECT_EQ(created->principal.client_id, created->credentials.client_id);
  EXPECT_EQ(created->principal.entity_version, 1);
  EXPECT_EQ(created->principal.properties.at("dept"), "eng");

  const PrincipalInfo& p = Stored(*state_, "carol");
  EXPECT_TRUE(p.secret_hash.starts_with("$scrypt$"));
  EXPECT_TRUE(auth::VerifySecret(Secret(secret), p.secret_hash));
  EXPECT_EQ(p.credential_version, 1);
  // Nothing at rest contains the secret: not the records, not the audit trail.
  auto rows = store_->LoadAccess();
  ASSERT_TRUE(rows);
  for (const auto& r : rows->records) EXPECT_EQ(r.body.find(secret), std::string::npos);
  for (const auto& a : Audit("createPrincipal")) {
    EXPECT_EQ(a.detail.find(secret), std::string::npos);
    EXPECT_EQ(a.object, "principal carol");
  }
  // Reads never return it again.
  auto got = service_->GetPrincipal(Admin(), "carol");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->client_id, created->credentials.client_id);
}

TEST_F(ManagementPrincipalsTest, CreateTwiceIsAConflict) {
  ASSERT_TRUE(service_->CreatePrincipal(Admin(), "carol", {}));
  auto again = service_->CreatePrincipal(Admin(), "carol", {});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists);
}

TEST_F(ManagementPrincipalsTest, RotateKeepsThePreviousSecretValidUntilTheNextRotation) {
  auto created = service_->CreatePrincipal(Admin(), "carol", {});
  ASSERT_TRUE(created);
  Secret s1 = created->credentials.client_secret;
  auto r1 = service_->RotateCredentials(Admin(), "carol");
  ASSERT_TRUE(r1) << r1.error().message;
  Secret s2 = r1->credentials.client_secret;
  EXPECT_NE(s1.Reveal(), s2.Reveal());
  EXPECT_EQ(r1->credentials.client_id, created->credentials.client_id);
  {
    const PrincipalInfo& p = Stored(*state_, "carol");
    EXPECT_TRUE(auth::VerifySecret(s2, p.secret_hash));
    EXPECT_TRUE(auth::VerifySecret(s1, p.previous_secret_hash));
    EXPECT_EQ(p.credential_version, 2);  // tokens issued before are refused
  }
  auto r2 = service_->RotateCredentials(Admin(), "carol");
  ASSERT_TRUE(r2);
  const PrincipalInfo& p = Stored(*state_, "carol");
  EXPECT_FALSE(auth::VerifySecret(s1, p.secret_hash));
  EXPECT_FALSE(auth::VerifySecret(s1, p.previous_secret_hash));
  EXPECT_TRUE(auth::VerifySecret(s2, p.previous_secret_hash));
  EXPECT_EQ(p.credential_version, 3);
}

TEST_F(ManagementPrincipalsTest, AnyPrincipalMayRotateItsOwnSecretButNotAnothers) {
  AddUser("bob");
  ASSERT_TRUE(service_->CreatePrincipal(Admin(), "carol", {}));
  EXPECT_TRUE(service_->RotateCredentials(As("bob"), "bob"));
  auto other = service_->RotateCredentials(As("bob"), "carol");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().kind, ErrorKind::kForbidden);
  EXPECT_NE(other.error().message.find("PRINCIPAL_ROTATE_CREDENTIALS"), std::string::npos);
}

TEST_F(ManagementPrincipalsTest, ResetRevokesEverySecretAndToken) {
  auto created = service_->CreatePrincipal(Admin(), "carol", {});
  ASSERT_TRUE(created);
  ASSERT_TRUE(service_->RotateCredentials(Admin(), "carol"));
  auto reset = service_->ResetCredentials(Admin(), "carol", {});
  ASSERT_TRUE(reset) << reset.error().message;
  const PrincipalInfo& p = Stored(*state_, "carol");
  EXPECT_TRUE(p.previous_secret_hash.empty());
  EXPECT_FALSE(auth::VerifySecret(created->credentials.client_secret, p.secret_hash));
  EXPECT_TRUE(auth::VerifySecret(reset->credentials.client_secret, p.secret_hash));
  EXPECT_NE(reset->credentials.client_id, created->credentials.client_id);
  EXPECT_EQ(p.credential_version, 3);
}

TEST_F(ManagementPrincipalsTest, ResetAcceptsSuppliedCredentials) {
  ASSERT_TRUE(service_->CreatePrincipal(Admin(), "carol", {}));
  CredentialsReset req;
  req.client_id = "carol-client";
  req.client_secret = Secret("a-long-enough-chosen-secret");
  auto reset = service_->ResetCredentials(Admin(), "carol", req);
  ASSERT_TRUE(reset) << reset.error().message;
  EXPECT_EQ(reset->credentials.client_id, "carol-client");
  EXPECT_EQ(reset->credentials.client_secret.Reveal(), "a-long-enough-chosen-secret");
  const PrincipalInfo& p = Stored(*state_, "carol");
  EXPECT_EQ(p.client_id, "carol-client");
  EXPECT_TRUE(auth::VerifySecret(Secret("a-long-enough-chosen-secret"), p.secret_hash));

  CredentialsReset weak;
  weak.client_secret = Secret("short");
  EXPECT_EQ(service_->ResetCredentials(Admin(), "carol", weak).error().kind,
            ErrorKind::kBadRequest);
  CredentialsReset taken;
  taken.client_id = "alice-id";
  EXPECT_EQ(service_->ResetCredentials(Admin(), "carol", taken).error().kind,
            ErrorKind::kAlreadyExists);
}

TEST_F(ManagementPrincipalsTest, UpdateChecksTheEntityVersion) {
  ASSERT_TRUE(service_->CreatePrincipal(Admin(), "carol", {}));
  auto updated = service_->UpdatePrincipal(Admin(), "carol", {1, {{"k", "v"}}});
  ASSERT_TRUE(updated) << updated.error().message;
  EXPECT_EQ(updated->entity_version, 2);
  EXPECT_EQ(updated->properties.at("k"), "v");
  auto stale = service_->UpdatePrincipal(Admin(), "carol", {1, {{"k", "w"}}});
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind, ErrorKind::kCommitFailed);
  EXPECT_EQ(service_->UpdatePrincipal(Admin(), "nobody", {1, {}}).error().kind,
            ErrorKind::kNotFound);
}

TEST_F(ManagementPrincipalsTest, DeleteRemovesThePrincipalAndItsRoleAssignments) {
  AddUser("bob", {"readers"});
  ASSERT_TRUE(service_->DeletePrincipal(Admin(), "bob"));
  EXPECT_EQ(service_->GetPrincipal(Admin(), "bob").error().kind, ErrorKind::kNotFound);
  auto assignees = service_->ListAssigneePrincipals(Admin(), "readers");
  ASSERT_TRUE(assignees);
  EXPECT_TRUE(assignees->empty());
  // Re-created, the name does not inherit the old assignment.
  ASSERT_TRUE(service_->CreatePrincipal(Admin(), "bob", {}));
  auto roles = service_->ListPrincipalRolesAssigned(Admin(), "bob");
  ASSERT_TRUE(roles);
  EXPECT_TRUE(roles->empty());
  EXPECT_EQ(service_->DeletePrincipal(Admin(), "alice").error().kind, ErrorKind::kBadRequest);
}

TEST_F(ManagementPrincipalsTest, ListReturnsEveryPrincipalWithoutSecrets) {
  ASSERT_TRUE(service_->CreatePrincipal(Admin(), "carol", {}));
  auto listed = service_->ListPrincipals(Admin());
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].name, "alice");
  EXPECT_EQ((*listed)[1].name, "carol");
}

TEST_F(ManagementPrincipalsTest, CallerWithoutServiceManageAccessIsRefused) {
  AddUser("bob");
  auto bob = As("bob");
  EXPECT_EQ(service_->ListPrincipals(bob).error().kind, ErrorKind::kForbidden);
  auto created = service_->CreatePrincipal(bob, "mallory", {});
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kForbidden);
  EXPECT_NE(created.error().message.find("PRINCIPAL_CREATE"), std::string::npos);
  EXPECT_EQ(service_->GetPrincipal(bob, "alice").error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(service_->UpdatePrincipal(bob, "alice", {1, {}}).error().kind,
            ErrorKind::kForbidden);
  EXPECT_EQ(service_->DeletePrincipal(bob, "alice").error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(service_->ResetCredentials(bob, "alice", {}).error().kind, ErrorKind::kForbidden);
  EXPECT_FALSE(state_->Current()->FindPrincipal("r1", "mallory"));
}

TEST_F(ManagementPrincipalsTest, AuthenticationOffAllowsEverything) {
  ManagementContext anonymous;
  anonymous.realm = "r1";
  EXPECT_TRUE(service_->CreatePrincipal(anonymous, "carol", {}));
  auto rows = Audit("createPrincipal");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].principal, "");
}

}  // namespace
}  // namespace firn::access::testing
