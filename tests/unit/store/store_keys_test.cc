#include "store/store_keys.h"

#include <gtest/gtest.h>

#include "store/store_errors.h"

namespace firn::store {
namespace {

TEST(StoreKeysTest, NamespaceKeyRoundTripsAndKeepsDotsInsideLevels) {
  Namespace ns{"a.b", "c", "d e"};
  EXPECT_EQ(NamespaceKey(ns), "a.b\x1F" "c\x1F" "d e");
  EXPECT_EQ(NamespaceFromKey(NamespaceKey(ns)), ns);
  EXPECT_TRUE(NamespaceFromKey("").empty());
}

TEST(StoreKeysTest, ParentKeyDropsTheLastLevel) {
  EXPECT_EQ(ParentKey({"a"}), "");
  EXPECT_EQ(ParentKey({"a", "b", "c"}), "a\x1F" "b");
}

TEST(StoreKeysTest, DisplayJoinsLevelsWithDots) {
  EXPECT_EQ(NamespaceDisplay({"a", "b"}), "a.b");
  EXPECT_EQ(IdentifierDisplay(Identifier{{"a", "b"}, "t"}), "a.b.t");
}

TEST(StoreKeysTest, EmptyOrAbsentTokenStartsAtTheBeginning) {
  auto absent = DecodePageToken(std::nullopt);
  ASSERT_TRUE(absent);
  EXPECT_FALSE(*absent);
  auto empty = DecodePageToken(std::string());
  ASSERT_TRUE(empty);
  EXPECT_FALSE(*empty);
  auto token = DecodePageToken(EncodePageToken("ns\x1F" "x"));
  ASSERT_TRUE(token);
  EXPECT_EQ(**token, "ns\x1F" "x");
}

TEST(StoreErrorsTest, MessagesFollowIcebergWording) {
  Identifier t{{"a"}, "t"};
  EXPECT_EQ(NoSuchObjectError(t, ObjectKind::kTable).message, "Table does not exist: a.t");
  EXPECT_EQ(NoSuchObjectError(t, ObjectKind::kView).kind, ErrorKind::kNoSuchView);
  EXPECT_EQ(ObjectExistsError(t, ObjectKind::kTable, ObjectKind::kView).message,
            "View with same name already exists: a.t");
  EXPECT_EQ(RenameTargetExistsError(Identifier{{"a"}, "x"}, Identifier{{"a"}, "y"},
                                    ObjectKind::kTable, ObjectKind::kView)
                .message,
            "Cannot rename a.x to a.y. View already exists");
  EXPECT_EQ(PointerMovedError(t, ObjectKind::kTable, "e", "f").kind, ErrorKind::kCommitFailed);
}

}  // namespace
}  // namespace firn::store
