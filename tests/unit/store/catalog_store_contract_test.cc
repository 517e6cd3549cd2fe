// The backend-independent CatalogStore contract (see catalog_store_contract.h). Every test
// here runs once per instantiated backend.
#include <atomic>
#include <barrier>
#include <string>
#include <thread>
#include <vector>

#include "catalog_store_contract.h"
#include "store/store.h"

namespace firn::store::testing {
namespace {

template <typename R>
void ExpectError(const R& result, ErrorKind kind, const std::string& message) {
  ASSERT_FALSE(result) << "expected " << ErrorKindName(kind) << ": " << message;
  EXPECT_EQ(ErrorKindName(result.error().kind), ErrorKindName(kind));
  EXPECT_EQ(result.error().message, message);
}

template <typename R>
void ExpectErrorContaining(const R& result, ErrorKind kind, const std::string& fragment) {
  ASSERT_FALSE(result) << "expected " << ErrorKindName(kind);
  EXPECT_EQ(ErrorKindName(result.error().kind), ErrorKindName(kind));
  EXPECT_NE(result.error().message.find(fragment), std::string::npos) << result.error().message;
}

const ObjectKind kTable = ObjectKind::kTable;
const ObjectKind kView = ObjectKind::kView;

Identifier Id(Namespace ns, std::string name) { return Identifier{std::move(ns), std::move(name)}; }

// ---- Namespaces -----------------------------------------------------------------------------

TEST_P(CatalogStoreContractTest, CreateAndLoadNamespaceWithProperties) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {{"owner", "me"}, {"k", "v"}}));
  auto props = store_->LoadNamespace(scope_, {"a"});
  ASSERT_OK(props);
  EXPECT_EQ(*props, (Properties{{"owner", "me"}, {"k", "v"}}));
}

TEST_P(CatalogStoreContractTest, LoadNamespaceWithoutPropertiesIsEmpty) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  auto props = store_->LoadNamespace(scope_, {"a"});
  ASSERT_OK(props);
  EXPECT_TRUE(props->empty());
}

TEST_P(CatalogStoreContractTest, CreateExistingNamespaceIsAlreadyExists) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateNamespace(scope_, {"a", "b"}, {}));
  ExpectError(store_->CreateNamespace(scope_, {"a", "b"}, {}), ErrorKind::kAlreadyExists,
              "Namespace already exists: a.b");
}

TEST_P(CatalogStoreContractTest, CreateNamespaceUnderMissingParentIsNoSuchNamespace) {
  ExpectError(store_->CreateNamespace(scope_, {"parent", "child1"}, {}),
              ErrorKind::kNoSuchNamespace,
              "Cannot create namespace parent.child1. Parent namespace does not exist: parent");
}

TEST_P(CatalogStoreContractTest, CreateInvalidNamespaceIsIllegalArgument) {
  ExpectErrorContaining(store_->CreateNamespace(scope_, {}, {}), ErrorKind::kIllegalArgument,
                        "at least one level");
  ExpectErrorContaining(store_->CreateNamespace(scope_, {""}, {}), ErrorKind::kIllegalArgument,
                        "must not be empty");
  ExpectErrorContaining(store_->CreateNamespace(scope_, {"a\x1F" "b"}, {}),
                        ErrorKind::kIllegalArgument, "0x1F");
}

TEST_P(CatalogStoreContractTest, LoadMissingNamespaceIsNoSuchNamespace) {
  ExpectError(store_->LoadNamespace(scope_, {"a", "b"}), ErrorKind::kNoSuchNamespace,
              "Namespace does not exist: a.b");
}

TEST_P(CatalogStoreContractTest, LevelWithDotIsDistinctFromTwoLevels) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a.b"}, {{"one", "level"}}));
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateNamespace(scope_, {"a", "b"}, {{"two", "levels"}}));
  EXPECT_EQ(store_->LoadNamespace(scope_, {"a.b"})->count("one"), 1u);
  EXPECT_EQ(store_->LoadNamespace(scope_, {"a", "b"})->count("two"), 1u);
}

TEST_P(CatalogStoreContractTest, ListNamespacesReturnsDirectChildrenSorted) {
  for (const Namespace& ns : std::vector<Namespace>{
           {"b"}, {"a"}, {"a", "y"}, {"a", "x"}, {"a", "x", "deep"}, {"ab"}}) {
    ASSERT_OK(store_->CreateNamespace(scope_, ns, {}));
  }
  auto top = store_->ListNamespaces(scope_, {}, {});
  ASSERT_OK(top);
  EXPECT_EQ(top->items, (std::vector<Namespace>{{"a"}, {"ab"}, {"b"}}));
  EXPECT_FALSE(top->next_token);

  auto children = store_->ListNamespaces(scope_, {"a"}, {});
  ASSERT_OK(children);
  EXPECT_EQ(children->items, (std::vector<Namespace>{{"a", "x"}, {"a", "y"}}));

  auto leaf = store_->ListNamespaces(scope_, {"a", "x", "deep"}, {});
  ASSERT_OK(leaf);
  EXPECT_TRUE(leaf->items.empty());
}

TEST_P(CatalogStoreContractTest, ListNamespacesOfMissingParentIsNoSuchNamespace) {
  ExpectError(store_->ListNamespaces(scope_, {"non-existing"}, {}), ErrorKind::kNoSuchNamespace,
              "Namespace does not exist: non-existing");
  ExpectError(store_->ListNamespaces(scope_, {"x", "y"}, {}), ErrorKind::kNoSuchNamespace,
              "Namespace does not exist: x.y");
}

TEST_P(CatalogStoreContractTest, ListNamespacesPaginatesWithOpaqueTokens) {
  std::vector<Namespace> all;
  for (int i = 0; i < 7; ++i) {
    all.push_back({"ns" + std::to_string(i)});
    ASSERT_OK(store_->CreateNamespace(scope_, all.back(), {}));
  }
  for (int64_t size : {1, 2, 3, 7, 10}) {
    std::vector<Namespace> seen;
    PageRequest request{std::string(), size};  // Java always sends an empty first token
    int pages = 0;
    while (true) {
      auto page = store_->ListNamespaces(scope_, {}, request);
      ASSERT_OK(page);
      ++pages;
      EXPECT_LE(static_cast<int64_t>(page->items.size()), size);
      seen.insert(seen.end(), page->items.begin(), page->items.end());
      if (!page->next_token) break;
      EXPECT_FALSE(page->next_token->empty()) << "an empty token makes Java loop forever";
      request.token = page->next_token;
      ASSERT_LT(pages, 20);
    }
    EXPECT_EQ(seen, all) << "page size " << size;
    EXPECT_EQ(pages, (7 + size - 1) / size) << "page size " << size;
  }
}

TEST_P(CatalogStoreContractTest, ListWithoutTokenOrSizeReturnsEverything) {
  for (int i = 0; i < 5; ++i) {
    ASSERT_OK(store_->CreateNamespace(scope_, {"n" + std::to_string(i)}, {}));
  }
  auto page = store_->ListNamespaces(scope_, {}, PageRequest{});
  ASSERT_OK(page);
  EXPECT_EQ(page->items.size(), 5u);
  EXPECT_FALSE(page->next_token);
}

TEST_P(CatalogStoreContractTest, PageSizeBelowOneIsIllegalArgument) {
  ExpectErrorContaining(store_->ListNamespaces(scope_, {}, PageRequest{std::nullopt, 0}),
                        ErrorKind::kIllegalArgument, "page size");
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ExpectErrorContaining(store_->ListObjects(scope_, {"a"}, kTable, PageRequest{std::nullopt, -1}),
                        ErrorKind::kIllegalArgument, "page size");
}

TEST_P(CatalogStoreContractTest, MalformedPageTokenIsIllegalArgument) {
  ExpectErrorContaining(store_->ListNamespaces(scope_, {}, PageRequest{"not base64!", 1}),
                        ErrorKind::kIllegalArgument, "page token");
}

TEST_P(CatalogStoreContractTest, DropNamespaceRemovesItAndItsProperties) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {{"k", "v"}}));
  ASSERT_OK(store_->DropNamespace(scope_, {"a"}));
  ExpectError(store_->LoadNamespace(scope_, {"a"}), ErrorKind::kNoSuchNamespace,
              "Namespace does not exist: a");
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  EXPECT_TRUE(store_->LoadNamespace(scope_, {"a"})->empty());
}

TEST_P(CatalogStoreContractTest, DropMissingNamespaceIsNoSuchNamespace) {
  ExpectError(store_->DropNamespace(scope_, {"a", "b"}), ErrorKind::kNoSuchNamespace,
              "Namespace does not exist: a.b");
}

TEST_P(CatalogStoreContractTest, DropNamespaceHoldingTableViewOrChildIsNotEmpty) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"t"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"t"}, "tbl"), kTable, "file:/m1"));
  ASSERT_OK(store_->CreateNamespace(scope_, {"v"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"v"}, "vw"), kView, "file:/m2"));
  ASSERT_OK(store_->CreateNamespace(scope_, {"c"}, {}));
  ASSERT_OK(store_->CreateNamespace(scope_, {"c", "child"}, {}));
  ExpectError(store_->DropNamespace(scope_, {"t"}), ErrorKind::kNamespaceNotEmpty,
              "Namespace is not empty: t");
  ExpectError(store_->DropNamespace(scope_, {"v"}), ErrorKind::kNamespaceNotEmpty,
              "Namespace is not empty: v");
  ExpectErrorContaining(store_->DropNamespace(scope_, {"c"}), ErrorKind::kNamespaceNotEmpty,
                        "is not empty");
  ASSERT_OK(store_->LoadNamespace(scope_, {"t"}));
}

TEST_P(CatalogStoreContractTest, UpdateNamespacePropertiesReportsUpdatedRemovedMissing) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {{"keep", "1"}, {"gone", "2"}, {"chg", "3"}}));
  auto result = store_->UpdateNamespaceProperties(scope_, {"a"}, {"gone", "absent"},
                                                  {{"chg", "30"}, {"new", "4"}});
  ASSERT_OK(result);
  EXPECT_EQ(result->removed, std::vector<std::string>{"gone"});
  EXPECT_EQ(result->missing, std::vector<std::string>{"absent"});
  EXPECT_EQ(result->updated, (std::vector<std::string>{"chg", "new"}));
  EXPECT_EQ(*store_->LoadNamespace(scope_, {"a"}),
            (Properties{{"keep", "1"}, {"chg", "30"}, {"new", "4"}}));
}

TEST_P(CatalogStoreContractTest, PropertiesCheckSeesTheWholeMapAfterTheChange) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {{"keep", "1"}, {"gone", "2"}}));
  Properties seen;
  const PropertiesCheck record = [&](const Properties& after) -> Status {
    seen = after;
    return Ok();
  };
  ASSERT_OK(store_->UpdateNamespaceProperties(scope_, {"a"}, {"gone"}, {{"new", "3"}}, nullptr,
                                              &record));
  EXPECT_EQ(seen, (Properties{{"keep", "1"}, {"new", "3"}}));
}

TEST_P(CatalogStoreContractTest, RefusingPropertiesCheckRollsTheWholeUpdateBack) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {{"keep", "1"}, {"gone", "2"}}));
  const PropertiesCheck refuse = [](const Properties&) -> Status {
    return Fail(ErrorKind::kBadRequest, "too many");
  };
  ExpectError(store_->UpdateNamespaceProperties(scope_, {"a"}, {"gone"}, {{"new", "3"}},
                                                nullptr, &refuse),
              ErrorKind::kBadRequest, "too many");
  EXPECT_EQ(*store_->LoadNamespace(scope_, {"a"}), (Properties{{"keep", "1"}, {"gone", "2"}}));
}

// The check is the place a caller's limits hold: concurrent updates of one namespace must each
// see the others' committed rows, so a budget checked there is never overspent.
TEST_P(CatalogStoreContractTest, ConcurrentUpdatesCannotOverspendAPropertiesCheck) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  constexpr size_t kBudget = 5;
  const PropertiesCheck budget = [](const Properties& after) -> Status {
    if (after.size() > kBudget) return Fail(ErrorKind::kBadRequest, "over budget");
    return Ok();
  };
  constexpr int kWriters = 12;
  std::barrier start(kWriters);
  std::atomic<int> accepted = 0;
  std::vector<std::thread> writers;
  for (int i = 0; i < kWriters; ++i) {
    writers.emplace_back([&, i] {
      start.arrive_and_wait();
      auto r = store_->UpdateNamespaceProperties(scope_, {"a"}, {},
                                                 {{"k" + std::to_string(i), "v"}}, nullptr,
                                                 &budget);
      if (r) ++accepted;
    });
  }
  for (auto& t : writers) t.join();
  EXPECT_EQ(accepted.load(), static_cast<int>(kBudget));
  EXPECT_EQ(store_->LoadNamespace(scope_, {"a"})->size(), kBudget);
}

TEST_P(CatalogStoreContractTest, UpdatePropertiesOfMissingNamespaceIsNoSuchNamespace) {
  ExpectError(store_->UpdateNamespaceProperties(scope_, {"a"}, {}, {{"k", "v"}}),
              ErrorKind::kNoSuchNamespace, "Namespace does not exist: a");
}

// ---- Objects --------------------------------------------------------------------------------

TEST_P(CatalogStoreContractTest, CreateObjectThenLoadPointer) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/wh/a/t/m0.json"));
  auto pointer = store_->LoadPointer(scope_, Id({"a"}, "t"), kTable);
  ASSERT_OK(pointer);
  EXPECT_EQ(pointer->metadata_location, "file:/wh/a/t/m0.json");
  EXPECT_EQ(pointer->version, 1);
}

TEST_P(CatalogStoreContractTest, CreateObjectInMissingNamespaceIsNoSuchNamespace) {
  ExpectError(store_->CreateObject(scope_, Id({"a", "b"}, "t"), kTable, "file:/m"),
              ErrorKind::kNoSuchNamespace, "Namespace does not exist: a.b");
}

TEST_P(CatalogStoreContractTest, CreateExistingObjectIsAlreadyExists) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/m1"));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "v"), kView, "file:/m2"));
  ExpectError(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/m3"),
              ErrorKind::kAlreadyExists, "Table already exists: a.t");
  ExpectError(store_->CreateObject(scope_, Id({"a"}, "v"), kView, "file:/m3"),
              ErrorKind::kAlreadyExists, "View already exists: a.v");
  EXPECT_EQ(store_->LoadPointer(scope_, Id({"a"}, "t"), kTable)->metadata_location, "file:/m1");
}

TEST_P(CatalogStoreContractTest, TablesAndViewsShareOneNameSpace) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/m1"));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "v"), kView, "file:/m2"));
  ExpectError(store_->CreateObject(scope_, Id({"a"}, "v"), kTable, "file:/m3"),
              ErrorKind::kAlreadyExists, "View with same name already exists: a.v");
  ExpectError(store_->CreateObject(scope_, Id({"a"}, "t"), kView, "file:/m3"),
              ErrorKind::kAlreadyExists, "Table with same name already exists: a.t");
}

TEST_P(CatalogStoreContractTest, LoadPointerOfMissingObjectIsNoSuchTableOrView) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ExpectError(store_->LoadPointer(scope_, Id({"a"}, "t"), kTable), ErrorKind::kNoSuchTable,
              "Table does not exist: a.t");
  ExpectError(store_->LoadPointer(scope_, Id({"a"}, "v"), kView), ErrorKind::kNoSuchView,
              "View does not exist: a.v");
}

TEST_P(CatalogStoreContractTest, LoadPointerInMissingNamespaceIsNoSuchTableNotNamespace) {
  ExpectError(store_->LoadPointer(scope_, Id({"nope"}, "t"), kTable), ErrorKind::kNoSuchTable,
              "Table does not exist: nope.t");
  ExpectError(store_->LoadPointer(scope_, Id({"nope"}, "v"), kView), ErrorKind::kNoSuchView,
              "View does not exist: nope.v");
}

TEST_P(CatalogStoreContractTest, LoadPointerOfWrongKindIsMissing) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "v"), kView, "file:/m"));
  ExpectError(store_->LoadPointer(scope_, Id({"a"}, "v"), kTable), ErrorKind::kNoSuchTable,
              "Table does not exist: a.v");
}

TEST_P(CatalogStoreContractTest, ListObjectsSeparatesTablesFromViewsAndPaginates) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateNamespace(scope_, {"b"}, {}));
  for (const char* name : {"t3", "t1", "t2"}) {
    ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, name), kTable, "file:/m"));
  }
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "v1"), kView, "file:/m"));
  ASSERT_OK(store_->CreateObject(scope_, Id({"b"}, "other"), kTable, "file:/m"));

  auto tables = store_->ListObjects(scope_, {"a"}, kTable, {});
  ASSERT_OK(tables);
  EXPECT_EQ(tables->items, (std::vector<std::string>{"t1", "t2", "t3"}));
  EXPECT_FALSE(tables->next_token);
  auto views = store_->ListObjects(scope_, {"a"}, kView, {});
  ASSERT_OK(views);
  EXPECT_EQ(views->items, std::vector<std::string>{"v1"});

  auto first = store_->ListObjects(scope_, {"a"}, kTable, PageRequest{"", 2});
  ASSERT_OK(first);
  EXPECT_EQ(first->items, (std::vector<std::string>{"t1", "t2"}));
  ASSERT_TRUE(first->next_token);
  auto second = store_->ListObjects(scope_, {"a"}, kTable, PageRequest{first->next_token, 2});
  ASSERT_OK(second);
  EXPECT_EQ(second->items, std::vector<std::string>{"t3"});
  EXPECT_FALSE(second->next_token);
}

TEST_P(CatalogStoreContractTest, ListObjectsLastFullPageHasNoToken) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  for (const char* name : {"t1", "t2"}) {
    ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, name), kTable, "file:/m"));
  }
  auto page = store_->ListObjects(scope_, {"a"}, kTable, PageRequest{std::nullopt, 2});
  ASSERT_OK(page);
  EXPECT_EQ(page->items.size(), 2u);
  EXPECT_FALSE(page->next_token);
}

TEST_P(CatalogStoreContractTest, ListObjectsOfMissingNamespaceIsNoSuchNamespace) {
  ExpectError(store_->ListObjects(scope_, {"a", "b"}, kTable, {}), ErrorKind::kNoSuchNamespace,
              "Namespace does not exist: a.b");
  ExpectError(store_->ListObjects(scope_, {"a"}, kView, {}), ErrorKind::kNoSuchNamespace,
              "Namespace does not exist: a");
}

TEST_P(CatalogStoreContractTest, SwapPointerMovesAndCountsVersions) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/m1"));
  auto swapped = store_->SwapPointer(scope_, Id({"a"}, "t"), kTable, "file:/m1", "file:/m2");
  ASSERT_OK(swapped);
  EXPECT_EQ(swapped->metadata_location, "file:/m2");
  EXPECT_EQ(swapped->version, 2);
  auto loaded = store_->LoadPointer(scope_, Id({"a"}, "t"), kTable);
  ASSERT_OK(loaded);
  EXPECT_EQ(loaded->metadata_location, "file:/m2");
  EXPECT_EQ(loaded->version, 2);
}

TEST_P(CatalogStoreContractTest, SwapPointerFromStaleLocationIsCommitFailed) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/m1"));
  ASSERT_OK(store_->SwapPointer(scope_, Id({"a"}, "t"), kTable, "file:/m1", "file:/m2"));
  auto lost = store_->SwapPointer(scope_, Id({"a"}, "t"), kTable, "file:/m1", "file:/m3");
  ExpectErrorContaining(lost, ErrorKind::kCommitFailed, "metadata location changed");
  EXPECT_EQ(store_->LoadPointer(scope_, Id({"a"}, "t"), kTable)->metadata_location, "file:/m2");
}

TEST_P(CatalogStoreContractTest, SwapPointerOfMissingObjectIsNoSuchTableOrView) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ExpectError(store_->SwapPointer(scope_, Id({"a"}, "t"), kTable, "file:/m1", "file:/m2"),
              ErrorKind::kNoSuchTable, "Table does not exist: a.t");
  ExpectError(store_->SwapPointer(scope_, Id({"nope"}, "t"), kTable, "file:/m1", "file:/m2"),
              ErrorKind::kNoSuchTable, "Table does not exist: nope.t");
  ExpectError(store_->SwapPointer(scope_, Id({"a"}, "v"), kView, "file:/m1", "file:/m2"),
              ErrorKind::kNoSuchView, "View does not exist: a.v");
}

TEST_P(CatalogStoreContractTest, ReplacePointerIsUnconditional) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/m1"));
  ASSERT_OK(store_->ReplacePointer(scope_, Id({"a"}, "t"), kTable, "file:/other"));
  auto loaded = store_->LoadPointer(scope_, Id({"a"}, "t"), kTable);
  EXPECT_EQ(loaded->metadata_location, "file:/other");
  EXPECT_EQ(loaded->version, 2);
  ExpectError(store_->ReplacePointer(scope_, Id({"a"}, "missing"), kTable, "file:/x"),
              ErrorKind::kNoSuchTable, "Table does not exist: a.missing");
}

TEST_P(CatalogStoreContractTest, DropObjectRemovesOnlyThatKind) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/m1"));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "v"), kView, "file:/m2"));
  ExpectError(store_->DropObject(scope_, Id({"a"}, "v"), kTable), ErrorKind::kNoSuchTable,
              "Table does not exist: a.v");
  ASSERT_OK(store_->DropObject(scope_, Id({"a"}, "t"), kTable));
  ExpectError(store_->LoadPointer(scope_, Id({"a"}, "t"), kTable), ErrorKind::kNoSuchTable,
              "Table does not exist: a.t");
  ASSERT_OK(store_->DropObject(scope_, Id({"a"}, "v"), kView));
  ASSERT_OK(store_->DropNamespace(scope_, {"a"}));
}

TEST_P(CatalogStoreContractTest, DropMissingObjectIsNoSuchTableEvenWithoutNamespace) {
  ExpectError(store_->DropObject(scope_, Id({"nope"}, "t"), kTable), ErrorKind::kNoSuchTable,
              "Table does not exist: nope.t");
  ExpectError(store_->DropObject(scope_, Id({"nope"}, "v"), kView), ErrorKind::kNoSuchView,
              "View does not exist: nope.v");
}

TEST_P(CatalogStoreContractTest, RenameMovesThePointerAcrossNamespaces) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateNamespace(scope_, {"b"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/m1"));
  ASSERT_OK(store_->SwapPointer(scope_, Id({"a"}, "t"), kTable, "file:/m1", "file:/m2"));
  ASSERT_OK(store_->RenameObject(scope_, Id({"a"}, "t"), Id({"b"}, "t2"), kTable));
  ExpectError(store_->LoadPointer(scope_, Id({"a"}, "t"), kTable), ErrorKind::kNoSuchTable,
              "Table does not exist: a.t");
  auto moved = store_->LoadPointer(scope_, Id({"b"}, "t2"), kTable);
  ASSERT_OK(moved);
  EXPECT_EQ(moved->metadata_location, "file:/m2");
  EXPECT_EQ(moved->version, 2);
  ASSERT_OK(store_->DropNamespace(scope_, {"a"}));
}

TEST_P(CatalogStoreContractTest, RenameMissingSourceIsNoSuchTableOrView) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ExpectError(store_->RenameObject(scope_, Id({"a"}, "x"), Id({"a"}, "y"), kTable),
              ErrorKind::kNoSuchTable, "Table does not exist: a.x");
  ExpectError(store_->RenameObject(scope_, Id({"a"}, "x"), Id({"a"}, "y"), kView),
              ErrorKind::kNoSuchView, "View does not exist: a.x");
}

TEST_P(CatalogStoreContractTest, RenameIntoMissingNamespaceIsNoSuchNamespace) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "x"), kTable, "file:/m"));
  ExpectError(store_->RenameObject(scope_, Id({"a"}, "x"), Id({"nope"}, "y"), kTable),
              ErrorKind::kNoSuchNamespace, "Namespace does not exist: nope");
  ASSERT_OK(store_->LoadPointer(scope_, Id({"a"}, "x"), kTable));
}

TEST_P(CatalogStoreContractTest, RenameOntoExistingNameIsAlreadyExists) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "x"), kTable, "file:/t1"));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/t2"));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "vx"), kView, "file:/v1"));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "v"), kView, "file:/v2"));
  ExpectError(store_->RenameObject(scope_, Id({"a"}, "x"), Id({"a"}, "v"), kTable),
              ErrorKind::kAlreadyExists, "Cannot rename a.x to a.v. View already exists");
  ExpectError(store_->RenameObject(scope_, Id({"a"}, "vx"), Id({"a"}, "t"), kView),
              ErrorKind::kAlreadyExists, "Cannot rename a.vx to a.t. Table already exists");
  ExpectError(store_->RenameObject(scope_, Id({"a"}, "x"), Id({"a"}, "t"), kTable),
              ErrorKind::kAlreadyExists, "Table already exists: a.t");
  ExpectError(store_->RenameObject(scope_, Id({"a"}, "vx"), Id({"a"}, "v"), kView),
              ErrorKind::kAlreadyExists, "View already exists: a.v");
  EXPECT_EQ(store_->LoadPointer(scope_, Id({"a"}, "x"), kTable)->metadata_location, "file:/t1");
}

TEST_P(CatalogStoreContractTest, CommitTransactionAppliesEverySwap) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t1"), kTable, "file:/t1-0"));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t2"), kTable, "file:/t2-0"));
  ASSERT_OK(store_->CommitTransaction(
      scope_, {PointerSwap{Id({"a"}, "t1"), kTable, "file:/t1-0", "file:/t1-1"},
               PointerSwap{Id({"a"}, "t2"), kTable, "file:/t2-0", "file:/t2-1"},
               PointerSwap{Id({"a"}, "t3"), kTable, std::nullopt, "file:/t3-0"}}));
  EXPECT_EQ(store_->LoadPointer(scope_, Id({"a"}, "t1"), kTable)->metadata_location, "file:/t1-1");
  EXPECT_EQ(store_->LoadPointer(scope_, Id({"a"}, "t2"), kTable)->metadata_location, "file:/t2-1");
  EXPECT_EQ(store_->LoadPointer(scope_, Id({"a"}, "t3"), kTable)->metadata_location, "file:/t3-0");
}

TEST_P(CatalogStoreContractTest, CommitTransactionRollsBackEverythingOnOneConflict) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t1"), kTable, "file:/t1-0"));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t2"), kTable, "file:/t2-0"));
  auto status = store_->CommitTransaction(
      scope_, {PointerSwap{Id({"a"}, "t1"), kTable, "file:/t1-0", "file:/t1-1"},
               PointerSwap{Id({"a"}, "new"), kTable, std::nullopt, "file:/new-0"},
               PointerSwap{Id({"a"}, "t2"), kTable, "file:/stale", "file:/t2-1"}});
  ExpectErrorContaining(status, ErrorKind::kCommitFailed, "a.t2");
  EXPECT_EQ(store_->LoadPointer(scope_, Id({"a"}, "t1"), kTable)->metadata_location, "file:/t1-0");
  EXPECT_EQ(store_->LoadPointer(scope_, Id({"a"}, "t1"), kTable)->version, 1);
  ExpectError(store_->LoadPointer(scope_, Id({"a"}, "new"), kTable), ErrorKind::kNoSuchTable,
              "Table does not exist: a.new");
}

TEST_P(CatalogStoreContractTest, CommitTransactionCreateOfExistingNameRollsBack) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t1"), kTable, "file:/t1-0"));
  auto status = store_->CommitTransaction(
      scope_, {PointerSwap{Id({"a"}, "t1"), kTable, "file:/t1-0", "file:/t1-1"},
               PointerSwap{Id({"a"}, "t1"), kTable, std::nullopt, "file:/dup"}});
  ExpectError(status, ErrorKind::kAlreadyExists, "Table already exists: a.t1");
  EXPECT_EQ(store_->LoadPointer(scope_, Id({"a"}, "t1"), kTable)->metadata_location, "file:/t1-0");
}

TEST_P(CatalogStoreContractTest, CommitTransactionOnMissingTableIsNoSuchTable) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ExpectError(store_->CommitTransaction(
                  scope_, {PointerSwap{Id({"a"}, "t"), kTable, "file:/x", "file:/y"}}),
              ErrorKind::kNoSuchTable, "Table does not exist: a.t");
}

TEST_P(CatalogStoreContractTest, ConcurrentSwapsHaveExactlyOneWinnerPerRound) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 25;
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/r0"));
  std::atomic<int> winners[kRounds] = {};
  std::atomic<int> failures{0};
  std::atomic<int> unexpected{0};
  std::barrier sync(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int round = 0; round < kRounds; ++round) {
        sync.arrive_and_wait();  // everyone swaps from the same base
        auto result = store_->SwapPointer(
            scope_, Id({"a"}, "t"), kTable, "file:/r" + std::to_string(round),
            "file:/r" + std::to_string(round + 1));
        if (result) {
          winners[round].fetch_add(1);
        } else if (result.error().kind == ErrorKind::kCommitFailed) {
          failures.fetch_add(1);
        } else {
          unexpected.fetch_add(1);
        }
        sync.arrive_and_wait();  // the round is over before anyone starts the next
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int round = 0; round < kRounds; ++round) {
    EXPECT_EQ(winners[round].load(), 1) << "round " << round;
  }
  EXPECT_EQ(failures.load(), kRounds * (kThreads - 1));
  EXPECT_EQ(unexpected.load(), 0);
  auto final_pointer = store_->LoadPointer(scope_, Id({"a"}, "t"), kTable);
  ASSERT_OK(final_pointer);
  EXPECT_EQ(final_pointer->metadata_location, "file:/r" + std::to_string(kRounds));
  EXPECT_EQ(final_pointer->version, kRounds + 1);
}

TEST_P(CatalogStoreContractTest, ConcurrentReadsSeeCommittedPointers) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/0"));
  std::atomic<bool> done{false};
  std::atomic<int> bad_reads{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 4; ++r) {
    readers.emplace_back([&] {
      int64_t last_version = 0;
      while (!done.load()) {
        auto pointer = store_->LoadPointer(scope_, Id({"a"}, "t"), kTable);
        // Versions never go backwards and always match their location.
        if (!pointer || pointer->version < last_version ||
            pointer->metadata_location != "file:/" + std::to_string(pointer->version - 1)) {
          bad_reads.fetch_add(1);
        } else {
          last_version = pointer->version;
        }
      }
    });
  }
  for (int i = 0; i < 50; ++i) {
    ASSERT_OK(store_->SwapPointer(scope_, Id({"a"}, "t"), kTable, "file:/" + std::to_string(i),
                                  "file:/" + std::to_string(i + 1)));
  }
  done = true;
  for (auto& reader : readers) reader.join();
  EXPECT_EQ(bad_reads.load(), 0);
}

TEST_P(CatalogStoreContractTest, StateSurvivesReopen) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {{"k", "v"}}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/m1"));
  ASSERT_OK(store_->SwapPointer(scope_, Id({"a"}, "t"), kTable, "file:/m1", "file:/m2"));
  Reopen();
  EXPECT_EQ(*store_->LoadNamespace(scope_, {"a"}), (Properties{{"k", "v"}}));
  auto pointer = store_->LoadPointer(scope_, Id({"a"}, "t"), kTable);
  ASSERT_OK(pointer);
  EXPECT_EQ(pointer->metadata_location, "file:/m2");
  EXPECT_EQ(pointer->version, 2);
}

TEST_P(CatalogStoreContractTest, RealmsAndCatalogsAreIsolated) {
  CatalogScope other{"default", "other"};
  CatalogScope other_realm{"realm2", "default"};
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(scope_, Id({"a"}, "t"), kTable, "file:/m1"));
  ExpectError(store_->LoadNamespace(other, {"a"}), ErrorKind::kNoSuchNamespace,
              "Namespace does not exist: a");
  ExpectError(store_->LoadPointer(other_realm, Id({"a"}, "t"), kTable), ErrorKind::kNoSuchTable,
              "Table does not exist: a.t");
  ASSERT_OK(store_->CreateNamespace(other, {"a"}, {}));
  ASSERT_OK(store_->CreateObject(other, Id({"a"}, "t"), kTable, "file:/other"));
  EXPECT_EQ(store_->LoadPointer(scope_, Id({"a"}, "t"), kTable)->metadata_location, "file:/m1");
  EXPECT_EQ(store_->ListNamespaces(other_realm, {}, {})->items.size(), 0u);
}

TEST_P(CatalogStoreContractTest, StoreMetricsReportAcceptsAReport) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_OK(store_->StoreMetricsReport(
      scope_, MetricsReport{Id({"a"}, "t"), "scan-report", R"({"table-name":"a.t"})", 0}));
}

TEST_P(CatalogStoreContractTest, MetricsReportsListPerTableInOrderAndExpireByAge) {
  ASSERT_OK(store_->CreateNamespace(scope_, {"a"}, {}));
  CatalogScope other{scope_.realm, "other-catalog"};
  ASSERT_OK(store_->StoreMetricsReport(scope_, {Id({"a"}, "t"), "scan-report", "{\"n\":1}", 1000}));
  ASSERT_OK(store_->StoreMetricsReport(scope_, {Id({"a"}, "t"), "commit-report", "{\"n\":2}", 2000}));
  ASSERT_OK(store_->StoreMetricsReport(scope_, {Id({"a"}, "u"), "scan-report", "{\"n\":3}", 3000}));
  ASSERT_OK(store_->StoreMetricsReport(other, {Id({"a"}, "t"), "scan-report", "{\"n\":4}", 4000}));
  ASSERT_OK(store_->StoreMetricsReport(scope_, {Id({"a"}, "t"), "scan-report", "{\"n\":5}", 5000}));

  auto all = store_->ListMetricsReports(scope_, {Id({"a"}, "t"), "", 0, 100});
  ASSERT_OK(all);
  ASSERT_EQ(all->size(), 3u) << "another table's or catalog's reports were listed";
  EXPECT_EQ((*all)[0].json, "{\"n\":1}");
  EXPECT_EQ((*all)[1].report_type, "commit-report");
  EXPECT_EQ((*all)[2].json, "{\"n\":5}");
  EXPECT_LT((*all)[0].id, (*all)[1].id);
  EXPECT_EQ((*all)[2].received_ms, 5000);

  auto scans = store_->ListMetricsReports(scope_, {Id({"a"}, "t"), "scan-report", 0, 100});
  ASSERT_OK(scans);
  EXPECT_EQ(scans->size(), 2u);
  auto page = store_->ListMetricsReports(scope_, {Id({"a"}, "t"), "", (*all)[0].id, 1});
  ASSERT_OK(page);
  ASSERT_EQ(page->size(), 1u);
  EXPECT_EQ((*page)[0].id, (*all)[1].id);
  EXPECT_EQ(store_->ListMetricsReports(scope_, {Id({"a"}, "t"), "", 0, 0}).error().kind,
            ErrorKind::kBadRequest);

  auto deleted = store_->DeleteMetricsReportsBefore(3000);
  ASSERT_OK(deleted);
  EXPECT_EQ(*deleted, 2);
  auto left = store_->ListMetricsReports(scope_, {Id({"a"}, "t"), "", 0, 100});
  ASSERT_OK(left);
  ASSERT_EQ(left->size(), 1u);
  EXPECT_EQ((*left)[0].json, "{\"n\":5}");
}

}  // namespace
}  // namespace firn::store::testing
