#include "management_test_support.h"

namespace firn::access::testing {
namespace {

using auth::Privilege;
using ManagementRolesTest = ManagementTest;

std::vector<std::string> Names(const std::vector<RoleView>& roles) {
  std::vector<std::string> out;
  for (const auto& r : roles) out.push_back(r.name);
  return out;
}

TEST_F(ManagementRolesTest, PrincipalRoleCrudAndVersionConflict) {
  auto ctx = Admin();
  auto created = service_->CreatePrincipalRole(ctx, "engineers", {{"team", "a"}});
  ASSERT_TRUE(created) << created.error().message;
  EXPECT_EQ(created->entity_version, 1);
  EXPECT_FALSE(created->federated);
  EXPECT_EQ(service_->CreatePrincipalRole(ctx, "engineers", {}).error().kind,
            ErrorKind::kAlreadyExists);
  auto got = service_->GetPrincipalRole(ctx, "engineers");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->properties.at("team"), "a");
  auto listed = service_->ListPrincipalRoles(ctx);
  ASSERT_TRUE(listed);
  EXPECT_EQ(Names(*listed), (std::vector<std::string>{"engineers", "service_admin"}));

  auto updated = service_->UpdatePrincipalRole(ctx, "engineers", {1, {{"team", "b"}}});
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->entity_version, 2);
  EXPECT_EQ(service_->UpdatePrincipalRole(ctx, "engineers", {1, {}}).error().kind,
            ErrorKind::kCommitFailed);

  ASSERT_TRUE(service_->DeletePrincipalRole(ctx, "engineers"));
  EXPECT_EQ(service_->GetPrincipalRole(ctx, "engineers").error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(service_->DeletePrincipalRole(ctx, "service_admin").error().kind,
            ErrorKind::kBadRequest);
}

TEST_F(ManagementRolesTest, AssignAndRevokePrincipalRoles) {
  auto ctx = Admin();
  AddUser("bob");
  ASSERT_TRUE(service_->CreatePrincipalRole(ctx, "engineers", {}));
  ASSERT_TRUE(service_->AssignPrincipalRole(ctx, "bob", "engineers"));
  ASSERT_TRUE(service_->AssignPrincipalRole(ctx, "bob", "engineers"));  // idempotent
  auto roles = service_->ListPrincipalRolesAssigned(ctx, "bob");
  ASSERT_TRUE(roles);
  EXPECT_EQ(Names(*roles), std::vector<std::string>{"engineers"});
  auto assignees = service_->ListAssigneePrincipals(ctx, "engineers");
  ASSERT_TRUE(assignees);
  ASSERT_EQ(assignees->size(), 1u);
  EXPECT_EQ((*assignees)[0].name, "bob");

  EXPECT_EQ(service_->AssignPrincipalRole(ctx, "bob", "ghosts").error().kind,
            ErrorKind::kNotFound);
  EXPECT_EQ(service_->AssignPrincipalRole(ctx, "nobody", "engineers").error().kind,
            ErrorKind::kNotFound);

  ASSERT_TRUE(service_->RevokePrincipalRole(ctx, "bob", "engineers"));
  EXPECT_TRUE(service_->ListPrincipalRolesAssigned(ctx, "bob")->empty());
  EXPECT_EQ(service_->RevokePrincipalRole(ctx, "bob", "engineers").error().kind,
            ErrorKind::kNotFound);
}

TEST_F(ManagementRolesTest, CatalogRoleCrudWithinACatalog) {
  auto ctx = Admin();
  auto created = service_->CreateCatalogRole(ctx, "wh", "readers", {{"p", "1"}});
  ASSERT_TRUE(created) << created.error().message;
  EXPECT_EQ(created->entity_version, 1);
  EXPECT_EQ(service_->CreateCatalogRole(ctx, "wh", "readers", {}).error().kind,
            ErrorKind::kAlreadyExists);
  EXPECT_EQ(service_->CreateCatalogRole(ctx, "nope", "readers", {}).error().kind,
            ErrorKind::kNotFound);
  auto listed = service_->ListCatalogRoles(ctx, "wh");
  ASSERT_TRUE(listed);
  EXPECT_EQ(Names(*listed), (std::vector<std::string>{"catalog_admin", "readers"}));
  auto updated = service_->UpdateCatalogRole(ctx, "wh", "readers", {1, {{"p", "2"}}});
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->entity_version, 2);
  EXPECT_EQ(service_->UpdateCatalogRole(ctx, "wh", "readers", {1, {}}).error().kind,
            ErrorKind::kCommitFailed);
  ASSERT_TRUE(service_->DeleteCatalogRole(ctx, "wh", "readers"));
  EXPECT_EQ(service_->GetCatalogRole(ctx, "wh", "readers").error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(service_->DeleteCatalogRole(ctx, "wh", "catalog_admin").error().kind,
            ErrorKind::kBadRequest);
}

TEST_F(ManagementRolesTest, AssignCatalogRoleToPrincipalRoleTakesEffect) {
  auto ctx = Admin();
  AddUser("bob", {"readers"});
  ASSERT_TRUE(service_->CreateCatalogRole(ctx, "wh", "wh_readers", {}));
  GrantResource g{auth::SecurableType::kCatalog, {}, "", Privilege::kTABLE_READ_DATA};
  ASSERT_TRUE(service_->AddGrant(ctx, "wh", "wh_readers", g));

  auth::Resource table{"r1", "wh", {"db"}, std::string("t"), std::nullopt};
  EXPECT_FALSE(auth::Authorize(*As("bob").caller->grants, As("bob").caller->subject,
                               Privilege::kTABLE_READ_DATA, table));
  ASSERT_TRUE(service_->AssignCatalogRole(ctx, "readers", "wh", "wh_readers"));
  // In effect on this instance when the call returns.
  EXPECT_TRUE(auth::Authorize(*As("bob").caller->grants, As("bob").caller->subject,
                              Privilege::kTABLE_READ_DATA, table));
  auto assignees = service_->ListAssigneePrincipalRoles(ctx, "wh", "wh_readers");
  ASSERT_TRUE(assignees);
  EXPECT_EQ(Names(*assignees), std::vector<std::string>{"readers"});
  auto of_role = service_->ListCatalogRolesForPrincipalRole(ctx, "readers", "wh");
  ASSERT_TRUE(of_role);
  EXPECT_EQ(Names(*of_role), std::vector<std::string>{"wh_readers"});

  ASSERT_TRUE(service_->RevokeCatalogRole(ctx, "readers", "wh", "wh_readers"));
  EXPECT_FALSE(auth::Authorize(*As("bob").caller->grants, As("bob").caller->subject,
                               Privilege::kTABLE_READ_DATA, table));
  EXPECT_EQ(service_->RevokeCatalogRole(ctx, "readers", "wh", "wh_readers").error().kind,
            ErrorKind::kNotFound);
}

TEST_F(ManagementRolesTest, CatalogRoleOpsNeedCatalogManageAccessOnThatCatalog) {
  AddUser("bob", {"wh_admins"});
  auto bob = As("bob");
  auto denied = service_->CreateCatalogRole(bob, "wh", "x", {});
  ASSERT_FALSE(denied);
  EXPECT_EQ(denied.error().kind, ErrorKind::kForbidden);
  EXPECT_NE(denied.error().message.find("catalog 'wh'"), std::string::npos);
  EXPECT_EQ(service_->ListCatalogRoles(bob, "wh").error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(service_->AssignCatalogRole(bob, "wh_admins", "wh", "catalog_admin").error().kind,
            ErrorKind::kForbidden);
  EXPECT_EQ(service_->CreatePrincipalRole(bob, "x", {}).error().kind, ErrorKind::kForbidden);

  // CATALOG_MANAGE_ACCESS on wh (and nothing service-wide) is enough inside wh.
  GrantOnCatalog("wh_admins", "wh", Privilege::kCATALOG_MANAGE_ACCESS);
  bob = As("bob");
  EXPECT_TRUE(service_->CreateCatalogRole(bob, "wh", "x", {}));
  EXPECT_TRUE(service_->ListCatalogRoles(bob, "wh"));
  GrantResource g{auth::SecurableType::kNamespace, {"db"}, "", Privilege::kNAMESPACE_LIST};
  EXPECT_TRUE(service_->AddGrant(bob, "wh", "x", g));
  // ... but not service-level administration.
  EXPECT_EQ(service_->CreatePrincipalRole(bob, "x", {}).error().kind, ErrorKind::kForbidden);
}

TEST_F(ManagementRolesTest, DeletingAPrincipalRoleRemovesItsAssignments) {
  auto ctx = Admin();
  AddUser("bob", {"readers"});
  GrantOnCatalog("readers", "wh", Privilege::kTABLE_READ_DATA);
  ASSERT_TRUE(service_->DeletePrincipalRole(ctx, "readers"));
  ASSERT_TRUE(service_->CreatePrincipalRole(ctx, "readers", {}));
  EXPECT_TRUE(service_->ListAssigneePrincipals(ctx, "readers")->empty());
  EXPECT_TRUE(service_->ListCatalogRolesForPrincipalRole(ctx, "readers", "wh")->empty());
}

}  // namespace
}  // namespace firn::access::testing
