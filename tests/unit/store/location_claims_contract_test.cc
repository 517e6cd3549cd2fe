// Contract tests for the location claims of CatalogStore (store/location_claims.h): the index
// refuses overlaps atomically with the pointer write, on every backend, also when two stores
// (two server instances) claim at the same moment.
// Instantiated for every backend by the backend files (see catalog_store_contract.h).
#include <atomic>
#include <thread>

#include "catalog_store_contract.h"
#include "store/store.h"

namespace firn::store::testing {
namespace {

LocationClaim Claim(std::vector<std::string> locations) {
  LocationClaim c;
  c.locations = std::move(locations);
  return c;
}

LocationOwner TableOwner(const CatalogScope& scope, const Identifier& id) {
  return {scope.realm, scope.catalog, LocationOwnerKind::kTable, id.ns, id.name};
}


TEST_P(CatalogStoreContractTest, ClaimedLocationRefusesEqualNestedAndContainingTables) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  const LocationClaim t1 = Claim({"s3://b/wh/a/t1"});
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "t1"}, ObjectKind::kTable, "s3://b/m1",
                                   nullptr, &t1));
  for (std::string loc : {"s3://b/wh/a/t1", "s3://b/wh/a/t1/x", "s3://b/wh/a", "s3://b/"}) {
    const LocationClaim claim = Claim({loc});
    Status st = store_->CreateObject(scope_, {{"a"}, "t2"}, ObjectKind::kTable, "s3://b/m2",
                                     nullptr, &claim);
    ASSERT_FALSE(st) << loc;
    EXPECT_EQ(st.error().kind, ErrorKind::kLocationConflict) << loc;
    // Nothing was written: the name is still free.
    EXPECT_EQ(store_->LoadPointer(scope_, {{"a"}, "t2"}, ObjectKind::kTable).error().kind,
              ErrorKind::kNoSuchTable);
  }
  // A sibling whose name shares a prefix is not inside.
  const LocationClaim sibling = Claim({"s3://b/wh/a/t10"});
  EXPECT_TRUE(store_->CreateObject(scope_, {{"a"}, "t10"}, ObjectKind::kTable, "s3://b/m3",
                                   nullptr, &sibling));
}

TEST_P(CatalogStoreContractTest, ConflictsAreFoundAcrossCatalogsAndRealms) {
  const CatalogScope other{"r2", "c2"};
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_TRUE(store_->CreateNamespace(other, {"a"}, {}));
  const LocationClaim mine = Claim({"file:///wh/t"});
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "t"}, ObjectKind::kTable, "file:///m", nullptr,
                                   &mine));
  const LocationClaim twin = Claim({"file:///wh/t"});
  Status st =
      store_->CreateObject(other, {{"a"}, "t"}, ObjectKind::kTable, "file:///m", nullptr, &twin);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kLocationConflict);
  auto found = store_->FindLocationConflict(TableOwner(other, {{"a"}, "t"}), twin);
  ASSERT_TRUE(found && *found);
  EXPECT_EQ((*found)->held.owner.catalog, scope_.catalog);
  EXPECT_EQ((*found)->held.owner.name, "t");
  EXPECT_EQ((*found)->relation, LocationRelation::kSame);
}

TEST_P(CatalogStoreContractTest, DropReleasesAndRenameKeepsTheClaim) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  const LocationClaim claim = Claim({"s3://b/t"});
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "t"}, ObjectKind::kTable, "s3://b/m", nullptr,
                                   &claim));
  ASSERT_TRUE(store_->RenameObject(scope_, {{"a"}, "t"}, {{"a"}, "u"}, ObjectKind::kTable));
  auto holders = store_->LocationHolders("s3://b/t/data/f.parquet");
  ASSERT_TRUE(holders);
  ASSERT_EQ(holders->size(), 1u);
  EXPECT_EQ((*holders)[0].owner.name, "u");
  ASSERT_TRUE(store_->DropObject(scope_, {{"a"}, "u"}, ObjectKind::kTable));
  holders = store_->LocationHolders("s3://b/t/data/f.parquet");
  ASSERT_TRUE(holders);
  EXPECT_TRUE(holders->empty());
  EXPECT_TRUE(store_->CreateObject(scope_, {{"a"}, "v"}, ObjectKind::kTable, "s3://b/m", nullptr,
                                   &claim));
}

TEST_P(CatalogStoreContractTest, ASwapWithAClaimMovesTheLocationAtomically) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  const LocationClaim one = Claim({"s3://b/one"});
  const LocationClaim two = Claim({"s3://b/two"});
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "x"}, ObjectKind::kTable, "m0", nullptr, &one));
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "y"}, ObjectKind::kTable, "n0", nullptr, &two));
  // x tries to move into y's location: refused, and the pointer did not move either.
  const LocationClaim into_y = Claim({"s3://b/two/x"});
  auto moved = store_->SwapPointer(scope_, {{"a"}, "x"}, ObjectKind::kTable, "m0", "m1", nullptr,
                                   &into_y);
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().kind, ErrorKind::kLocationConflict);
  EXPECT_EQ(store_->LoadPointer(scope_, {{"a"}, "x"}, ObjectKind::kTable)->metadata_location, "m0");
  // A free location: pointer and claim move together; the old one is released.
  const LocationClaim three = Claim({"s3://b/three"});
  ASSERT_TRUE(store_->SwapPointer(scope_, {{"a"}, "x"}, ObjectKind::kTable, "m0", "m1", nullptr,
                                  &three));
  EXPECT_TRUE(store_->LocationHolders("s3://b/one/f")->empty());
  EXPECT_EQ(store_->LocationHolders("s3://b/three/f")->size(), 1u);
}

TEST_P(CatalogStoreContractTest, ATransactionWithOneConflictingClaimWritesNothing) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  const LocationClaim taken = Claim({"s3://b/taken"});
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "t"}, ObjectKind::kTable, "m", nullptr, &taken));
  std::vector<PointerSwap> swaps;
  swaps.push_back({{{"a"}, "n1"}, ObjectKind::kTable, std::nullopt, "x1", Claim({"s3://b/free"})});
  swaps.push_back({{{"a"}, "n2"}, ObjectKind::kTable, std::nullopt, "x2",
                   Claim({"s3://b/taken/inner"})});
  Status st = store_->CommitTransaction(scope_, swaps);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kLocationConflict);
  EXPECT_FALSE(store_->LoadPointer(scope_, {{"a"}, "n1"}, ObjectKind::kTable));
  EXPECT_TRUE(store_->LocationHolders("s3://b/free")->empty());
}

TEST_P(CatalogStoreContractTest, NamespaceAndCatalogClaimsAreContainers) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  store::AccessWrite catalog;
  catalog.op = AccessWrite::Op::kCreate;
  catalog.record.realm = scope_.realm;
  catalog.record.kind = AccessKind::kCatalog;
  catalog.record.name = scope_.catalog;
  catalog.record.body = "{}";
  catalog.claim = Claim({"s3://b/wh"});
  ASSERT_TRUE(store_->ApplyAccessWrites({catalog}, nullptr, 1));
  const LocationClaim ns_claim = Claim({"s3://b/wh/nsloc"});
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"n"}, {{"location", "s3://b/wh/nsloc"}}, nullptr,
                                      &ns_claim));
  // Tables inside the catalog and the namespace location are fine...
  const LocationClaim inside = Claim({"s3://b/wh/nsloc/t"});
  ASSERT_TRUE(store_->CreateObject(scope_, {{"n"}, "t"}, ObjectKind::kTable, "m", nullptr,
                                   &inside));
  // ...one at the catalog base or the namespace location is not.
  for (std::string loc : {"s3://b/wh", "s3://b/wh/nsloc", "s3://b/"}) {
    const LocationClaim claim = Claim({loc});
    auto st = store_->CreateObject(scope_, {{"a"}, "bad"}, ObjectKind::kTable, "m", nullptr,
                                   &claim);
    ASSERT_FALSE(st) << loc;
    EXPECT_EQ(st.error().kind, ErrorKind::kLocationConflict) << loc;
  }
  // A second catalog cannot sit inside, around or on the first.
  for (std::string loc : {"s3://b/wh", "s3://b/wh/sub", "s3://b/"}) {
    store::AccessWrite second = catalog;
    second.record.name = "second";
    second.claim = Claim({loc});
    auto st = store_->ApplyAccessWrites({second}, nullptr, 2);
    ASSERT_FALSE(st) << loc;
    EXPECT_EQ(st.error().kind, ErrorKind::kLocationConflict) << loc;
  }
  // Deleting the catalog record releases its claim.
  store::AccessWrite drop = catalog;
  drop.op = AccessWrite::Op::kDelete;
  drop.claim.reset();
  ASSERT_TRUE(store_->ApplyAccessWrites({drop}, nullptr, 3));
  auto holders = store_->LocationHolders("s3://b/wh");
  ASSERT_TRUE(holders);
  for (const auto& h : *holders) EXPECT_NE(h.owner.kind, LocationOwnerKind::kCatalog);
}

TEST_P(CatalogStoreContractTest, UnnormalisedOrTooDeepClaimsAreRefused) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  std::string deep = "s3://b";
  for (int i = 0; i < 70; ++i) deep += "/d";
  for (const std::string& loc : {std::string("s3://b/x/"), std::string("relative/path"),
                                 std::string("s3://b//x"), deep}) {
    const LocationClaim claim = Claim({loc});
    auto st = store_->CreateObject(scope_, {{"a"}, "t"}, ObjectKind::kTable, "m", nullptr, &claim);
    ASSERT_FALSE(st) << loc;
    EXPECT_EQ(st.error().kind, ErrorKind::kIllegalArgument) << loc;
  }
}

TEST_P(CatalogStoreContractTest, SettingsRoundTripAndSurviveReopen) {
  auto missing = store_->LoadSetting("x");
  ASSERT_TRUE(missing);
  EXPECT_FALSE(*missing);
  ASSERT_TRUE(store_->SaveSetting("x", "1"));
  ASSERT_TRUE(store_->SaveSetting("x", "2"));
  Reopen();
  EXPECT_EQ(store_->LoadSetting("x")->value_or(""), "2");
}

// Two instances starting at once on one database agree on one deployment id.
TEST_P(CatalogStoreContractTest, EnsureSettingKeepsTheFirstValue) {
  auto second = backend_->Open();
  ASSERT_TRUE(second) << second.error().message;
  auto first = store_->EnsureSetting("deployment_id", "one");
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(*first, "one");
  auto other = (*second)->EnsureSetting("deployment_id", "two");
  ASSERT_TRUE(other) << other.error().message;
  EXPECT_EQ(*other, "one");
  EXPECT_EQ(store_->LoadSetting("deployment_id")->value_or(""), "one");
}

// The fence rides with the pointer: read by LoadPointer, kept across swaps and renames, gone
// with a drop; ListFences names exactly the fenced objects.
TEST_P(CatalogStoreContractTest, FenceIsReadWithThePointerAndFollowsTheRow) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  const Identifier t{{"a"}, "t"};
  const Identifier u{{"a"}, "u"};
  ASSERT_TRUE(store_->CreateObject(scope_, t, ObjectKind::kTable, "m1"));
  ASSERT_TRUE(store_->CreateObject(scope_, u, ObjectKind::kTable, "n1"));
  EXPECT_EQ(store_->LoadPointer(scope_, t, ObjectKind::kTable)->fence, "");
  ASSERT_TRUE(store_->SetFence(scope_, t, ObjectKind::kTable, R"({"state":"fenced"})"));
  ASSERT_TRUE(store_->SwapPointer(scope_, t, ObjectKind::kTable, "m1", "m2"));
  auto ptr = store_->LoadPointer(scope_, t, ObjectKind::kTable);
  ASSERT_TRUE(ptr);
  EXPECT_EQ(ptr->metadata_location, "m2");
  EXPECT_EQ(ptr->fence, R"({"state":"fenced"})");
  auto listed = store_->ListFences();
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].id, t);
  EXPECT_EQ((*listed)[0].metadata_location, "m2");
  const Identifier moved{{"a"}, "moved"};
  ASSERT_TRUE(store_->RenameObject(scope_, t, moved, ObjectKind::kTable));
  EXPECT_EQ(store_->LoadPointer(scope_, moved, ObjectKind::kTable)->fence, R"({"state":"fenced"})");
  ASSERT_TRUE(store_->SetFence(scope_, moved, ObjectKind::kTable, ""));
  EXPECT_TRUE(store_->ListFences()->empty());
  ASSERT_TRUE(store_->SetFence(scope_, moved, ObjectKind::kTable, "x"));
  ASSERT_TRUE(store_->DropObject(scope_, moved, ObjectKind::kTable));
  EXPECT_TRUE(store_->ListFences()->empty());
  // A missing object is refused.
  auto missing = store_->SetFence(scope_, moved, ObjectKind::kTable, "x");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNoSuchTable);
}

// Two stores on one database (two instances) create overlapping tables at the same moment:
// exactly one wins every round, whichever instance it is.
TEST_P(CatalogStoreContractTest, OverlappingClaimsFromTwoInstancesAtOnceHaveOneWinner) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  auto second = backend_->Open();
  ASSERT_TRUE(second) << second.error().message;
  constexpr int kRounds = 40;
  int both = 0, none = 0;
  for (int round = 0; round < kRounds; ++round) {
    const std::string base = "s3://b/race" + std::to_string(round);
    const LocationClaim outer = Claim({base});
    const LocationClaim inner = Claim({base + "/inner"});
    std::atomic<int> ready{0};
    Status a = Ok(), b = Ok();
    auto go = [&](CatalogStore* s, const std::string& name, const LocationClaim& c,
                  Status* out) {
      ready.fetch_add(1);
      while (ready.load() < 2) {
      }
      *out = s->CreateObject(scope_, {{"a"}, name}, ObjectKind::kTable, "m", nullptr, &c);
    };
    std::thread t1(go, store_.get(), "outer" + std::to_string(round), std::cref(outer), &a);
    std::thread t2(go, second->get(), "inner" + std::to_string(round), std::cref(inner), &b);
    t1.join();
    t2.join();
    for (const Status* st : {&a, &b}) {
      if (!*st) {
        EXPECT_TRUE(st->error().kind == ErrorKind::kLocationConflict ||
                    st->error().kind == ErrorKind::kServiceUnavailable)
            << st->error().message;
      }
    }
    if (a && b) ++both;
    if (!a && !b) ++none;
  }
  EXPECT_EQ(both, 0) << "both overlapping creates succeeded";
  EXPECT_LT(none, kRounds / 4) << "refusing both is safe but should be rare";
}

}  // namespace
}  // namespace firn::store::testing
