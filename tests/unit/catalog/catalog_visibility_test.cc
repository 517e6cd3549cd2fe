// Lists show only what the caller may see; grants are inherited down the tree; no caller or
// no grant snapshot means authorisation is off.
#include <gtest/gtest.h>

#include "catalog_test_support.h"
#include "metadata/table_update.h"

namespace firn::catalog::testing {
namespace {

using P = Privilege;
using store::Namespace;

class CatalogVisibilityTest : public CatalogFixture {};

TEST_F(CatalogVisibilityTest, GrantOnOneTableShowsOnlyItAndItsNamespace) {
  Populate();
  RequestContext bob = Bob({{TableRes({"db"}, "t"), P::kTABLE_READ_DATA}});
  auto namespaces = svc().ListNamespaces(bob, {}, {});
  ASSERT_TRUE(namespaces) << namespaces.error().message;
  EXPECT_EQ(namespaces->items, (std::vector<Namespace>{{"db"}}));
  auto tables = svc().ListTables(bob, {"db"}, {});
  ASSERT_TRUE(tables) << tables.error().message;
  EXPECT_EQ(tables->items, (std::vector<std::string>{"t"}));
  auto views = svc().ListViews(bob, {"db"}, {});
  ASSERT_TRUE(views) << views.error().message;
  EXPECT_TRUE(views->items.empty());
  // Nothing granted at or beneath db2: its listing is refused, not shown empty.
  auto other = svc().ListTables(bob, {"db2"}, {});
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().kind, ErrorKind::kForbidden);
}

TEST_F(CatalogVisibilityTest, NestedListingShowsOnlyGrantedChildren) {
  Populate();
  ASSERT_TRUE(svc().CreateNamespace(admin_, {"db", "a"}, {}));
  ASSERT_TRUE(svc().CreateNamespace(admin_, {"db", "b"}, {}));
  RequestContext bob = Bob({{NsRes({"db", "b"}), P::kNAMESPACE_READ_PROPERTIES}});
  auto children = svc().ListNamespaces(bob, {"db"}, {});
  ASSERT_TRUE(children) << children.error().message;
  EXPECT_EQ(children->items, (std::vector<Namespace>{{"db", "b"}}));
}

TEST_F(CatalogVisibilityTest, ListPrivilegeShowsEverything) {
  Populate();
  RequestContext bob =
      Bob({{CatalogRes(), P::kNAMESPACE_LIST}, {NsRes({"db"}), P::kTABLE_LIST}});
  auto namespaces = svc().ListNamespaces(bob, {}, {});
  ASSERT_TRUE(namespaces);
  EXPECT_EQ(namespaces->items, (std::vector<Namespace>{{"db"}, {"db2"}, {"e"}}));
  auto tables = svc().ListTables(bob, {"db"}, {});
  ASSERT_TRUE(tables);
  EXPECT_EQ(tables->items, (std::vector<std::string>{"t", "u"}));
}

TEST_F(CatalogVisibilityTest, FilteredListingPagesAfterFiltering) {
  for (int i = 0; i < 20; ++i) {
    std::string name = (i < 10 ? "n0" : "n") + std::to_string(i);
    ASSERT_TRUE(svc().CreateNamespace(admin_, {name}, {}));
  }
  RequestContext bob = Bob({{NsRes({"n03"}), P::kNAMESPACE_READ_PROPERTIES},
                            {NsRes({"n07"}), P::kNAMESPACE_READ_PROPERTIES},
                            {NsRes({"n15"}), P::kNAMESPACE_READ_PROPERTIES}});
  std::vector<Namespace> seen;
  store::PageRequest page{std::nullopt, 2};
  for (int pages = 0; pages < 10; ++pages) {
    auto got = svc().ListNamespaces(bob, {}, page);
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_LE(got->items.size(), 2u);
    seen.insert(seen.end(), got->items.begin(), got->items.end());
    if (!got->next_token) break;
    page.token = got->next_token;
  }
  EXPECT_EQ(seen, (std::vector<Namespace>{{"n03"}, {"n07"}, {"n15"}}));
  // The first page is full: filtering happened before paging.
  auto first = svc().ListNamespaces(bob, {}, {std::nullopt, 2});
  ASSERT_TRUE(first);
  EXPECT_EQ(first->items, (std::vector<Namespace>{{"n03"}, {"n07"}}));
  EXPECT_TRUE(first->next_token.has_value());
}

TEST_F(CatalogVisibilityTest, GrantOnNamespaceCoversItsTablesOnly) {
  Populate();
  ASSERT_TRUE(svc().CreateTable(admin_, {"db2"}, [] {
    CreateTableRequest r;
    r.name = "x";
    r.schema = TableSchema();
    return r;
  }()));
  RequestContext bob = Bob({{NsRes({"db"}), P::kTABLE_WRITE_DATA}});
  EXPECT_TRUE(svc().LoadTable(bob, {{"db"}, "t"}));
  EXPECT_TRUE(svc().LoadTable(bob, {{"db"}, "u"}));
  TableChange change{{{"db"}, "u"}, {}, {metadata::SetProperties{{{"k", "v"}}}}};
  EXPECT_TRUE(svc().UpdateTable(bob, change));
  auto other = svc().LoadTable(bob, {{"db2"}, "x"});
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().kind, ErrorKind::kForbidden);
  // TABLE_WRITE_DATA does not include dropping.
  auto drop = svc().DropTable(bob, {{"db"}, "t"}, false);
  ASSERT_FALSE(drop);
  EXPECT_EQ(drop.error().kind, ErrorKind::kForbidden);
}

TEST_F(CatalogVisibilityTest, DenialNamesPrivilegeAndResource) {
  Populate();
  auto st = svc().UpdateTable(Bob({}), TableChange{{{"db"}, "t"}, {}, {}});
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message,
            "Principal 'bob' is not authorized: missing TABLE_WRITE_PROPERTIES on table db.t in "
            "catalog 'c'");
}

TEST_F(CatalogVisibilityTest, NoCallerOrNoSnapshotMeansAuthorizationOff) {
  Populate();
  EXPECT_TRUE(svc().LoadTable(admin_, {{"db"}, "t"}));
  RequestContext anonymous = Bob({});
  auto caller = std::make_shared<auth::Caller>(*anonymous.caller);
  caller->grants = nullptr;
  anonymous.caller = caller;
  EXPECT_TRUE(svc().LoadTable(anonymous, {{"db"}, "t"}));
  auto listed = svc().ListNamespaces(anonymous, {}, {});
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->items.size(), 3u);
}

TEST_F(CatalogVisibilityTest, DefaultLocationComesFromTheRequestCatalog) {
  RequestContext ctx = admin_;
  auto info = std::make_shared<CatalogInfo>(CatalogInfo{"c", "file://" + (dir_ / "elsewhere").string()});
  ctx.catalog = info;
  auto props = svc().CreateNamespace(ctx, {"db"}, {});
  ASSERT_TRUE(props);
  EXPECT_EQ(props->at("location"), "file://" + (dir_ / "elsewhere" / "db").string());
  auto fallback = svc().LoadNamespaceMetadata(admin_, {"db"});
  ASSERT_TRUE(fallback);
  EXPECT_EQ(fallback->at("location"), "file://" + (warehouse_ / "db").string());
}

}  // namespace
}  // namespace firn::catalog::testing
