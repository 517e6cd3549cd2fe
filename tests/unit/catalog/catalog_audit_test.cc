// Catalog writes leave audit rows (in the write's own transaction); refused commits too.
#include <gtest/gtest.h>

#include "catalog_test_support.h"
#include "metadata/table_requirement.h"
#include "metadata/table_update.h"

namespace firn::catalog::testing {
namespace {

using P = Privilege;

class CatalogAuditTest : public CatalogFixture {
 protected:
  std::vector<store::AuditEntry> Audit(std::string operation) {
    store::AuditFilter f;
    f.operation = std::move(operation);
    auto rows = store_->ListAudit(f);
    EXPECT_TRUE(rows) << rows.error().message;
    return rows ? *rows : std::vector<store::AuditEntry>{};
  }
};

TEST_F(CatalogAuditTest, CommitRecordsWhoWhatAndBothLocations) {
  Populate();
  RequestContext bob = Bob({{TableRes({"db"}, "t"), P::kTABLE_WRITE_DATA}});
  bob.request_id = "req-42";
  bob.client = "spark/3.5; X-Client-Version=1";
  const std::string before = Pointer({{"db"}, "t"}, store::ObjectKind::kTable);
  auto committed =
      svc().UpdateTable(bob, TableChange{{{"db"}, "t"}, {}, {metadata::SetProperties{{{"a", "b"}}}}});
  ASSERT_TRUE(committed) << committed.error().message;
  auto rows = Audit("updateTable");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].principal, "bob");
  EXPECT_EQ(rows[0].realm, "R");
  EXPECT_EQ(rows[0].catalog, "c");
  EXPECT_EQ(rows[0].client, "spark/3.5; X-Client-Version=1");
  EXPECT_EQ(rows[0].request_id, "req-42");
  EXPECT_EQ(rows[0].object, "table db.t");
  EXPECT_EQ(rows[0].old_location, before);
  EXPECT_EQ(rows[0].new_location, committed->metadata_location);
  EXPECT_EQ(rows[0].outcome, "success");
}

TEST_F(CatalogAuditTest, RefusedCommitIsRecordedWithItsOutcome) {
  Populate();
  metadata::AssertTableUuid wrong{"00000000-0000-0000-0000-000000000000"};
  auto refused = svc().UpdateTable(
      admin_, TableChange{{{"db"}, "t"}, {wrong}, {metadata::SetProperties{{{"a", "b"}}}}});
  ASSERT_FALSE(refused);
  ASSERT_EQ(refused.error().kind, ErrorKind::kCommitFailed);
  auto rows = Audit("updateTable");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].object, "table db.t");
  EXPECT_NE(rows[0].outcome, "success");
  EXPECT_TRUE(rows[0].new_location.empty());
}

TEST_F(CatalogAuditTest, CreatesDropsRenamesAndNamespaceChangesAreRecorded) {
  Populate();
  ASSERT_TRUE(svc().UpdateProperties(admin_, {"db"}, {}, {{"k", "v"}}));
  ASSERT_TRUE(svc().RenameTable(admin_, {{"db"}, "u"}, {{"e"}, "u2"}));
  ASSERT_TRUE(svc().DropTable(admin_, {{"e"}, "u2"}, false));
  ASSERT_TRUE(svc().DropView(admin_, {{"db"}, "v"}));
  ASSERT_TRUE(svc().CommitTransaction(
      admin_, {TableChange{{{"db"}, "t"}, {}, {metadata::SetProperties{{{"x", "y"}}}}}}));
  EXPECT_EQ(Audit("createNamespace").size(), 3u);
  EXPECT_EQ(Audit("createTable").size(), 2u);
  EXPECT_EQ(Audit("createView").size(), 1u);
  EXPECT_EQ(Audit("updateProperties").size(), 1u);
  auto renames = Audit("renameTable");
  ASSERT_EQ(renames.size(), 1u);
  EXPECT_EQ(renames[0].object, "table db.u -> table e.u2");
  EXPECT_EQ(Audit("dropTable").size(), 1u);
  EXPECT_EQ(Audit("dropView").size(), 1u);
  auto tx = Audit("commitTransaction");
  ASSERT_EQ(tx.size(), 1u);
  EXPECT_EQ(tx[0].object, "table db.t");
  EXPECT_FALSE(tx[0].old_location.empty());
  EXPECT_FALSE(tx[0].new_location.empty());
}

TEST_F(CatalogAuditTest, ForbiddenRequestsWriteNoAuditRowAndNoChange) {
  Populate();
  auto denied = svc().DropTable(Bob({}), {{"db"}, "t"}, false);
  ASSERT_FALSE(denied);
  EXPECT_TRUE(Audit("dropTable").empty());
}

}  // namespace
}  // namespace firn::catalog::testing
