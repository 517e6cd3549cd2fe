#include "management_test_support.h"

namespace firn::access::testing {
namespace {

using auth::Privilege;
using auth::SecurableType;

class ManagementGrantsFixture : public ManagementTest {
 protected:
  void SetUp() override {
    ManagementTest::SetUp();
    ASSERT_TRUE(service_->CreateCatalogRole(Admin(), "wh", "r", {}));
  }
};

TEST_F(ManagementGrantsFixture, AddListAndRevokeOnEverySecurable) {
  auto ctx = Admin();
  std::vector<GrantResource> grants = {
      {SecurableType::kCatalog, {}, "", Privilege::kCATALOG_MANAGE_METADATA},
      {SecurableType::kNamespace, {"db", "sub"}, "", Privilege::kNAMESPACE_CREATE},
      {SecurableType::kTable, {"db"}, "orders", Privilege::kTABLE_WRITE_DATA},
      {SecurableType::kView, {"db"}, "v", Privilege::kVIEW_READ_PROPERTIES},
  };
  for (const auto& g : grants) ASSERT_TRUE(service_->AddGrant(ctx, "wh", "r", g));
  ASSERT_TRUE(service_->AddGrant(ctx, "wh", "r", grants[0]));  // twice is fine
  auto listed = service_->ListGrants(ctx, "wh", "r");
  ASSERT_TRUE(listed);
  EXPECT_THAT(*listed, ::testing::UnorderedElementsAreArray(grants));
  for (const auto& g : grants) ASSERT_TRUE(service_->RevokeGrant(ctx, "wh", "r", g, false));
  EXPECT_TRUE(service_->ListGrants(ctx, "wh", "r")->empty());
  EXPECT_EQ(service_->RevokeGrant(ctx, "wh", "r", grants[0], false).error().kind,
            ErrorKind::kNotFound);
}

TEST_F(ManagementGrantsFixture, PrivilegeMustBeGrantableOnTheSecurable) {
  auto ctx = Admin();
  struct Case {
    GrantResource grant;
    bool ok;
  };
  std::vector<Case> cases = {
      {{SecurableType::kView, {"db"}, "v", Privilege::kTABLE_READ_DATA}, false},
      {{SecurableType::kTable, {"db"}, "t", Privilege::kVIEW_DROP}, false},
      {{SecurableType::kTable, {"db"}, "t", Privilege::kNAMESPACE_CREATE}, false},
      {{SecurableType::kNamespace, {"db"}, "", Privilege::kCATALOG_READ_PROPERTIES}, false},
      {{SecurableType::kCatalog, {}, "", Privilege::kSERVICE_MANAGE_ACCESS}, false},
      {{SecurableType::kCatalog, {}, "", Privilege::kPRINCIPAL_CREATE}, false},
      {{SecurableType::kNamespace, {}, "", Privilege::kNAMESPACE_LIST}, false},  // no levels
      {{SecurableType::kTable, {"db"}, "", Privilege::kTABLE_LIST}, false},      // no name
      {{SecurableType::kTable, {"db"}, "t", Privilege::kCATALOG_MANAGE_ACCESS}, true},
      {{SecurableType::kNamespace, {"db"}, "", Privilege::kTABLE_READ_DATA}, true},
      {{SecurableType::kCatalog, {}, "", Privilege::kCATALOG_READ_PROPERTIES}, true},
  };
  for (const auto& c : cases) {
    auto r = service_->AddGrant(ctx, "wh", "r", c.grant);
    EXPECT_EQ(r.has_value(), c.ok) << auth::PrivilegeName(c.grant.privilege);
    if (!c.ok && !r) {
      EXPECT_EQ(r.error().kind, ErrorKind::kBadRequest);
    }
  }
}

TEST_F(ManagementGrantsFixture, GrantsOnMissingCatalogOrRoleAreNotFound) {
  auto ctx = Admin();
  GrantResource g{SecurableType::kCatalog, {}, "", Privilege::kTABLE_LIST};
  EXPECT_EQ(service_->AddGrant(ctx, "nope", "r", g).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(service_->AddGrant(ctx, "wh", "nope", g).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(service_->ListGrants(ctx, "wh", "nope").error().kind, ErrorKind::kNotFound);
}

TEST_F(ManagementGrantsFixture, CascadingRevokeRemovesTheSamePrivilegeBeneath) {
  auto ctx = Admin();
  GrantResource ns{SecurableType::kNamespace, {"db"}, "", Privilege::kTABLE_READ_DATA};
  GrantResource table{SecurableType::kTable, {"db", "s"}, "t", Privilege::kTABLE_READ_DATA};
  GrantResource other{SecurableType::kTable, {"db"}, "u", Privilege::kTABLE_WRITE_DATA};
  GrantResource outside{SecurableType::kTable, {"dbx"}, "t", Privilege::kTABLE_READ_DATA};
  for (const auto& g : {ns, table, other, outside}) {
    ASSERT_TRUE(service_->AddGrant(ctx, "wh", "r", g));
  }
  ASSERT_TRUE(service_->RevokeGrant(ctx, "wh", "r", ns, /*cascade=*/true));
  auto listed = service_->ListGrants(ctx, "wh", "r");
  ASSERT_TRUE(listed);
  EXPECT_THAT(*listed, ::testing::UnorderedElementsAre(other, outside));
}

TEST_F(ManagementGrantsFixture, AGrantTakesEffectBeforeTheCallReturns) {
  auto ctx = Admin();
  AddUser("bob", {"readers"});
  ASSERT_TRUE(service_->AssignCatalogRole(ctx, "readers", "wh", "r"));
  auth::Resource t{"r1", "wh", {"db"}, std::string("t"), std::nullopt};
  auto allowed = [&] {
    auto bob = As("bob");
    return auth::Authorize(*bob.caller->grants, bob.caller->subject,
                           Privilege::kTABLE_READ_DATA, t)
        .allowed;
  };
  EXPECT_FALSE(allowed());
  GrantResource g{SecurableType::kNamespace, {"db"}, "", Privilege::kTABLE_READ_DATA};
  ASSERT_TRUE(service_->AddGrant(ctx, "wh", "r", g));
  EXPECT_TRUE(allowed());
  ASSERT_TRUE(service_->RevokeGrant(ctx, "wh", "r", g, false));
  EXPECT_FALSE(allowed());
}

TEST_F(ManagementGrantsFixture, GrantOpsAreRefusedWithoutCatalogManageAccess) {
  AddUser("bob", {"readers"});
  auto bob = As("bob");
  GrantResource g{SecurableType::kTable, {"db"}, "t", Privilege::kTABLE_WRITE_DATA};
  auto denied = service_->AddGrant(bob, "wh", "r", g);
  ASSERT_FALSE(denied);
  EXPECT_EQ(denied.error().kind, ErrorKind::kForbidden);
  EXPECT_NE(denied.error().message.find("TABLE_MANAGE_GRANTS_ON_SECURABLE"), std::string::npos);
  EXPECT_EQ(service_->RevokeGrant(bob, "wh", "r", g, false).error().kind,
            ErrorKind::kForbidden);
  EXPECT_EQ(service_->ListGrants(bob, "wh", "r").error().kind, ErrorKind::kForbidden);
  EXPECT_TRUE(service_->ListGrants(Admin(), "wh", "r")->empty());
}

TEST_F(ManagementGrantsFixture, AuditListingFiltersAndNeedsServiceManageAccess) {
  auto ctx = Admin();
  GrantResource g{SecurableType::kNamespace, {"db"}, "", Privilege::kNAMESPACE_LIST};
  ASSERT_TRUE(service_->AddGrant(ctx, "wh", "r", g));
  ASSERT_TRUE(service_->RevokeGrant(ctx, "wh", "r", g, false));

  AuditQuery q;
  q.operation = "addGrantToCatalogRole";
  auto page = service_->ListAudit(ctx, q);
  ASSERT_TRUE(page) << page.error().message;
  ASSERT_EQ(page->entries.size(), 1u);
  EXPECT_EQ(page->entries[0].object,
            "grant NAMESPACE_LIST on namespace db to catalog-role r in catalog wh");
  EXPECT_EQ(page->entries[0].principal, "alice");
  EXPECT_EQ(page->entries[0].realm, "r1");

  AuditQuery prefix;
  prefix.object_prefix = "grant NAMESPACE_LIST";
  auto both = service_->ListAudit(ctx, prefix);
  ASSERT_TRUE(both);
  EXPECT_EQ(both->entries.size(), 2u);

  // Paging forward: after_id with a full page carries `next`.
  AuditQuery paged;
  paged.after_id = 0;
  paged.limit = 1;
  auto first = service_->ListAudit(ctx, paged);
  ASSERT_TRUE(first);
  ASSERT_EQ(first->entries.size(), 1u);
  ASSERT_TRUE(first->next);
  paged.after_id = *first->next;
  auto second = service_->ListAudit(ctx, paged);
  ASSERT_TRUE(second);
  ASSERT_EQ(second->entries.size(), 1u);
  EXPECT_GT(second->entries[0].id, first->entries[0].id);

  AddUser("bob");
  EXPECT_EQ(service_->ListAudit(As("bob"), q).error().kind, ErrorKind::kForbidden);
}

}  // namespace
}  // namespace firn::access::testing
