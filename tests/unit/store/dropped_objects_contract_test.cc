// Contract tests for soft delete in CatalogStore (store.h, DroppedObject): a soft drop moves
// the pointer out of sight with its fence and keeps its location claims held; undrop brings it
// back (under a new name too) or refuses without losing it; forgetting releases the claims.
// Instantiated for every backend by the backend files (see catalog_store_contract.h).
#include "catalog_store_contract.h"
#include "store/store.h"

namespace firn::store::testing {
namespace {

LocationClaim Claim(std::vector<std::string> locations) {
  LocationClaim c;
  c.locations = std::move(locations);
  return c;
}

DroppedObject Drop(const CatalogScope& scope, std::string drop_id, Identifier id,
                   std::string metadata) {
  DroppedObject d;
  d.drop_id = std::move(drop_id);
  d.scope = scope;
  d.id = std::move(id);
  d.metadata_location = std::move(metadata);
  d.uuid = "uuid-" + d.drop_id;
  d.dropped_ms = 1000;
  d.expires_ms = 5000;
  d.purge_requested = true;
  d.detail = R"({"principal":"p"})";
  return d;
}

TEST_P(CatalogStoreContractTest, SoftDropHidesThePointerAndKeepsItsLocationsHeld) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  const Identifier t{{"a"}, "t"};
  const LocationClaim claim = Claim({"s3://b/wh/t"});
  ASSERT_TRUE(store_->CreateObject(scope_, t, ObjectKind::kTable, "m1", nullptr, &claim));
  ASSERT_TRUE(store_->SetFence(scope_, t, ObjectKind::kTable, R"({"state":"kept"})"));
  ASSERT_TRUE(store_->SoftDropObject(Drop(scope_, "d1", t, "m1")));

  EXPECT_EQ(store_->LoadPointer(scope_, t, ObjectKind::kTable).error().kind,
            ErrorKind::kNoSuchTable);
  EXPECT_TRUE(store_->ListObjects(scope_, {"a"}, ObjectKind::kTable, {})->items.empty());
  auto loaded = store_->LoadDroppedObject(scope_, "d1");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->id, t);
  EXPECT_EQ(loaded->metadata_location, "m1");
  EXPECT_EQ(loaded->fence, R"({"state":"kept"})");  // taken from the row, not the caller
  EXPECT_EQ(loaded->uuid, "uuid-d1");
  EXPECT_EQ(loaded->expires_ms, 5000);
  EXPECT_TRUE(loaded->purge_requested);
  EXPECT_EQ(loaded->detail, R"({"principal":"p"})");

  // The name is free; the location is not.
  const LocationClaim same = Claim({"s3://b/wh/t/inner"});
  Status taken = store_->CreateObject(scope_, {{"a"}, "u"}, ObjectKind::kTable, "m2", nullptr,
                                      &same);
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().kind, ErrorKind::kLocationConflict);
  auto holders = store_->LocationHolders("s3://b/wh/t/data/f.parquet");
  ASSERT_TRUE(holders);
  ASSERT_EQ(holders->size(), 1u);
  EXPECT_TRUE(IsDroppedOwner((*holders)[0].owner));
  EXPECT_EQ((*holders)[0].owner, DroppedOwner(scope_, ObjectKind::kTable, "d1"));
  EXPECT_TRUE(store_->CreateObject(scope_, t, ObjectKind::kTable, "m3"));
}

TEST_P(CatalogStoreContractTest, SoftDropOfAMovedOrMissingPointerIsRefused) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  const Identifier t{{"a"}, "t"};
  ASSERT_TRUE(store_->CreateObject(scope_, t, ObjectKind::kTable, "m1"));
  ASSERT_TRUE(store_->SwapPointer(scope_, t, ObjectKind::kTable, "m1", "m2"));
  Status moved = store_->SoftDropObject(Drop(scope_, "d1", t, "m1"));
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().kind, ErrorKind::kCommitFailed);
  EXPECT_TRUE(store_->LoadPointer(scope_, t, ObjectKind::kTable));
  EXPECT_EQ(store_->LoadDroppedObject(scope_, "d1").error().kind, ErrorKind::kNotFound);
  Status missing = store_->SoftDropObject(Drop(scope_, "d2", {{"a"}, "nope"}, "m"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNoSuchTable);
  // A view is not dropped as a table.
  Status kind = store_->SoftDropObject([&] {
    auto d = Drop(scope_, "d3", t, "m2");
    d.kind = ObjectKind::kView;
    return d;
  }());
  ASSERT_FALSE(kind);
  EXPECT_EQ(kind.error().kind, ErrorKind::kNoSuchView);
}

TEST_P(CatalogStoreContractTest, UndropRestoresUnderAnyFreeNameAndRefusesWithoutLoss) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"b"}, {}));
  const Identifier t{{"a"}, "t"};
  const LocationClaim claim = Claim({"s3://b/wh/t"});
  ASSERT_TRUE(store_->CreateObject(scope_, t, ObjectKind::kTable, "m1", nullptr, &claim));
  ASSERT_TRUE(store_->SetFence(scope_, t, ObjectKind::kTable, "f"));
  ASSERT_TRUE(store_->SoftDropObject(Drop(scope_, "d1", t, "m1")));
  ASSERT_TRUE(store_->CreateObject(scope_, t, ObjectKind::kTable, "other"));

  Status taken = store_->UndropObject(scope_, "d1", t);
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().kind, ErrorKind::kAlreadyExists);
  Status no_ns = store_->UndropObject(scope_, "d1", {{"zz"}, "t"});
  ASSERT_FALSE(no_ns);
  EXPECT_EQ(no_ns.error().kind, ErrorKind::kNoSuchNamespace);
  ASSERT_TRUE(store_->LoadDroppedObject(scope_, "d1")) << "a refused undrop lost it";

  const Identifier to{{"b"}, "restored"};
  ASSERT_TRUE(store_->UndropObject(scope_, "d1", to));
  auto ptr = store_->LoadPointer(scope_, to, ObjectKind::kTable);
  ASSERT_TRUE(ptr);
  EXPECT_EQ(ptr->metadata_location, "m1");
  EXPECT_EQ(ptr->fence, "f");
  EXPECT_EQ(store_->LoadDroppedObject(scope_, "d1").error().kind, ErrorKind::kNotFound);
  auto holders = store_->LocationHolders("s3://b/wh/t");
  ASSERT_TRUE(holders);
  ASSERT_EQ(holders->size(), 1u);
  EXPECT_EQ((*holders)[0].owner.ns, Namespace{"b"});
  EXPECT_EQ((*holders)[0].owner.name, "restored");
  EXPECT_EQ(store_->UndropObject(scope_, "d1", to).error().kind, ErrorKind::kNotFound);
}

TEST_P(CatalogStoreContractTest, ForgetReleasesTheLocationsAndListingPagesInDropOrder) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  for (int i = 0; i < 5; ++i) {
    const Identifier id{{"a"}, "t" + std::to_string(i)};
    const LocationClaim claim = Claim({"s3://b/wh/t" + std::to_string(i)});
    ASSERT_TRUE(store_->CreateObject(scope_, id, ObjectKind::kTable, "m", nullptr, &claim));
    ASSERT_TRUE(store_->SoftDropObject(Drop(scope_, "d" + std::to_string(i), id, "m")));
  }
  // Another catalog's dropped object is not listed here.
  const CatalogScope other{scope_.realm, "other"};
  ASSERT_TRUE(store_->CreateNamespace(other, {"a"}, {}));
  ASSERT_TRUE(store_->CreateObject(other, {{"a"}, "x"}, ObjectKind::kTable, "m"));
  ASSERT_TRUE(store_->SoftDropObject(Drop(other, "d9", {{"a"}, "x"}, "m")));

  std::vector<std::string> seen;
  PageRequest page;
  page.size = 2;
  for (int round = 0; round < 10; ++round) {
    auto listed = store_->ListDroppedObjects(scope_, page);
    ASSERT_TRUE(listed) << listed.error().message;
    for (const auto& d : listed->items) seen.push_back(d.drop_id);
    if (!listed->next_token) break;
    page.token = listed->next_token;
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"d0", "d1", "d2", "d3", "d4"}));
  auto by_uuid = store_->FindDroppedByUuid(scope_.realm, "uuid-d9");
  ASSERT_TRUE(by_uuid);
  ASSERT_EQ(by_uuid->size(), 1u);
  EXPECT_EQ((*by_uuid)[0].scope.catalog, "other");

  ASSERT_TRUE(store_->ForgetDroppedObject(scope_, "d2"));
  EXPECT_EQ(store_->ForgetDroppedObject(scope_, "d2").error().kind, ErrorKind::kNotFound);
  EXPECT_TRUE(store_->LocationHolders("s3://b/wh/t2/x")->empty());
  EXPECT_EQ(store_->LocationHolders("s3://b/wh/t3/x")->size(), 1u);
  // Forgetting in the wrong catalog finds nothing.
  EXPECT_EQ(store_->ForgetDroppedObject(scope_, "d9").error().kind, ErrorKind::kNotFound);
}

}  // namespace
}  // namespace firn::store::testing
