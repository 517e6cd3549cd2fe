// Shared fixture for the ManagementService tests: a real SQLite store in a temporary
// directory, realm "r1" bootstrapped (admin "alice" holding service_admin, catalog "wh" with
// catalog_admin granted to service_admin), a started AccessState and the service under test.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "access/access_state.h"
#include "access/bootstrap.h"
#include "access/management_service.h"
#include "store/sqlite/sqlite_catalog_store.h"
#include "access_test_support.h"

namespace firn::access::testing {

class ManagementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("firn-mgmt-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto opened = store::OpenSqliteStore((dir_ / "firn.db").string());
    ASSERT_TRUE(opened) << opened.error().message;
    store_ = std::shared_ptr<store::CatalogStore>(std::move(*opened));
    auto boot = Bootstrap(*store_, AliceOptions(), testing::TestKeks(), kNow * 1000);
    ASSERT_TRUE(boot) << boot.error().message;
    AccessStateOptions so;
    so.propagation_timeout = std::chrono::milliseconds(200);
    state_ = std::make_unique<AccessState>(store_, "test-instance", SharedTestKeks(), so);
    ASSERT_TRUE(state_->Start());
    ManagementOptions mo;
    mo.scrypt = auth::ScryptParams{.log2_n = 4, .r = 8, .p = 1};  // fast hashes in tests
    service_ = std::make_unique<ManagementService>(*store_, *store_, *state_, mo);
  }

  void TearDown() override {
    service_.reset();
    if (state_) state_->Stop();
    state_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  // A context for `principal` in realm r1, judged by the current grants.
  ManagementContext As(const std::string& principal) {
    auto caller = std::make_shared<auth::Caller>();
    caller->subject.realm = "r1";
    caller->subject.principal = principal;
    caller->subject.all_roles = true;
    caller->grants = state_->Current()->grants;
    ManagementContext ctx;
    ctx.realm = "r1";
    ctx.caller = std::move(caller);
    ctx.client = "unit-test";
    ctx.request_id = "req-1";
    return ctx;
  }
  ManagementContext Admin() { return As("alice"); }

  // Adds principal `name` holding principal roles `roles` (created when missing), directly in
  // the store, and makes it visible.
  void AddUser(const std::string& name, std::vector<std::string> roles = {}) {
    AddPrincipal(*store_, "r1", name, std::move(roles));
    ASSERT_TRUE(state_->Refresh());
  }

  // Gives principal role `principal_role` a new catalog role in `catalog` holding `p` on it.
  void GrantOnCatalog(const std::string& principal_role, const std::string& catalog,
                      auth::Privilege p) {
    const std::string role = principal_role + "_" + catalog;
    auto ctx = Admin();
    if (!state_->Current()->FindRealm("r1")->principal_roles.contains(principal_role)) {
      ASSERT_TRUE(service_->CreatePrincipalRole(ctx, principal_role, {}));
    }
    auto created = service_->CreateCatalogRole(ctx, catalog, role, {});
    ASSERT_TRUE(created || created.error().kind == ErrorKind::kAlreadyExists);
    ASSERT_TRUE(service_->AssignCatalogRole(ctx, principal_role, catalog, role));
    GrantResource g;
    g.type = auth::SecurableType::kCatalog;
    g.privilege = p;
    ASSERT_TRUE(service_->AddGrant(ctx, catalog, role, g));
  }

  std::vector<store::AuditEntry> Audit(const std::string& operation) {
    store::AuditFilter f;
    f.realm = "r1";
    f.operation = operation;
    f.limit = 1000;
    auto rows = store_->ListAudit(f);
    EXPECT_TRUE(rows);
    return rows ? *rows : std::vector<store::AuditEntry>{};
  }

  static boost::json::object CatalogJson(const std::string& name,
                                         const std::string& storage = "FILE") {
    boost::json::object props;
    props["default-base-location"] = "file:///tmp/" + name;
    boost::json::object sc;
    sc["storageType"] = storage;
    sc["allowedLocations"] = boost::json::array{"file:///tmp/" + name};
    boost::json::object c;
    c["type"] = "INTERNAL";
    c["name"] = name;
    c["properties"] = std::move(props);
    c["storageConfigInfo"] = std::move(sc);
    return c;
  }

  std::filesystem::path dir_;
  std::shared_ptr<store::CatalogStore> store_;
  std::unique_ptr<AccessState> state_;
  std::unique_ptr<ManagementService> service_;
};

}  // namespace firn::access::testing
