// StoredObjectGrants: the plans that make grants follow their table, view or namespace
// (catalog/object_grants.h), run over real encoded grant records.
#include "access/object_grants.h"

#include <gtest/gtest.h>

#include "access/access_records.h"

namespace firn::access {
namespace {

using auth::Privilege;
using auth::SecurableType;
using store::AccessWrite;

const store::CatalogScope kScope{"r1", "wh"};

store::AccessRecord GrantRecord(SecurableType type, std::vector<std::string> ns, std::string name,
                                Privilege privilege, std::string role = "readers") {
  PrivilegeGrantInfo g;
  g.catalog = kScope.catalog;
  g.grantee = std::move(role);
  g.type = type;
  g.namespace_levels = std::move(ns);
  g.name = std::move(name);
  g.privilege = privilege;
  store::AccessRecord r = EncodePrivilegeGrant(kScope.realm, g);
  r.entity_version = 3;
  return r;
}

store::AccessRecord RoleRecord(std::string name) {
  RoleInfo role;
  role.name = std::move(name);
  role.catalog = kScope.catalog;
  return EncodeCatalogRole(kScope.realm, role);
}

PrivilegeGrantInfo Decoded(const AccessWrite& w) {
  auto g = DecodePrivilegeGrant(w.record);
  EXPECT_TRUE(g) << g.error().message;
  return g ? *g : PrivilegeGrantInfo{};
}

TEST(ObjectGrantsTest, ARenameMovesExactlyTheGrantsOnThatObject) {
  const std::vector<store::AccessRecord> records = {
      RoleRecord("readers"),
      GrantRecord(SecurableType::kTable, {"db"}, "t", Privilege::kTABLE_READ_DATA),
      GrantRecord(SecurableType::kTable, {"db"}, "t", Privilege::kTABLE_WRITE_DATA, "writers"),
      // Not on that object: another table, a view of the same name, another namespace.
      GrantRecord(SecurableType::kTable, {"db"}, "t2", Privilege::kTABLE_READ_DATA),
      GrantRecord(SecurableType::kView, {"db"}, "t", Privilege::kVIEW_READ_PROPERTIES),
      GrantRecord(SecurableType::kTable, {"db", "x"}, "t", Privilege::kTABLE_READ_DATA),
      GrantRecord(SecurableType::kNamespace, {"db"}, "", Privilege::kTABLE_READ_DATA),
  };
  StoredObjectGrants grants(nullptr);
  auto change = grants.Rename(kScope, store::ObjectKind::kTable, {{"db"}, "t"},
                              {{"db2"}, "u"})(records, "");
  ASSERT_TRUE(change);
  ASSERT_EQ(change->writes.size(), 4u);
  for (size_t i = 0; i < 4; i += 2) {
    EXPECT_EQ(change->writes[i].op, AccessWrite::Op::kDelete);
    EXPECT_EQ(change->writes[i].expected_version, 3);  // a grant changed meanwhile: no rename
    EXPECT_EQ(change->writes[i + 1].op, AccessWrite::Op::kUpsert);
    const PrivilegeGrantInfo moved = Decoded(change->writes[i + 1]);
    EXPECT_EQ(moved.namespace_levels, (std::vector<std::string>{"db2"}));
    EXPECT_EQ(moved.name, "u");
    EXPECT_EQ(moved.type, SecurableType::kTable);
    EXPECT_EQ(moved.grantee, Decoded(change->writes[i]).grantee);
    EXPECT_EQ(moved.privilege, Decoded(change->writes[i]).privilege);
  }
  EXPECT_TRUE(change->stash.empty());
}

TEST(ObjectGrantsTest, ASoftDropKeepsWhatItRemovesAndTheUndropRestoresItUnderTheNewName) {
  const std::vector<store::AccessRecord> records = {
      RoleRecord("readers"),
      GrantRecord(SecurableType::kView, {"db"}, "v", Privilege::kVIEW_READ_PROPERTIES),
      GrantRecord(SecurableType::kView, {"db"}, "v", Privilege::kVIEW_DROP, "gone"),
  };
  StoredObjectGrants grants(nullptr);
  auto dropped = grants.Drop(kScope, store::ObjectKind::kView, {{"db"}, "v"}, true)(records, "");
  ASSERT_TRUE(dropped);
  ASSERT_EQ(dropped->writes.size(), 2u);
  EXPECT_EQ(dropped->writes[0].op, AccessWrite::Op::kDelete);
  EXPECT_FALSE(dropped->stash.empty());
  // A hard drop keeps nothing.
  auto gone = grants.Drop(kScope, store::ObjectKind::kView, {{"db"}, "v"}, false)(records, "");
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->writes.size(), 2u);
  EXPECT_TRUE(gone->stash.empty());

  // Role "gone" was deleted meanwhile: its grant does not come back with the view.
  auto restored = grants.Restore(kScope, store::ObjectKind::kView, {{"db"}, "v2"})(
      {RoleRecord("readers")}, dropped->stash);
  ASSERT_TRUE(restored);
  ASSERT_EQ(restored->writes.size(), 1u);
  const PrivilegeGrantInfo back = Decoded(restored->writes[0]);
  EXPECT_EQ(back.grantee, "readers");
  EXPECT_EQ(back.type, SecurableType::kView);
  EXPECT_EQ(back.namespace_levels, (std::vector<std::string>{"db"}));
  EXPECT_EQ(back.name, "v2");
  EXPECT_EQ(back.privilege, Privilege::kVIEW_READ_PROPERTIES);
}

TEST(ObjectGrantsTest, AnUnreadableOrHostileStashRestoresNothingAndFailsNothing) {
  StoredObjectGrants grants(nullptr);
  const auto restore = grants.Restore(kScope, store::ObjectKind::kTable, {{"db"}, "t"});
  for (std::string_view stash :
       {std::string_view("not json"), std::string_view(R"({"grantee":"readers"})"),
        std::string_view(R"([{"grantee":"readers","privilege":"NO_SUCH_PRIVILEGE"}])"),
        // A privilege not grantable on a table (Polaris's rule) is not restored onto one.
        std::string_view(R"([{"grantee":"readers","privilege":"VIEW_DROP"}])"),
        std::string_view(R"([7, null, {"grantee":1,"privilege":2}])")}) {
    auto change = restore({RoleRecord("readers")}, stash);
    ASSERT_TRUE(change) << stash;
    EXPECT_TRUE(change->writes.empty()) << stash;
  }
}

TEST(ObjectGrantsTest, DroppingANamespaceRemovesOnlyItsOwnGrants) {
  const std::vector<store::AccessRecord> records = {
      GrantRecord(SecurableType::kNamespace, {"db"}, "", Privilege::kTABLE_READ_DATA),
      GrantRecord(SecurableType::kNamespace, {"db", "x"}, "", Privilege::kTABLE_READ_DATA),
      GrantRecord(SecurableType::kTable, {"db"}, "t", Privilege::kTABLE_READ_DATA),
  };
  StoredObjectGrants grants(nullptr);
  auto change = grants.DropNamespace(kScope, {"db"})(records, "");
  ASSERT_TRUE(change);
  ASSERT_EQ(change->writes.size(), 1u);
  EXPECT_EQ(change->writes[0].record.name, records[0].name);
}

}  // namespace
}  // namespace firn::access
