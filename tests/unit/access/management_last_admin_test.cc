// A realm always keeps a principal holding service_admin: revoking it from, or deleting, the
// last one is refused.
#include "management_test_support.h"

namespace firn::access::testing {
namespace {

using ManagementLastAdminTest = ManagementTest;

TEST_F(ManagementLastAdminTest, RevokingServiceAdminFromTheLastHolderIsRefused) {
  auto revoked = service_->RevokePrincipalRole(Admin(), "alice", "service_admin");
  ASSERT_FALSE(revoked);
  EXPECT_EQ(revoked.error().kind, ErrorKind::kBadRequest);
  EXPECT_NE(revoked.error().message.find("last principal"), std::string::npos);
  ASSERT_TRUE(state_->Refresh());
  auto roles = service_->ListPrincipalRolesAssigned(Admin(), "alice");
  ASSERT_TRUE(roles);
  ASSERT_EQ(roles->size(), 1u);
  EXPECT_EQ((*roles)[0].name, "service_admin");
}

TEST_F(ManagementLastAdminTest, RevokingServiceAdminWorksWhileAnotherHolderRemains) {
  AddUser("bob", {"service_admin"});
  ASSERT_TRUE(service_->RevokePrincipalRole(Admin(), "alice", "service_admin"));
  // bob is now the last one.
  auto again = service_->RevokePrincipalRole(As("bob"), "bob", "service_admin");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kBadRequest);
}

TEST_F(ManagementLastAdminTest, DeletingTheLastServiceAdminIsRefused) {
  // Authentication off, so "cannot delete itself" is not what refuses it.
  ManagementContext anonymous;
  anonymous.realm = "r1";
  auto deleted = service_->DeletePrincipal(anonymous, "alice");
  ASSERT_FALSE(deleted);
  EXPECT_EQ(deleted.error().kind, ErrorKind::kBadRequest);
  EXPECT_NE(deleted.error().message.find("service_admin"), std::string::npos);
  AddUser("bob", {"service_admin"});
  EXPECT_TRUE(service_->DeletePrincipal(anonymous, "alice"));
}

TEST_F(ManagementLastAdminTest, OtherPrincipalsAndRolesAreUnaffected) {
  AddUser("carol", {"readers"});
  EXPECT_TRUE(service_->RevokePrincipalRole(Admin(), "carol", "readers"));
  EXPECT_TRUE(service_->DeletePrincipal(Admin(), "carol"));
}

}  // namespace
}  // namespace firn::access::testing
