// Contract tests for what follows an object inside its own transaction (store.h): a GrantsPlan's
// access writes commit with the rename, drop, undrop or move they ride on, or not at all; and
// MoveObject hands a table to another catalog with its claims, which keep their host.
// Instantiated for every backend by the backend files (see catalog_store_contract.h).
#include "catalog_store_contract.h"
#include "store/store.h"

namespace firn::store::testing {
namespace {

const ObjectKind kTable = ObjectKind::kTable;

LocationClaim Claim(std::vector<std::string> locations, std::string host = "") {
  LocationClaim c;
  c.locations = std::move(locations);
  c.host_catalog = std::move(host);
  return c;
}

AccessRecord Grant(const CatalogScope& scope, std::string name, std::string body = "{}") {
  AccessRecord r;
  r.realm = scope.realm;
  r.kind = AccessKind::kPrivilegeGrant;
  r.scope = scope.catalog;
  r.name = std::move(name);
  r.body = std::move(body);
  return r;
}

AccessWrite Write(AccessWrite::Op op, AccessRecord record) {
  AccessWrite w;
  w.op = op;
  w.record = std::move(record);
  return w;
}

// The names of the privilege_grant records of `scope` as stored now.
std::vector<std::string> GrantNames(CatalogStore& store, const CatalogScope& scope) {
  std::vector<std::string> out;
  auto rows = store.LoadAccess();
  EXPECT_TRUE(rows);
  for (const AccessRecord& r : rows->records) {
    if (r.kind == AccessKind::kPrivilegeGrant && r.realm == scope.realm &&
        r.scope == scope.catalog) {
      out.push_back(r.name);
    }
  }
  return out;
}

// A plan that renames grant "on-<from>" to "on-<to>", and records what it was shown.
GrantsPlan RenamePlan(const CatalogScope& scope, std::string from, std::string to,
                      std::vector<std::string>* seen) {
  return [=](const std::vector<AccessRecord>& records, std::string_view) -> Result<GrantsChange> {
    GrantsChange change;
    for (const AccessRecord& r : records) {
      if (seen) seen->push_back(std::string(AccessKindName(r.kind)) + ":" + r.name);
      if (r.kind == AccessKind::kPrivilegeGrant && r.name == "on-" + from) {
        change.writes.push_back(Write(AccessWrite::Op::kDelete, r));
        change.writes.push_back(Write(AccessWrite::Op::kCreate, Grant(scope, "on-" + to)));
      }
    }
    return change;
  };
}

TEST_P(CatalogStoreContractTest, ARenamesGrantsMoveInItsTransactionAndBumpTheVersion) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "t"}, kTable, "m1"));
  AccessRecord role = Grant(scope_, "readers");
  role.kind = AccessKind::kCatalogRole;
  ASSERT_TRUE(store_->ApplyAccessWrites({Write(AccessWrite::Op::kCreate, role),
                                         Write(AccessWrite::Op::kCreate, Grant(scope_, "on-t")),
                                         Write(AccessWrite::Op::kCreate, Grant(scope_, "other"))},
                                        nullptr, 0));
  // Another catalog's records are not the plan's to see.
  const CatalogScope elsewhere{scope_.realm, "elsewhere"};
  ASSERT_TRUE(store_->ApplyAccessWrites(
      {Write(AccessWrite::Op::kCreate, Grant(elsewhere, "on-t"))}, nullptr, 0));
  const int64_t before = *store_->AccessVersion();

  std::vector<std::string> seen;
  const GrantsPlan plan = RenamePlan(scope_, "t", "u", &seen);
  ASSERT_TRUE(store_->RenameObject(scope_, {{"a"}, "t"}, {{"a"}, "u"}, kTable, nullptr, &plan));
  EXPECT_EQ(seen, (std::vector<std::string>{"catalog_role:readers", "privilege_grant:on-t",
                                            "privilege_grant:other"}));
  EXPECT_EQ(GrantNames(*store_, scope_), (std::vector<std::string>{"on-u", "other"}));
  EXPECT_EQ(GrantNames(*store_, elsewhere), (std::vector<std::string>{"on-t"}));
  EXPECT_GT(*store_->AccessVersion(), before);  // instances reload the grants
  EXPECT_TRUE(store_->LoadPointer(scope_, {{"a"}, "u"}, kTable));
}

TEST_P(CatalogStoreContractTest, APlanThatChangesNothingLeavesTheAccessVersion) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "t"}, kTable, "m1"));
  const int64_t before = *store_->AccessVersion();
  const GrantsPlan plan = RenamePlan(scope_, "t", "u", nullptr);
  ASSERT_TRUE(store_->DropObject(scope_, {{"a"}, "t"}, kTable, nullptr, &plan));
  EXPECT_EQ(*store_->AccessVersion(), before);
}

TEST_P(CatalogStoreContractTest, AFailingPlanOrAFailingWriteKeepsBothObjectAndGrants) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "t"}, kTable, "m1"));
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "taken"}, kTable, "m2"));
  ASSERT_TRUE(store_->ApplyAccessWrites({Write(AccessWrite::Op::kCreate, Grant(scope_, "on-t"))},
                                        nullptr, 0));
  const GrantsPlan refuses = [](const std::vector<AccessRecord>&,
                                std::string_view) -> Result<GrantsChange> {
    return Fail(ErrorKind::kBadRequest, "no");
  };
  Status refused = store_->RenameObject(scope_, {{"a"}, "t"}, {{"a"}, "u"}, kTable, nullptr,
                                        &refuses);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kBadRequest);
  EXPECT_TRUE(store_->LoadPointer(scope_, {{"a"}, "t"}, kTable));

  // The plan's writes ran, then the rename failed: they are rolled back with it.
  const GrantsPlan plan = RenamePlan(scope_, "t", "taken", nullptr);
  Status onto_taken = store_->RenameObject(scope_, {{"a"}, "t"}, {{"a"}, "taken"}, kTable,
                                           nullptr, &plan);
  ASSERT_FALSE(onto_taken);
  EXPECT_EQ(onto_taken.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(GrantNames(*store_, scope_), (std::vector<std::string>{"on-t"}));
}

TEST_P(CatalogStoreContractTest, ASoftDropKeepsTheStashAndTheUndropGetsItBack) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "t"}, kTable, "m1"));
  ASSERT_TRUE(store_->ApplyAccessWrites({Write(AccessWrite::Op::kCreate, Grant(scope_, "on-t"))},
                                        nullptr, 0));
  const GrantsPlan drop = [&](const std::vector<AccessRecord>& records,
                              std::string_view) -> Result<GrantsChange> {
    GrantsChange change;
    for (const AccessRecord& r : records) {
      if (r.name == "on-t") change.writes.push_back(Write(AccessWrite::Op::kDelete, r));
    }
    change.stash = R"(["kept"])";
    return change;
  };
  DroppedObject d;
  d.drop_id = "d1";
  d.scope = scope_;
  d.id = {{"a"}, "t"};
  d.metadata_location = "m1";
  d.expires_ms = 5000;
  ASSERT_TRUE(store_->SoftDropObject(d, nullptr, &drop));
  EXPECT_TRUE(GrantNames(*store_, scope_).empty());

  std::string given;
  const GrantsPlan restore = [&](const std::vector<AccessRecord>&,
                                 std::string_view stash) -> Result<GrantsChange> {
    given = std::string(stash);
    GrantsChange change;
    change.writes.push_back(Write(AccessWrite::Op::kCreate, Grant(scope_, "on-back")));
    return change;
  };
  // A refused undrop (the name is taken) restores no grant either.
  ASSERT_TRUE(store_->CreateObject(scope_, {{"a"}, "t"}, kTable, "m9"));
  ASSERT_FALSE(store_->UndropObject(scope_, "d1", {{"a"}, "t"}, nullptr, &restore));
  EXPECT_TRUE(GrantNames(*store_, scope_).empty());
  ASSERT_TRUE(store_->UndropObject(scope_, "d1", {{"a"}, "back"}, nullptr, &restore));
  EXPECT_EQ(given, R"(["kept"])");
  EXPECT_EQ(GrantNames(*store_, scope_), (std::vector<std::string>{"on-back"}));
}

TEST_P(CatalogStoreContractTest, DroppingANamespaceRunsItsPlan) {
  ASSERT_TRUE(store_->CreateNamespace(scope_, {"a"}, {}));
  ASSERT_TRUE(store_->ApplyAccessWrites({Write(AccessWrite::Op::kCreate, Grant(scope_, "on-a"))},
                                        nullptr, 0));
  const GrantsPlan plan = [](const std::vector<AccessRecord>& records,
                             std::string_view) -> Result<GrantsChange> {
    GrantsChange change;
    for (const AccessRecord& r : records) change.writes.push_back(Write(AccessWrite::Op::kDelete, r));
    return change;
  };
  ASSERT_TRUE(store_->DropNamespace(scope_, {"a"}, nullptr, &plan));
  EXPECT_TRUE(GrantNames(*store_, scope_).empty());
}

// ---- MoveObject ------------------------------------------------------------------------------

class MoveFixture {
 public:
  static LocationOwner Owner(const CatalogScope& scope, Identifier id) {
    return {scope.realm, scope.catalog, LocationOwnerKind::kTable, id.ns, id.name};
  }
};

// Two catalogs with disjoint bases; table a.t of `src` lives under src's base.
void TwoCatalogs(CatalogStore& store, const CatalogScope& src, const CatalogScope& dst) {
  AccessRecord s;
  s.realm = src.realm;
  s.kind = AccessKind::kCatalog;
  s.name = src.catalog;
  s.body = "{}";
  AccessRecord d = s;
  d.name = dst.catalog;
  AccessWrite ws = Write(AccessWrite::Op::kCreate, s);
  ws.claim = Claim({"s3://b/src"});
  AccessWrite wd = Write(AccessWrite::Op::kCreate, d);
  wd.claim = Claim({"s3://b/dst"});
  ASSERT_TRUE(store.ApplyAccessWrites({ws, wd}, nullptr, 0));
  ASSERT_TRUE(store.CreateNamespace(src, {"a"}, {}));
  ASSERT_TRUE(store.CreateNamespace(dst, {"x"}, {}));
  const LocationClaim t = Claim({"s3://b/src/a/t"});
  ASSERT_TRUE(store.CreateObject(src, {{"a"}, "t"}, kTable, "s3://b/src/a/t/metadata/1.json",
                                 nullptr, &t));
}

TEST_P(CatalogStoreContractTest, AMoveHandsPointerFenceAndClaimsToTheTargetCatalog) {
  const CatalogScope src{scope_.realm, "src"};
  const CatalogScope dst{scope_.realm, "dst"};
  TwoCatalogs(*store_, src, dst);
  ASSERT_TRUE(store_->SetFence(src, {{"a"}, "t"}, kTable, R"({"state":"kept"})"));
  ASSERT_TRUE(store_->MoveObject(src, {{"a"}, "t"}, dst, {{"x"}, "t2"}, kTable,
                                 "s3://b/src/a/t/metadata/1.json"));
  EXPECT_EQ(store_->LoadPointer(src, {{"a"}, "t"}, kTable).error().kind, ErrorKind::kNoSuchTable);
  auto moved = store_->LoadPointer(dst, {{"x"}, "t2"}, kTable);
  ASSERT_TRUE(moved) << moved.error().message;
  EXPECT_EQ(moved->metadata_location, "s3://b/src/a/t/metadata/1.json");
  EXPECT_EQ(moved->fence, R"({"state":"kept"})");

  // Its files stay where they are: its claim is now the target's, hosted by the source.
  auto holders = store_->LocationHolders("s3://b/src/a/t/data/f.parquet");
  ASSERT_TRUE(holders);
  bool found = false;
  for (const HeldLocation& h : *holders) {
    if (h.owner.kind != LocationOwnerKind::kTable) continue;
    found = true;
    EXPECT_EQ(h.owner, MoveFixture::Owner(dst, {{"x"}, "t2"}));
    EXPECT_EQ(h.host_catalog, "src");
  }
  EXPECT_TRUE(found);
  // The location is still taken, for the source's tables and the target's alike.
  const LocationClaim inside = Claim({"s3://b/src/a/t/inner"});
  Status taken = store_->CreateObject(src, {{"a"}, "u"}, kTable, "m", nullptr, &inside);
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().kind, ErrorKind::kLocationConflict);
  // A commit that rewrites the claim with its host keeps it; without it, the source's
  // container refuses (the two catalogs do not overlap otherwise).
  const LocationClaim hosted = Claim({"s3://b/src/a/t"}, "src");
  EXPECT_TRUE(store_->SwapPointer(dst, {{"x"}, "t2"}, kTable, "s3://b/src/a/t/metadata/1.json",
                                  "s3://b/src/a/t/metadata/2.json", nullptr, &hosted));
  const LocationClaim unhosted = Claim({"s3://b/src/a/t"});
  auto refused = store_->SwapPointer(dst, {{"x"}, "t2"}, kTable, "s3://b/src/a/t/metadata/2.json",
                                     "s3://b/src/a/t/metadata/3.json", nullptr, &unhosted);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kLocationConflict);

  // The source catalog may not go while it holds the files.
  AccessRecord gone;
  gone.realm = src.realm;
  gone.kind = AccessKind::kCatalog;
  gone.name = "src";
  auto deleted = store_->ApplyAccessWrites({Write(AccessWrite::Op::kDelete, gone)}, nullptr, 0);
  ASSERT_FALSE(deleted);
  EXPECT_EQ(deleted.error().kind, ErrorKind::kLocationConflict);
  EXPECT_NE(deleted.error().message.find("holds the files of"), std::string::npos);

  // Moving it back home drops the host.
  ASSERT_TRUE(store_->MoveObject(dst, {{"x"}, "t2"}, src, {{"a"}, "t"}, kTable,
                                 "s3://b/src/a/t/metadata/2.json"));
  holders = store_->LocationHolders("s3://b/src/a/t");
  ASSERT_TRUE(holders);
  for (const HeldLocation& h : *holders) {
    if (h.owner.kind == LocationOwnerKind::kTable) {
      EXPECT_EQ(h.host_catalog, "");
    }
  }
}

TEST_P(CatalogStoreContractTest, AMoveIsRefusedWithoutLossWhenItCannotHappen) {
  const CatalogScope src{scope_.realm, "src"};
  const CatalogScope dst{scope_.realm, "dst"};
  TwoCatalogs(*store_, src, dst);
  const std::string m1 = "s3://b/src/a/t/metadata/1.json";
  ASSERT_TRUE(store_->CreateObject(dst, {{"x"}, "taken"}, kTable, "s3://b/dst/x/taken/m.json"));
  // A commit came first.
  auto stale = store_->MoveObject(src, {{"a"}, "t"}, dst, {{"x"}, "t"}, kTable, "old.json");
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind, ErrorKind::kCommitFailed);
  // The name is taken; the namespace is missing; the object is missing.
  EXPECT_EQ(store_->MoveObject(src, {{"a"}, "t"}, dst, {{"x"}, "taken"}, kTable, m1).error().kind,
            ErrorKind::kAlreadyExists);
  EXPECT_EQ(store_->MoveObject(src, {{"a"}, "t"}, dst, {{"nope"}, "t"}, kTable, m1).error().kind,
            ErrorKind::kNoSuchNamespace);
  EXPECT_EQ(store_->MoveObject(src, {{"a"}, "zz"}, dst, {{"x"}, "t"}, kTable, m1).error().kind,
            ErrorKind::kNoSuchTable);
  // Moving out to another deployment: no move.
  ASSERT_TRUE(store_->SetMoving(src, {{"a"}, "t"}, kTable, R"({"to":"b"})"));
  EXPECT_EQ(store_->MoveObject(src, {{"a"}, "t"}, dst, {{"x"}, "t"}, kTable, m1).error().kind,
            ErrorKind::kCommitFailed);
  ASSERT_TRUE(store_->SetMoving(src, {{"a"}, "t"}, kTable, ""));
  // Another realm: never.
  const CatalogScope other_realm{"other", "dst"};
  EXPECT_EQ(store_->MoveObject(src, {{"a"}, "t"}, other_realm, {{"x"}, "t"}, kTable, m1)
                .error()
                .kind,
            ErrorKind::kBadRequest);
  // Nothing moved.
  auto still = store_->LoadPointer(src, {{"a"}, "t"}, kTable);
  ASSERT_TRUE(still);
  EXPECT_EQ(still->metadata_location, m1);
  auto holders = store_->LocationHolders("s3://b/src/a/t");
  ASSERT_TRUE(holders);
  for (const HeldLocation& h : *holders) {
    if (h.owner.kind == LocationOwnerKind::kTable) {
      EXPECT_EQ(h.owner, MoveFixture::Owner(src, {{"a"}, "t"}));
    }
  }
}

// The moving mark, the fence and a move carry their audit rows (the change events) in their own
// transaction: a refused change writes none, so an event never tells of a change that did not
// happen, and a change that happened never lacks its event (docs/events.md).
TEST_P(CatalogStoreContractTest, MovingMarksFencesAndMovesWriteTheirAuditRowsOrNone) {
  const CatalogScope src{scope_.realm, "src"};
  const CatalogScope dst{scope_.realm, "dst"};
  TwoCatalogs(*store_, src, dst);
  const std::string m1 = "s3://b/src/a/t/metadata/1.json";
  auto row = [](const CatalogScope& scope, std::string operation) {
    AuditEntry e;
    e.realm = scope.realm;
    e.catalog = scope.catalog;
    e.principal = "root";
    e.operation = std::move(operation);
    e.object = "table a.t";
    e.outcome = "success";
    return e;
  };
  const size_t before = AllAudit(*store_).size();
  auto operations_since = [&] {
    std::vector<std::string> out;
    auto all = AllAudit(*store_);
    for (size_t i = before; i < all.size(); ++i) {
      out.push_back(all[i].catalog + ":" + all[i].operation);
    }
    return out;
  };

  // Refused: a missing table is neither marked nor fenced, and no row tells otherwise.
  const AuditEntry mark = row(src, "moveTableOut");
  EXPECT_EQ(store_->SetMoving(src, {{"a"}, "nope"}, kTable, R"({"to":"b"})", &mark).error().kind,
            ErrorKind::kNoSuchTable);
  const AuditEntry fence = row(src, "detectForeignWriter");
  EXPECT_EQ(store_->SetFence(src, {{"a"}, "nope"}, kTable, R"({"state":"fenced"})", &fence)
                .error()
                .kind,
            ErrorKind::kNoSuchTable);
  // Refused: the target name is taken; neither half of the move is recorded.
  ASSERT_TRUE(store_->CreateObject(dst, {{"x"}, "taken"}, kTable, "s3://b/dst/x/taken/m.json"));
  const std::vector<AuditEntry> halves{row(src, "moveTable"), row(dst, "moveTable")};
  EXPECT_EQ(store_->MoveObject(src, {{"a"}, "t"}, dst, {{"x"}, "taken"}, kTable, m1, halves)
                .error()
                .kind,
            ErrorKind::kAlreadyExists);
  EXPECT_EQ(operations_since(), std::vector<std::string>{});

  // Done: each change with its row, a move with both catalogs' halves.
  ASSERT_OK(store_->SetMoving(src, {{"a"}, "t"}, kTable, R"({"to":"b"})", &mark));
  const AuditEntry cancel = row(src, "cancelTableMove");
  ASSERT_OK(store_->SetMoving(src, {{"a"}, "t"}, kTable, "", &cancel));
  ASSERT_OK(store_->SetFence(src, {{"a"}, "t"}, kTable, R"({"state":"kept"})", &fence));
  ASSERT_OK(store_->MoveObject(src, {{"a"}, "t"}, dst, {{"x"}, "t"}, kTable, m1, halves));
  EXPECT_EQ(operations_since(),
            (std::vector<std::string>{"src:moveTableOut", "src:cancelTableMove",
                                      "src:detectForeignWriter", "src:moveTable",
                                      "dst:moveTable"}));
}

}  // namespace
}  // namespace firn::store::testing
