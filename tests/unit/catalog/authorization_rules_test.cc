// catalog/authorization.h against auth/operations.h: every table update type has its own
// privilege row (walked over metadata::TableUpdate), the securable comes from the operation's
// rule, and an operation passed to the wrong entry point fails closed.
#include "catalog/authorization.h"

#include <gtest/gtest.h>

#include <set>
#include <string_view>
#include <variant>

#include "catalog_test_support.h"

namespace firn::catalog {
namespace {

using auth::Operation;
using P = auth::Privilege;

template <typename Variant>
struct Alternatives;
template <typename... U>
struct Alternatives<std::variant<U...>> {
  // Every alternative's action, row lookup at run time, and row resolved at compile time.
  static std::vector<std::tuple<std::string_view, std::optional<P>, P>> Rows() {
    return {{U::kAction, auth::FindUpdateActionPrivilege(U::kAction), kUpdatePrivilegeOf<U>}...};
  }
};

TEST(UpdatePrivilegesTest, EveryTableUpdateTypeHasItsOwnRow) {
  const auto rows = Alternatives<metadata::TableUpdate>::Rows();
  ASSERT_EQ(rows.size(), std::variant_size_v<metadata::TableUpdate>);
  for (const auto& [action, found, compiled] : rows) {
    ASSERT_TRUE(found) << action << " has no row";
    EXPECT_EQ(*found, compiled) << action;
  }
}

// The reverse direction: no row for an action Firn does not parse (a row for a removed or
// misspelt action would never be used, and would hide the real one's absence).
TEST(UpdatePrivilegesTest, EveryRowNamesATableUpdateType) {
  std::set<std::string_view> actions;
  for (const auto& row : Alternatives<metadata::TableUpdate>::Rows()) {
    actions.insert(std::get<0>(row));
  }
  for (const auto& row : auth::kUpdateActionPrivileges) {
    EXPECT_TRUE(actions.contains(row.action)) << row.action;
  }
  EXPECT_EQ(actions.size(), std::size(auth::kUpdateActionPrivileges));
}

TEST(UpdatePrivilegesTest, AChangeNeedsTheUnionOfItsUpdatesRows) {
  std::vector<metadata::TableUpdate> append = {metadata::AddSnapshot{},
                                               metadata::SetSnapshotRef{}};
  EXPECT_EQ(UpdatePrivileges(append),
            (auth::PrivilegeSet{P::kTABLE_ADD_SNAPSHOT, P::kTABLE_SET_SNAPSHOT_REF}));
  std::vector<metadata::TableUpdate> evolve = {metadata::AddSchema{},
                                               metadata::SetCurrentSchema{},
                                               metadata::SetProperties{}};
  EXPECT_EQ(UpdatePrivileges(evolve),
            (auth::PrivilegeSet{P::kTABLE_ADD_SCHEMA, P::kTABLE_SET_CURRENT_SCHEMA,
                                P::kTABLE_SET_PROPERTIES}));
  EXPECT_EQ(UpdatePrivileges({metadata::RemoveSchemas{}}),
            auth::PrivilegeSet{P::kTABLE_WRITE_PROPERTIES});
  EXPECT_EQ(UpdatePrivileges({}), auth::PrivilegeSet{P::kTABLE_WRITE_PROPERTIES});
}

// bob (catalog_test_support.h) with exactly the grants each case names; authorisation is pure,
// so the fixture's store stays empty.
class AuthorizationRulesTest : public testing::CatalogFixture {};

TEST_F(AuthorizationRulesTest, TheOperationsRuleChoosesTableOrView) {
  const store::Identifier id{{"db"}, "v"};
  RequestContext reader = Bob({{testing::ViewRes({"db"}, "v"), P::kVIEW_READ_PROPERTIES}});
  EXPECT_TRUE(AuthorizeObjectOp(reader, Operation::kLoadView, id));
  auto as_table = AuthorizeObjectOp(reader, Operation::kLoadTable, id);
  ASSERT_FALSE(as_table);
  EXPECT_EQ(as_table.error().kind, ErrorKind::kForbidden);
  EXPECT_NE(as_table.error().message.find("missing TABLE_READ_PROPERTIES on table db.v"),
            std::string::npos)
      << as_table.error().message;
  // A parent-namespace rule checks the namespace, whatever the object.
  RequestContext creator = Bob({{testing::NsRes({"db"}), P::kTABLE_CREATE}});
  EXPECT_TRUE(AuthorizeObjectOp(creator, Operation::kCreateTable, {{"db"}, "new"}));
  EXPECT_FALSE(AuthorizeObjectOp(creator, Operation::kCreateView, {{"db"}, "new"}));
}

TEST_F(AuthorizationRulesTest, AnOperationWithoutACatalogSecurableFailsClosed) {
  // Everything in the catalog; still no answer but a refusal for a management operation.
  RequestContext all = Bob({{testing::CatalogRes(), P::kCATALOG_MANAGE_CONTENT}});
  ASSERT_TRUE(AuthorizeObjectOp(all, Operation::kDropTablePurge, {{"db"}, "t"}));
  for (Operation op : {Operation::kCreateCatalog, Operation::kGetCatalog, Operation::kGetConfig}) {
    auto st = AuthorizeObjectOp(all, op, {{"db"}, "t"});
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().kind, ErrorKind::kInternal);
  }
  auto ns = AuthorizeNamespaceOp(all, Operation::kLoadTable, {"db"});
  ASSERT_FALSE(ns);
  EXPECT_EQ(ns.error().kind, ErrorKind::kInternal);
  auto list = AuthorizeList(all, Operation::kDropTable, {"db"});
  ASSERT_FALSE(list);
  EXPECT_EQ(list.error().kind, ErrorKind::kInternal);
  EXPECT_TRUE(AuthorizeNamespaceOp(all, Operation::kCreateNamespace, {"db"}));
}

}  // namespace
}  // namespace firn::catalog
