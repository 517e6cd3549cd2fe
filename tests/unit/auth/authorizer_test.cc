#include "auth/authorizer.h"

#include <gtest/gtest.h>

namespace firn::auth {
namespace {

using P = Privilege;

Resource Catalog(std::string realm, std::string catalog) {
  return Resource{std::move(realm), std::move(catalog), {}, std::nullopt, std::nullopt};
}
Resource Namespace(std::vector<std::string> ns, std::string catalog = "wild") {
  return Resource{"POLARIS", std::move(catalog), std::move(ns), std::nullopt, std::nullopt};
}
Resource Table(std::vector<std::string> ns, std::string table, std::string catalog = "wild",
               std::string realm = "POLARIS") {
  return Resource{std::move(realm), std::move(catalog), std::move(ns), std::move(table),
                  std::nullopt};
}
Resource View(std::vector<std::string> ns, std::string view) {
  return Resource{"POLARIS", "wild", std::move(ns), std::nullopt, std::move(view)};
}
Subject Alice() { return Subject{"POLARIS", "alice", {}, true}; }

// alice → principal role "analyst" → catalog role "reader" in catalog "wild".
class AuthorizerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(b_.AssignPrincipalRole("POLARIS", "alice", "analyst"));
    ASSERT_TRUE(b_.AssignCatalogRole("POLARIS", "analyst", "wild", "reader"));
  }
  void GrantOn(const Resource& r, P p, std::string role = "reader") {
    ASSERT_TRUE(b_.Grant(r, role, p));
  }
  bool Can(P p, const Resource& r, const Subject& s = Alice()) {
    if (!snap_) snap_ = b_.Build(1);
    return Authorize(*snap_, s, p, r).allowed;
  }

  GrantSnapshotBuilder b_;
  std::shared_ptr<const GrantSnapshot> snap_;
};

TEST_F(AuthorizerTest, NoGrantDenies) {
  EXPECT_FALSE(Can(P::kTABLE_READ_PROPERTIES, Table({"ns"}, "t")));
  EXPECT_FALSE(Can(P::kNAMESPACE_LIST, Catalog("POLARIS", "wild")));
}

TEST_F(AuthorizerTest, GrantOnParentNamespaceAppliesToChildTables) {
  GrantOn(Namespace({"a"}), P::kTABLE_READ_DATA);
  EXPECT_TRUE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t")));
  EXPECT_TRUE(Can(P::kTABLE_READ_DATA, Table({"a", "b", "c"}, "deep")));
  EXPECT_FALSE(Can(P::kTABLE_READ_DATA, Table({"x"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_READ_DATA, Table({}, "a")));  // a table named like the namespace
}

TEST_F(AuthorizerTest, GrantOnChildDoesNotApplyToParentOrSibling) {
  GrantOn(Namespace({"a", "b"}), P::kNAMESPACE_READ_PROPERTIES);
  EXPECT_TRUE(Can(P::kNAMESPACE_READ_PROPERTIES, Namespace({"a", "b"})));
  EXPECT_TRUE(Can(P::kNAMESPACE_READ_PROPERTIES, Namespace({"a", "b", "c"})));
  EXPECT_FALSE(Can(P::kNAMESPACE_READ_PROPERTIES, Namespace({"a"})));
  EXPECT_FALSE(Can(P::kNAMESPACE_READ_PROPERTIES, Namespace({"a", "c"})));
}

TEST_F(AuthorizerTest, GrantOnTableAppliesToThatTableOnly) {
  GrantOn(Table({"a"}, "t"), P::kTABLE_WRITE_DATA);
  EXPECT_TRUE(Can(P::kTABLE_WRITE_DATA, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_WRITE_DATA, Table({"a"}, "u")));
  EXPECT_FALSE(Can(P::kTABLE_LIST, Namespace({"a"})));
}

TEST_F(AuthorizerTest, CatalogGrantAppliesEverywhereInTheCatalog) {
  GrantOn(Catalog("POLARIS", "wild"), P::kCATALOG_MANAGE_CONTENT);
  for (P p : {P::kNAMESPACE_CREATE, P::kNAMESPACE_DROP, P::kNAMESPACE_LIST, P::kTABLE_CREATE,
              P::kTABLE_DROP, P::kTABLE_READ_DATA, P::kTABLE_WRITE_DATA,
              P::kTABLE_WRITE_PROPERTIES, P::kTABLE_ADD_SNAPSHOT, P::kVIEW_CREATE,
              P::kVIEW_READ_PROPERTIES, P::kCATALOG_MANAGE_METADATA}) {
    EXPECT_TRUE(Can(p, Table({"a", "b"}, "t"))) << PrivilegeName(p);
  }
  // …but not access management: CATALOG_MANAGE_ACCESS is separate.
  EXPECT_FALSE(Can(P::kCATALOG_ROLE_CREATE, Catalog("POLARIS", "wild")));
  EXPECT_FALSE(Can(P::kTABLE_MANAGE_GRANTS_ON_SECURABLE, Table({"a"}, "t")));
}

TEST_F(AuthorizerTest, ManageMetadataDoesNotGrantDataAccess) {
  GrantOn(Catalog("POLARIS", "wild"), P::kCATALOG_MANAGE_METADATA);
  EXPECT_TRUE(Can(P::kTABLE_CREATE, Table({"a"}, "t")));
  EXPECT_TRUE(Can(P::kTABLE_WRITE_PROPERTIES, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_WRITE_DATA, Table({"a"}, "t")));
}

TEST_F(AuthorizerTest, WriteDataImpliesReadDataAndPropertiesButNotDrop) {
  GrantOn(Namespace({"a"}), P::kTABLE_WRITE_DATA);
  EXPECT_TRUE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t")));
  EXPECT_TRUE(Can(P::kTABLE_READ_PROPERTIES, Table({"a"}, "t")));
  EXPECT_TRUE(Can(P::kTABLE_WRITE_PROPERTIES, Table({"a"}, "t")));
  EXPECT_TRUE(Can(P::kTABLE_LIST, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_DROP, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_CREATE, Namespace({"a"})));
}

TEST_F(AuthorizerTest, ReadDataDoesNotImplyWriteData) {
  GrantOn(Namespace({"a"}), P::kTABLE_READ_DATA);
  EXPECT_TRUE(Can(P::kTABLE_READ_PROPERTIES, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_WRITE_DATA, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_WRITE_PROPERTIES, Table({"a"}, "t")));
}

TEST_F(AuthorizerTest, FullMetadataCoversCreateDropListPropertiesButNotData) {
  GrantOn(Namespace({"a"}), P::kTABLE_FULL_METADATA);
  for (P p : {P::kTABLE_CREATE, P::kTABLE_DROP, P::kTABLE_LIST, P::kTABLE_READ_PROPERTIES,
              P::kTABLE_WRITE_PROPERTIES, P::kTABLE_SET_PROPERTIES, P::kTABLE_ADD_SNAPSHOT}) {
    EXPECT_TRUE(Can(p, Table({"a"}, "t"))) << PrivilegeName(p);
  }
  EXPECT_FALSE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kNAMESPACE_CREATE, Namespace({"a"})));
}

TEST_F(AuthorizerTest, ManageStructureCoversStructuralUpdatesButNotSnapshots) {
  GrantOn(Table({"a"}, "t"), P::kTABLE_MANAGE_STRUCTURE);
  EXPECT_TRUE(Can(P::kTABLE_ADD_SCHEMA, Table({"a"}, "t")));
  EXPECT_TRUE(Can(P::kTABLE_SET_PROPERTIES, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_ADD_SNAPSHOT, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_SET_SNAPSHOT_REF, Table({"a"}, "t")));
  EXPECT_FALSE(Can(P::kTABLE_READ_PROPERTIES, Table({"a"}, "t")));
}

TEST_F(AuthorizerTest, NamespacePrivilegeImplicationMatchesPolaris) {
  GrantOn(Namespace({"a"}), P::kNAMESPACE_WRITE_PROPERTIES);
  EXPECT_TRUE(Can(P::kNAMESPACE_LIST, Namespace({"a"})));
  EXPECT_TRUE(Can(P::kNAMESPACE_READ_PROPERTIES, Namespace({"a"})));
  EXPECT_FALSE(Can(P::kNAMESPACE_DROP, Namespace({"a"})));
  EXPECT_FALSE(Can(P::kTABLE_LIST, Namespace({"a"})));
}

TEST_F(AuthorizerTest, ViewPrivileges) {
  GrantOn(View({"a"}, "v"), P::kVIEW_WRITE_PROPERTIES);
  EXPECT_TRUE(Can(P::kVIEW_READ_PROPERTIES, View({"a"}, "v")));
  EXPECT_FALSE(Can(P::kVIEW_DROP, View({"a"}, "v")));
  EXPECT_FALSE(Can(P::kVIEW_READ_PROPERTIES, View({"a"}, "w")));
  EXPECT_FALSE(Can(P::kTABLE_READ_PROPERTIES, Table({"a"}, "v")));  // tables ≠ views
}

TEST_F(AuthorizerTest, OtherCatalogDenies) {
  GrantOn(Catalog("POLARIS", "wild"), P::kCATALOG_MANAGE_CONTENT);
  ASSERT_TRUE(b_.Grant(Catalog("POLARIS", "tame"), "reader", P::kCATALOG_MANAGE_CONTENT));
  // "reader" in catalog "tame" is a different catalog role; alice holds only wild's.
  EXPECT_TRUE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t", "wild")));
  EXPECT_FALSE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t", "tame")));
  EXPECT_FALSE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t", "nowhere")));
}

TEST_F(AuthorizerTest, OtherRealmDenies) {
  GrantOn(Catalog("POLARIS", "wild"), P::kCATALOG_MANAGE_CONTENT);
  ASSERT_TRUE(b_.AssignPrincipalRole("OTHER", "alice", "analyst"));
  ASSERT_TRUE(b_.AssignCatalogRole("OTHER", "analyst", "wild", "reader"));
  // Same names in realm OTHER, but no grants there.
  EXPECT_FALSE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t", "wild", "OTHER"),
                   Subject{"OTHER", "alice", {}, true}));
  // A subject of one realm never reaches another realm's resources.
  EXPECT_FALSE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t", "wild", "POLARIS"),
                   Subject{"OTHER", "alice", {}, true}));
}

TEST_F(AuthorizerTest, OnlyActivatedAndAssignedPrincipalRolesCount) {
  ASSERT_TRUE(b_.AssignPrincipalRole("POLARIS", "alice", "writer"));
  ASSERT_TRUE(b_.AssignCatalogRole("POLARIS", "writer", "wild", "editor"));
  GrantOn(Namespace({"a"}), P::kTABLE_WRITE_DATA, "editor");
  GrantOn(Namespace({"a"}), P::kTABLE_READ_DATA, "reader");
  Subject only_analyst{"POLARIS", "alice", {"analyst"}, false};
  EXPECT_TRUE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t"), only_analyst));
  EXPECT_FALSE(Can(P::kTABLE_WRITE_DATA, Table({"a"}, "t"), only_analyst));
  EXPECT_TRUE(Can(P::kTABLE_WRITE_DATA, Table({"a"}, "t")));
  // A token claiming a role the principal no longer holds gains nothing.
  Subject bob{"POLARIS", "bob", {"writer"}, false};
  EXPECT_FALSE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t"), bob));
}

TEST_F(AuthorizerTest, ServiceAdminOnRootManagesCatalogsButNotContent) {
  ASSERT_TRUE(b_.AssignPrincipalRole("POLARIS", "root", "service_admin"));
  ASSERT_TRUE(b_.GrantOnRoot("POLARIS", "service_admin", P::kSERVICE_MANAGE_ACCESS));
  Subject root{"POLARIS", "root", {}, true};
  Resource service{"POLARIS", "", {}, std::nullopt, std::nullopt};
  EXPECT_TRUE(Can(P::kCATALOG_CREATE, service, root));
  EXPECT_TRUE(Can(P::kPRINCIPAL_CREATE, service, root));
  EXPECT_TRUE(Can(P::kCATALOG_READ_PROPERTIES, Catalog("POLARIS", "wild"), root));
  EXPECT_FALSE(Can(P::kTABLE_READ_DATA, Table({"a"}, "t"), root));
  EXPECT_FALSE(Can(P::kCATALOG_CREATE, service));  // alice is no admin
}

TEST_F(AuthorizerTest, DenyNamesMissingPrivilegeAndResource) {
  auto snap = b_.Build(7);
  EXPECT_EQ(snap->version(), 7u);
  auto d = Authorize(*snap, Alice(), P::kTABLE_WRITE_DATA, Table({"db", "sales"}, "orders"));
  EXPECT_FALSE(d);
  EXPECT_EQ(d.missing, P::kTABLE_WRITE_DATA);
  EXPECT_EQ(d.resource, "table db.sales.orders in catalog 'wild'");
}

TEST_F(AuthorizerTest, AuthorizeAllNeedsEveryPrivilege) {
  GrantOn(Namespace({"a"}), P::kTABLE_DROP);
  auto snap = b_.Build(1);
  auto d = AuthorizeAll(*snap, Alice(), {P::kTABLE_DROP, P::kTABLE_WRITE_DATA},
                        Table({"a"}, "t"));
  EXPECT_FALSE(d);
  EXPECT_EQ(d.missing, P::kTABLE_WRITE_DATA);
  EXPECT_TRUE(AuthorizeAll(*snap, Alice(), {P::kTABLE_DROP}, Table({"a"}, "t")));
}

TEST_F(AuthorizerTest, RejectsGrantsThatDoNotApplyToTheSecurable) {
  EXPECT_FALSE(b_.Grant(Table({"a"}, "t"), "reader", P::kNAMESPACE_CREATE));
  EXPECT_FALSE(b_.Grant(Table({"a"}, "t"), "reader", P::kCATALOG_MANAGE_CONTENT));
  EXPECT_FALSE(b_.Grant(View({"a"}, "v"), "reader", P::kTABLE_READ_DATA));
  EXPECT_FALSE(b_.Grant(Namespace({"a"}), "reader", P::kCATALOG_READ_PROPERTIES));
  EXPECT_FALSE(b_.GrantOnRoot("POLARIS", "r", P::kTABLE_READ_DATA));
  EXPECT_FALSE(b_.Grant(Namespace({""}), "reader", P::kTABLE_LIST));
  EXPECT_TRUE(b_.Grant(Namespace({"a"}), "reader", P::kTABLE_CREATE));
}

TEST(PrivilegeTest, NamesRoundTripAndImplicationIsDirectional) {
  for (int i = 0; i < kPrivilegeCount; ++i) {
    auto p = static_cast<Privilege>(i);
    EXPECT_EQ(ParsePrivilege(PrivilegeName(p)), p);
    EXPECT_TRUE(Satisfies(p, p));
  }
  EXPECT_FALSE(ParsePrivilege("TABLE_EAT"));
  // Direction matters: a super-privilege satisfies its subordinates, never the reverse.
  EXPECT_TRUE(Satisfies(P::kTABLE_WRITE_DATA, P::kTABLE_READ_DATA));
  EXPECT_FALSE(Satisfies(P::kTABLE_READ_DATA, P::kTABLE_WRITE_DATA));
  EXPECT_TRUE(Satisfies(P::kCATALOG_MANAGE_CONTENT, P::kCATALOG_MANAGE_METADATA));
  EXPECT_FALSE(Satisfies(P::kCATALOG_MANAGE_METADATA, P::kCATALOG_MANAGE_CONTENT));
  EXPECT_FALSE(Satisfies(P::kSERVICE_MANAGE_ACCESS, P::kTABLE_READ_DATA));
}

}  // namespace
}  // namespace firn::auth
