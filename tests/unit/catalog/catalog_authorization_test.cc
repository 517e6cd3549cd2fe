// The CatalogService authorization matrix: every method, a caller without the privilege (403,
// nothing changed — also for objects that do not exist) and a caller with exactly it.
#include <gtest/gtest.h>

#include <functional>

#include "catalog_test_support.h"
#include "metadata/table_update.h"
#include "metadata/view_update.h"

namespace firn::catalog::testing {
namespace {

using P = Privilege;
using store::Identifier;
using store::ObjectKind;

template <typename T>
Status AsStatus(const Result<T>& r) {
  if (r) return Ok();
  return std::unexpected(r.error());
}

TableChange SetProp(Identifier id) {
  return TableChange{std::move(id), {}, {metadata::SetProperties{{{"k", "v"}}}}};
}

struct Case {
  std::string name;
  // Runs the operation; `fx` gives access to the fixture (pointers, locations).
  std::function<Status(CatalogFixture& fx, const RequestContext& ctx)> run;
  Grants needed;
};

CreateTableRequest NewTable(std::string name, bool staged = false) {
  CreateTableRequest r;
  r.name = std::move(name);
  r.schema = TableSchema();
  r.stage_create = staged;
  return r;
}

// Each case names existing objects (Populate) so the allowed run can succeed.
std::vector<Case> Cases() {
  return {
      {"createNamespace",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().CreateNamespace(c, {"db", "child"}, {}));
       },
       {{NsRes({"db"}), P::kNAMESPACE_CREATE}}},
      {"loadNamespaceMetadata",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().LoadNamespaceMetadata(c, {"db"}));
       },
       {{NsRes({"db"}), P::kNAMESPACE_READ_PROPERTIES}}},
      {"namespaceExists",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().NamespaceExists(c, {"db"});
       },
       {{NsRes({"db"}), P::kNAMESPACE_LIST}}},
      {"listNamespaces",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().ListNamespaces(c, {"db"}, {}));
       },
       {{NsRes({"db"}), P::kNAMESPACE_LIST}}},
      {"dropNamespace",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().DropNamespace(c, {"e"});
       },
       {{NsRes({"e"}), P::kNAMESPACE_DROP}}},
      {"updateProperties",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().UpdateProperties(c, {"db"}, {}, {{"k", "v"}}));
       },
       {{NsRes({"db"}), P::kNAMESPACE_WRITE_PROPERTIES}}},
      {"listTables",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().ListTables(c, {"db2"}, {}));
       },
       {{NsRes({"db2"}), P::kTABLE_LIST}}},
      {"createTable",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().CreateTable(c, {"db"}, NewTable("n")));
       },
       {{NsRes({"db"}), P::kTABLE_CREATE}}},
      {"createTableStaged",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().CreateTable(c, {"db"}, NewTable("n", true)));
       },
       {{NsRes({"db"}), P::kTABLE_CREATE}}},
      {"loadTable",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().LoadTable(c, {{"db"}, "t"}));
       },
       {{TableRes({"db"}, "t"), P::kTABLE_READ_PROPERTIES}}},
      {"tableExists",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().TableExists(c, {{"db"}, "t"});
       },
       {{TableRes({"db"}, "t"), P::kTABLE_LIST}}},
      {"updateTable",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().UpdateTable(c, SetProp({{"db"}, "t"})));
       },
       {{TableRes({"db"}, "t"), P::kTABLE_SET_PROPERTIES}}},
      {"dropTable",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().DropTable(c, {{"db"}, "t"}, false);
       },
       {{TableRes({"db"}, "t"), P::kTABLE_DROP}}},
      {"dropTablePurge",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().DropTable(c, {{"db"}, "t"}, true);
       },
       {{TableRes({"db"}, "t"), P::kTABLE_DROP}, {TableRes({"db"}, "t"), P::kTABLE_WRITE_DATA}}},
      {"renameTable",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().RenameTable(c, {{"db"}, "t"}, {{"e"}, "t2"});
       },
       // TABLE_CREATE also satisfies the rule's TABLE_LIST on the destination.
       {{TableRes({"db"}, "t"), P::kTABLE_DROP}, {NsRes({"e"}), P::kTABLE_CREATE}}},
      {"registerTable",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().RegisterTable(
             c, {{"db"}, "r"}, fx.DetachedTable(), false));
       },
       {{NsRes({"db"}), P::kTABLE_CREATE}}},
      {"registerTableOverwrite",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().RegisterTable(
             c, {{"db"}, "u"}, fx.DetachedTable(), true));
       },
       {{NsRes({"db"}), P::kTABLE_CREATE}, {TableRes({"db"}, "u"), P::kTABLE_WRITE_PROPERTIES}}},
      {"reportMetricsScan",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().ReportMetrics(c, {{"db"}, "t"}, "scan-report", "{}");
       },
       {{TableRes({"db"}, "t"), P::kTABLE_READ_DATA}}},
      {"reportMetricsCommit",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().ReportMetrics(c, {{"db"}, "t"}, "commit-report", "{}");
       },
       {{TableRes({"db"}, "t"), P::kTABLE_WRITE_DATA}}},
      {"commitTransaction",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().CommitTransaction(c, {SetProp({{"db"}, "t"}), SetProp({{"db"}, "u"})});
       },
       {{TableRes({"db"}, "t"), P::kTABLE_WRITE_PROPERTIES},
        {TableRes({"db"}, "u"), P::kTABLE_WRITE_PROPERTIES},
        {NsRes({"db"}), P::kTABLE_CREATE}}},
      {"listViews",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().ListViews(c, {"db2"}, {}));
       },
       {{NsRes({"db2"}), P::kVIEW_LIST}}},
      {"createView",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().CreateView(c, {"db"}, ViewRequest("nv")));
       },
       {{NsRes({"db"}), P::kVIEW_CREATE}}},
      {"loadView",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().LoadView(c, {{"db"}, "v"}));
       },
       {{ViewRes({"db"}, "v"), P::kVIEW_READ_PROPERTIES}}},
      {"viewExists",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().ViewExists(c, {{"db"}, "v"});
       },
       {{ViewRes({"db"}, "v"), P::kVIEW_LIST}}},
      {"replaceView",
       [](CatalogFixture& fx, const RequestContext& c) {
         ViewChange change{{{"db"}, "v"}, {}, {metadata::SetProperties{{{"k", "v"}}}}};
         return AsStatus(fx.svc().ReplaceView(c, change));
       },
       {{ViewRes({"db"}, "v"), P::kVIEW_WRITE_PROPERTIES}}},
      {"dropView",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().DropView(c, {{"db"}, "v"});
       },
       {{ViewRes({"db"}, "v"), P::kVIEW_DROP}}},
      {"renameView",
       [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().RenameView(c, {{"db"}, "v"}, {{"e"}, "v2"});
       },
       {{ViewRes({"db"}, "v"), P::kVIEW_DROP}, {NsRes({"e"}), P::kVIEW_CREATE}}},
      {"registerView",
       [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().RegisterView(c, {{"db"}, "rv"}, fx.DetachedView()));
       },
       {{NsRes({"db"}), P::kVIEW_CREATE}}},
  };
}

// The same operations aimed at names that do not exist (namespace "ghost"): still 403.
std::vector<Case> MissingCases() {
  const Identifier t{{"ghost"}, "t"};
  const Identifier v{{"ghost"}, "v"};
  return {
      {"createNamespace", [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().CreateNamespace(c, {"ghost", "x"}, {})); }, {}},
      {"loadNamespaceMetadata", [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().LoadNamespaceMetadata(c, {"ghost"})); }, {}},
      {"namespaceExists", [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().NamespaceExists(c, {"ghost"}); }, {}},
      {"listNamespaces", [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().ListNamespaces(c, {"ghost"}, {})); }, {}},
      {"dropNamespace", [](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().DropNamespace(c, {"ghost"}); }, {}},
      {"updateProperties", [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().UpdateProperties(c, {"ghost"}, {}, {{"k", "v"}})); }, {}},
      {"listTables", [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().ListTables(c, {"ghost"}, {})); }, {}},
      {"createTable", [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().CreateTable(c, {"ghost"}, NewTable("n"))); }, {}},
      {"loadTable", [t](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().LoadTable(c, t)); }, {}},
      {"tableExists", [t](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().TableExists(c, t); }, {}},
      {"updateTable", [t](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().UpdateTable(c, SetProp(t))); }, {}},
      {"updateTableCreate", [t](CatalogFixture& fx, const RequestContext& c) {
         TableChange change{t, {metadata::AssertCreate{}}, {}};
         return AsStatus(fx.svc().UpdateTable(c, change)); }, {}},
      {"dropTablePurge", [t](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().DropTable(c, t, true); }, {}},
      {"renameTable", [t](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().RenameTable(c, t, {{"ghost2"}, "t"}); }, {}},
      {"registerTable", [t](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().RegisterTable(c, t, "file:///nowhere.json", true)); }, {}},
      {"reportMetrics", [t](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().ReportMetrics(c, t, "scan-report", "{}"); }, {}},
      {"commitTransaction", [t](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().CommitTransaction(c, {SetProp(t)}); }, {}},
      {"listViews", [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().ListViews(c, {"ghost"}, {})); }, {}},
      {"createView", [](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().CreateView(c, {"ghost"}, ViewRequest("nv"))); }, {}},
      {"loadView", [v](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().LoadView(c, v)); }, {}},
      {"viewExists", [v](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().ViewExists(c, v); }, {}},
      {"replaceView", [v](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().ReplaceView(c, ViewChange{v, {}, {}})); }, {}},
      {"dropView", [v](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().DropView(c, v); }, {}},
      {"renameView", [v](CatalogFixture& fx, const RequestContext& c) {
         return fx.svc().RenameView(c, v, {{"ghost2"}, "v"}); }, {}},
      {"registerView", [v](CatalogFixture& fx, const RequestContext& c) {
         return AsStatus(fx.svc().RegisterView(c, v, "file:///nowhere.json")); }, {}},
  };
}

class CatalogAuthorizationTest : public CatalogFixture,
                                 public ::testing::WithParamInterface<Case> {};

TEST_P(CatalogAuthorizationTest, WithoutPrivilegeIsForbiddenAndChangesNothing) {
  Populate();
  PopulateDetached();
  const CatalogState before = State();
  Status st = GetParam().run(*this, Bob({}));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kForbidden) << st.error().message;
  EXPECT_EQ(st.error().message.rfind("Principal 'bob' is not authorized: missing ", 0), 0u)
      << st.error().message;
  EXPECT_TRUE(State() == before);
}

TEST_P(CatalogAuthorizationTest, WithExactlyTheNeededPrivilegeSucceeds) {
  Populate();
  PopulateDetached();
  Status st = GetParam().run(*this, Bob(GetParam().needed));
  EXPECT_TRUE(st) << st.error().message;
}

// Each needed grant alone is not enough where a case needs several (rename: both sides;
// transaction: every table; purge: drop and write).
INSTANTIATE_TEST_SUITE_P(Operations, CatalogAuthorizationTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

class CatalogAuthorizationAllGrantsTest : public CatalogFixture,
                                          public ::testing::WithParamInterface<Case> {};

std::vector<Case> MultiGrantCases() {
  std::vector<Case> out;
  for (auto& c : Cases()) {
    if (c.needed.size() > 1) out.push_back(std::move(c));
  }
  return out;
}

TEST_P(CatalogAuthorizationAllGrantsTest, EveryNeededGrantIsRequired) {
  const Grants& needed = GetParam().needed;
  Populate();
  for (size_t skip = 0; skip < needed.size(); ++skip) {
    Grants partial;
    for (size_t i = 0; i < needed.size(); ++i) {
      if (i != skip) partial.push_back(needed[i]);
    }
    const CatalogState before = State();
    Status st = GetParam().run(*this, Bob(partial));
    ASSERT_FALSE(st) << "succeeded without grant #" << skip;
    EXPECT_EQ(st.error().kind, ErrorKind::kForbidden) << st.error().message;
    EXPECT_TRUE(State() == before);
  }
}

INSTANTIATE_TEST_SUITE_P(Operations, CatalogAuthorizationAllGrantsTest,
                         ::testing::ValuesIn(MultiGrantCases()),
                         [](const auto& info) { return info.param.name; });

class CatalogAuthorizationMissingTest : public CatalogFixture,
                                        public ::testing::WithParamInterface<Case> {};

TEST_P(CatalogAuthorizationMissingTest, MissingObjectIsForbiddenNotNotFound) {
  Populate();
  const CatalogState before = State();
  Status st = GetParam().run(*this, Bob({}));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kForbidden) << st.error().message;
  EXPECT_TRUE(State() == before);
}

INSTANTIATE_TEST_SUITE_P(Operations, CatalogAuthorizationMissingTest,
                         ::testing::ValuesIn(MissingCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace firn::catalog::testing
