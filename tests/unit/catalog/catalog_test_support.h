// Shared fixture for CatalogService tests: a real SQLite store and the local file object
// store in a fresh temporary directory, a catalog "c" in realm "R", and callers whose grants
// are built directly with GrantSnapshotBuilder.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <boost/json/parse.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "auth/authorizer.h"
#include "auth/caller.h"
#include "catalog/catalog_service.h"
#include "io/object_store.h"
#include "store/sqlite/sqlite_catalog_store.h"

namespace firn::catalog::testing {

namespace fs = std::filesystem;
using auth::Privilege;
using auth::Resource;

inline Resource CatalogRes() { return Resource{"R", "c", {}, std::nullopt, std::nullopt}; }
inline Resource NsRes(std::vector<std::string> ns, std::string catalog = "c") {
  return Resource{"R", std::move(catalog), std::move(ns), std::nullopt, std::nullopt};
}
inline Resource TableRes(std::vector<std::string> ns, std::string t) {
  return Resource{"R", "c", std::move(ns), std::move(t), std::nullopt};
}
inline Resource ViewRes(std::vector<std::string> ns, std::string v) {
  return Resource{"R", "c", std::move(ns), std::nullopt, std::move(v)};
}

using Grants = std::vector<std::pair<Resource, Privilege>>;

inline boost::json::value TableSchema() {
  return boost::json::parse(
      R"({"type":"struct","schema-id":0,"fields":[{"id":1,"name":"x","required":false,"type":"long"}]})");
}

inline CreateViewRequest ViewRequest(std::string name) {
  CreateViewRequest r;
  r.name = std::move(name);
  r.schema = TableSchema();
  r.view_version = boost::json::parse(
      R"({"version-id":1,"schema-id":0,"timestamp-ms":1000,"summary":{"operation":"create"},)"
      R"("representations":[{"type":"sql","sql":"select 1","dialect":"spark"}],)"
      R"("default-namespace":["db"]})");
  return r;
}

// Everything a refused request must leave alone: the files under the warehouse and, in the
// store, every namespace with its properties and every table/view pointer.
struct CatalogState {
  std::map<std::string, uintmax_t> files;
  std::map<std::string, std::string> store;
  friend bool operator==(const CatalogState&, const CatalogState&) = default;
};

class CatalogFixture : public ::testing::Test {
 public:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "firn-catalog-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    warehouse_ = dir_ / "wh";
    fs::create_directories(warehouse_);
    auto opened = store::OpenSqliteStore((dir_ / "catalog.db").string());
    ASSERT_TRUE(opened) << opened.error().message;
    store_ = std::move(*opened);
    service_ = std::make_unique<CatalogService>(
        store_, io::MakeDefaultObjectStore(),
        CatalogRegistry(CatalogInfo{"c", "file://" + warehouse_.string()}),
        CommitOptions{.max_attempts = 2, .base_backoff_ms = 1});
    // The protocol without soft delete: a drop forgets at once (soft delete is tested end to
    // end in tests/integration/test_soft_delete.py).
    service_->SetDropRetention(std::chrono::seconds(0));
    admin_.scope = {"R", "c"};
  }
  void TearDown() override {
    service_.reset();
    store_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  CatalogService& svc() { return *service_; }

  // bob → principal role "eng" → catalog role "r" in "c" holding `grants`. bob also holds a
  // grant in another catalog, so he is a real, authorised principal — just not here.
  RequestContext Bob(const Grants& grants) {
    auth::GrantSnapshotBuilder b;
    EXPECT_TRUE(b.AssignPrincipalRole("R", "bob", "eng"));
    EXPECT_TRUE(b.AssignCatalogRole("R", "eng", "c", "r"));
    EXPECT_TRUE(b.AssignCatalogRole("R", "eng", "other", "r2"));
    EXPECT_TRUE(b.Grant(NsRes({"db"}, "other"), "r2", Privilege::kCATALOG_MANAGE_CONTENT));
    for (const auto& [res, p] : grants) {
      auto st = b.Grant(res, "r", p);
      EXPECT_TRUE(st) << st.error().message;
    }
    auto caller = std::make_shared<auth::Caller>();
    caller->subject = auth::Subject{"R", "bob", {}, true, false};
    caller->grants = b.Build(1);
    RequestContext ctx;
    ctx.scope = {"R", "c"};
    ctx.caller = std::move(caller);
    return ctx;
  }

  // db (tables t, u; view v), db2, and the empty namespace e; created with authorisation off.
  void Populate() {
    ASSERT_TRUE(svc().CreateNamespace(admin_, {"db"}, {}));
    ASSERT_TRUE(svc().CreateNamespace(admin_, {"db2"}, {}));
    ASSERT_TRUE(svc().CreateNamespace(admin_, {"e"}, {}));
    for (const char* name : {"t", "u"}) {
      CreateTableRequest req;
      req.name = name;
      req.schema = TableSchema();
      auto created = svc().CreateTable(admin_, {"db"}, req);
      ASSERT_TRUE(created) << created.error().message;
    }
    auto view = svc().CreateView(admin_, {"db"}, ViewRequest("v"));
    ASSERT_TRUE(view) << view.error().message;
  }

  // The metadata files of a table and a view that were dropped (files kept), whose locations
  // nobody owns any more: what a register may take (Detached*()).
  void PopulateDetached() {
    CreateTableRequest gone;
    gone.name = "gone";
    gone.schema = TableSchema();
    auto table = svc().CreateTable(admin_, {"db"}, gone);
    ASSERT_TRUE(table) << table.error().message;
    detached_table_ = table->metadata_location;
    ASSERT_TRUE(svc().DropTable(admin_, {{"db"}, "gone"}, /*purge=*/false));
    CreateViewRequest gone_view_req = ViewRequest("vgone");
    gone_view_req.properties["gc.enabled"] = "false";  // dropping it keeps its file
    auto gone_view = svc().CreateView(admin_, {"db"}, gone_view_req);
    ASSERT_TRUE(gone_view) << gone_view.error().message;
    detached_view_ = gone_view->metadata_location;
    ASSERT_TRUE(svc().DropView(admin_, {{"db"}, "vgone"}));
  }
  const std::string& DetachedTable() const { return detached_table_; }
  const std::string& DetachedView() const { return detached_view_; }

  std::string Pointer(const store::Identifier& id, store::ObjectKind kind) {
    auto p = store_->LoadPointer(admin_.scope, id, kind);
    return p ? p->metadata_location : "";
  }

  std::string detached_table_;
  std::string detached_view_;

  CatalogState State() {
    CatalogState s;
    for (const auto& e : fs::recursive_directory_iterator(warehouse_)) {
      if (e.is_regular_file()) s.files[e.path().string()] = e.file_size();
    }
    std::vector<store::Namespace> todo{{}};
    while (!todo.empty()) {
      store::Namespace ns = todo.back();
      todo.pop_back();
      std::string key;
      for (const auto& l : ns) key += "/" + l;
      if (!ns.empty()) {
        auto props = store_->LoadNamespace(admin_.scope, ns);
        for (const auto& [k, v] : props.value_or(store::Properties{})) {
          s.store["ns" + key + "#" + k] = v;
        }
        for (auto kind : {store::ObjectKind::kTable, store::ObjectKind::kView}) {
          auto objs = store_->ListObjects(admin_.scope, ns, kind, {});
          for (const auto& name : objs ? objs->items : std::vector<std::string>{}) {
            s.store[std::string(kind == store::ObjectKind::kTable ? "table" : "view") + key +
                    "." + name] = Pointer({ns, name}, kind);
          }
        }
      }
      s.store["ns" + key] = "";
      auto children = store_->ListNamespaces(admin_.scope, ns, {});
      for (auto& c : children ? children->items : std::vector<store::Namespace>{}) {
        todo.push_back(std::move(c));
      }
    }
    return s;
  }

  fs::path dir_;
  fs::path warehouse_;
  std::shared_ptr<store::CatalogStore> store_;
  std::unique_ptr<CatalogService> service_;
  RequestContext admin_;  // authorisation off
};

}  // namespace firn::catalog::testing
