// Contract tests for CatalogStore::ListCatalogScopes (admin walks: firn admin copy-store).
// Instantiated for every backend by the backend files (see catalog_store_contract.h).
#include "store/store.h"
#include "catalog_store_contract.h"

namespace firn::store::testing {
namespace {

std::vector<std::pair<std::string, std::string>> Names(const std::vector<CatalogScope>& s) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& scope : s) out.emplace_back(scope.realm, scope.catalog);
  return out;
}

TEST_P(CatalogStoreContractTest, ListCatalogScopesOfEmptyDatabaseIsEmpty) {
  auto scopes = store_->ListCatalogScopes();
  ASSERT_TRUE(scopes) << scopes.error().message;
  EXPECT_TRUE(scopes->empty());
}

// A dropped table keeps its catalog listed after its namespace went: the walks that must see
// every dropped table (what other tables reference, before a purge deletes a file) find it.
TEST_P(CatalogStoreContractTest, ListCatalogScopesNamesACatalogThatOnlyHoldsDroppedObjects) {
  const CatalogScope kept{"default", "kept"};
  ASSERT_TRUE(store_->CreateNamespace(kept, {"a"}, {}));
  ASSERT_TRUE(store_->CreateObject(kept, {{"a"}, "t"}, ObjectKind::kTable, "file:/m1"));
  DroppedObject d;
  d.drop_id = "d1";
  d.scope = kept;
  d.id = {{"a"}, "t"};
  d.metadata_location = "file:/m1";
  d.expires_ms = 5000;
  ASSERT_TRUE(store_->SoftDropObject(d));
  ASSERT_TRUE(store_->DropNamespace(kept, {"a"}));
  auto scopes = store_->ListCatalogScopes();
  ASSERT_TRUE(scopes) << scopes.error().message;
  ASSERT_EQ(scopes->size(), 1u);
  EXPECT_EQ((*scopes)[0].catalog, "kept");
}

TEST_P(CatalogStoreContractTest, ListCatalogScopesNamesEveryUsedScopeOnceSorted) {
  ASSERT_TRUE(store_->CreateNamespace({"r2", "c"}, {"a"}, {}));
  ASSERT_TRUE(store_->CreateNamespace({"default", "z"}, {"a"}, {}));
  ASSERT_TRUE(store_->CreateNamespace({"default", "z"}, {"b"}, {}));
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "t"}, ObjectKind::kTable, "file:/m1"));
  auto scopes = store_->ListCatalogScopes();
  ASSERT_TRUE(scopes) << scopes.error().message;
  using P = std::pair<std::string, std::string>;
  EXPECT_EQ(Names(*scopes),
            (std::vector<P>{{"default", "default"}, {"default", "z"}, {"r2", "c"}}));
}

TEST_P(CatalogStoreContractTest, ListCatalogScopesForgetsAScopeWhoseNamespacesAreDropped) {
  ASSERT_TRUE(store_->CreateNamespace({"default", "gone"}, {"a"}, {}));
  ASSERT_TRUE(store_->DropNamespace({"default", "gone"}, {"a"}));
  auto scopes = store_->ListCatalogScopes();
  ASSERT_TRUE(scopes) << scopes.error().message;
  EXPECT_TRUE(scopes->empty());
}

}  // namespace
}  // namespace firn::store::testing
