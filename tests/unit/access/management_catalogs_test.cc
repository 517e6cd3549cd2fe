#include <boost/json/serialize.hpp>

#include "management_test_support.h"

namespace firn::access::testing {
namespace {

namespace json = boost::json;
using auth::Privilege;

using ManagementCatalogsTest = ManagementTest;

TEST_F(ManagementCatalogsTest, CreateGetListUpdateDelete) {
  auto ctx = Admin();
  json::object req = CatalogJson("c2", "S3");
  req["storageConfigInfo"].as_object()["roleArn"] = "arn:aws:iam::1:role/r";
  req["storageConfigInfo"].as_object()["endpoint"] = "http://minio:9000";
  auto created = service_->CreateCatalog(ctx, req);
  ASSERT_TRUE(created) << created.error().message;
  EXPECT_EQ((*created)["entityVersion"].as_int64(), 1);
  EXPECT_GT((*created)["createTimestamp"].as_int64(), 0);
  // storageConfigInfo is kept verbatim, including fields Firn does not interpret.
  EXPECT_EQ((*created)["storageConfigInfo"].as_object()["roleArn"].as_string(),
            "arn:aws:iam::1:role/r");
  EXPECT_EQ((*created)["storageConfigInfo"].as_object()["endpoint"].as_string(),
            "http://minio:9000");

  auto got = service_->GetCatalog(ctx, "c2");
  ASSERT_TRUE(got);
  EXPECT_EQ((*got)["properties"].as_object()["default-base-location"].as_string(),
            "file:///tmp/c2");
  // The serving side sees the new catalog at once (CatalogInfo from the snapshot).
  auto info = state_->Current()->FindCatalog("r1", "c2");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->storage_type, "S3");

  auto listed = service_->ListCatalogs(ctx);
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0]["name"].as_string(), "c2");
  EXPECT_EQ((*listed)[1]["name"].as_string(), "wh");

  CatalogUpdate update;
  update.current_entity_version = 1;
  update.properties = Properties{{"owner", "team-a"}};
  auto updated = service_->UpdateCatalog(ctx, "c2", update);
  ASSERT_TRUE(updated) << updated.error().message;
  EXPECT_EQ((*updated)["entityVersion"].as_int64(), 2);
  const auto& props = (*updated)["properties"].as_object();
  EXPECT_EQ(props.at("owner").as_string(), "team-a");
  // The base location survives an update that does not name one (Polaris behaviour).
  EXPECT_EQ(props.at("default-base-location").as_string(), "file:///tmp/c2");

  ASSERT_TRUE(service_->DeleteCatalog(ctx, "c2"));
  auto gone = service_->GetCatalog(ctx, "c2");
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, ErrorKind::kNotFound);
  EXPECT_FALSE(state_->Current()->FindCatalog("r1", "c2"));
}

TEST_F(ManagementCatalogsTest, UpdateWithStaleVersionIsAConflict) {
  auto ctx = Admin();
  ASSERT_TRUE(service_->CreateCatalog(ctx, CatalogJson("c2")));
  CatalogUpdate update;
  update.current_entity_version = 1;
  update.properties = Properties{{"a", "1"}};
  ASSERT_TRUE(service_->UpdateCatalog(ctx, "c2", update));
  auto stale = service_->UpdateCatalog(ctx, "c2", update);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind, ErrorKind::kCommitFailed);
}

TEST_F(ManagementCatalogsTest, UpdateRefusesAChangeOfStorageType) {
  auto ctx = Admin();
  ASSERT_TRUE(service_->CreateCatalog(ctx, CatalogJson("c2")));
  CatalogUpdate update;
  json::object sc;
  sc["storageType"] = "S3";
  update.storage_config_info = sc;
  auto r = service_->UpdateCatalog(ctx, "c2", update);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kBadRequest);
}

TEST_F(ManagementCatalogsTest, CreateGivesServiceAdminACatalogAdminRole) {
  auto ctx = Admin();
  ASSERT_TRUE(service_->CreateCatalog(ctx, CatalogJson("c2")));
  ctx = Admin();  // a new request: judged by the grants the create added
  auto roles = service_->ListCatalogRolesForPrincipalRole(ctx, "service_admin", "c2");
  ASSERT_TRUE(roles);
  ASSERT_EQ(roles->size(), 1u);
  EXPECT_EQ((*roles)[0].name, "catalog_admin");
  auto grants = service_->ListGrants(ctx, "c2", "catalog_admin");
  ASSERT_TRUE(grants);
  std::vector<Privilege> privs;
  for (const auto& g : *grants) privs.push_back(g.privilege);
  EXPECT_THAT(privs, ::testing::UnorderedElementsAre(Privilege::kCATALOG_MANAGE_ACCESS,
                                                     Privilege::kCATALOG_MANAGE_CONTENT));
  // ... so the admin can manage the new catalog's roles right away.
  EXPECT_TRUE(service_->CreateCatalogRole(Admin(), "c2", "readers", {}));
}

TEST_F(ManagementCatalogsTest, CreateValidatesTheRequest) {
  auto ctx = Admin();
  json::object no_base = CatalogJson("c2");
  no_base["properties"].as_object().erase("default-base-location");
  EXPECT_EQ(service_->CreateCatalog(ctx, no_base).error().kind, ErrorKind::kBadRequest);

  json::object bad_storage = CatalogJson("c2", "FTP");
  EXPECT_EQ(service_->CreateCatalog(ctx, bad_storage).error().kind, ErrorKind::kBadRequest);

  json::object no_storage = CatalogJson("c2");
  no_storage.erase("storageConfigInfo");
  EXPECT_EQ(service_->CreateCatalog(ctx, no_storage).error().kind, ErrorKind::kBadRequest);

  json::object external = CatalogJson("c2");
  external["type"] = "EXTERNAL";
  EXPECT_EQ(service_->CreateCatalog(ctx, external).error().kind, ErrorKind::kBadRequest);

  json::object reserved = CatalogJson("System$x");
  EXPECT_EQ(service_->CreateCatalog(ctx, reserved).error().kind, ErrorKind::kBadRequest);

  EXPECT_EQ(service_->CreateCatalog(ctx, CatalogJson("wh")).error().kind,
            ErrorKind::kAlreadyExists);
}

TEST_F(ManagementCatalogsTest, DeleteIsRefusedWhileTheCatalogHasNamespaces) {
  auto ctx = Admin();
  ASSERT_TRUE(service_->CreateCatalog(ctx, CatalogJson("c2")));
  ASSERT_TRUE(store_->CreateNamespace(store::CatalogScope{"r1", "c2"}, {"ns"}, {}));
  auto r = service_->DeleteCatalog(ctx, "c2");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kBadRequest);
  EXPECT_TRUE(service_->GetCatalog(ctx, "c2"));
  ASSERT_TRUE(store_->DropNamespace(store::CatalogScope{"r1", "c2"}, {"ns"}));
  EXPECT_TRUE(service_->DeleteCatalog(ctx, "c2"));
}

TEST_F(ManagementCatalogsTest, DeleteRemovesTheCatalogsRolesAndGrants) {
  auto ctx = Admin();
  ASSERT_TRUE(service_->CreateCatalog(ctx, CatalogJson("c2")));
  ASSERT_TRUE(service_->DeleteCatalog(ctx, "c2"));
  // Re-creating the name starts from a clean slate: exactly the new catalog_admin.
  ASSERT_TRUE(service_->CreateCatalog(ctx, CatalogJson("c2")));
  auto roles = service_->ListCatalogRoles(Admin(), "c2");
  ASSERT_TRUE(roles);
  ASSERT_EQ(roles->size(), 1u);
  EXPECT_EQ((*roles)[0].entity_version, 1);
}

TEST_F(ManagementCatalogsTest, ListShowsOnlyCatalogsTheCallerMaySee) {
  auto ctx = Admin();
  ASSERT_TRUE(service_->CreateCatalog(ctx, CatalogJson("c2")));
  AddUser("bob", {"readers"});
  GrantOnCatalog("readers", "c2", Privilege::kTABLE_READ_DATA);
  auto listed = service_->ListCatalogs(As("bob"));
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0]["name"].as_string(), "c2");

  AddUser("carol");
  auto none = service_->ListCatalogs(As("carol"));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST_F(ManagementCatalogsTest, CallerWithoutServicePrivilegesIsRefusedBeforeAnyCheck) {
  AddUser("bob");
  auto bob = As("bob");
  auto created = service_->CreateCatalog(bob, CatalogJson("c2"));
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kForbidden);
  EXPECT_NE(created.error().message.find("CATALOG_CREATE"), std::string::npos);
  // Refused before the existence check: a missing catalog is 403, not 404.
  EXPECT_EQ(service_->GetCatalog(bob, "nope").error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(service_->DeleteCatalog(bob, "wh").error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(service_->UpdateCatalog(bob, "wh", {}).error().kind, ErrorKind::kForbidden);
  EXPECT_TRUE(service_->GetCatalog(Admin(), "wh"));
  // The refusal is audited, the object untouched.
  auto rows = Audit("createCatalog");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].principal, "bob");
  EXPECT_NE(rows[0].outcome, "success");
}

TEST_F(ManagementCatalogsTest, EveryChangeWritesOneAuditRow) {
  auto ctx = Admin();
  ASSERT_TRUE(service_->CreateCatalog(ctx, CatalogJson("c2")));
  CatalogUpdate update;
  update.properties = Properties{{"a", "b"}};
  ASSERT_TRUE(service_->UpdateCatalog(ctx, "c2", update));
  ASSERT_TRUE(service_->DeleteCatalog(ctx, "c2"));
  for (const char* op : {"createCatalog", "updateCatalog", "deleteCatalog"}) {
    auto rows = Audit(op);
    ASSERT_EQ(rows.size(), 1u) << op;
    EXPECT_EQ(rows[0].principal, "alice");
    EXPECT_EQ(rows[0].catalog, "c2");
    EXPECT_EQ(rows[0].object, "catalog c2");
    EXPECT_EQ(rows[0].client, "unit-test");
    EXPECT_EQ(rows[0].outcome, "success");
  }
}

}  // namespace
}  // namespace firn::access::testing
