// Allowed locations (docs/authorization.md, "Locations"): the catalog creates, registers and
// moves tables and views only inside its base location or allowed locations, refuses before
// any file is written, and purge / drop view delete only inside the object's own location.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <fstream>
#include <sstream>

#include "catalog/location_policy.h"
#include "catalog/purge.h"
#include "catalog_test_support.h"
#include "metadata/gzip.h"
#include "metadata/table_update.h"
#include "metadata/view_update.h"

namespace firn::catalog::testing {
namespace {

class CatalogLocationsTest : public CatalogFixture {
 protected:
  void SetUp() override {
    CatalogFixture::SetUp();
    outside_ = dir_ / "outside";
    fs::create_directories(outside_);
    ASSERT_TRUE(svc().CreateNamespace(admin_, {"db"}, {}));
  }
  std::string Uri(const fs::path& p) { return "file://" + p.string(); }
  std::string Wh() { return Uri(warehouse_); }
  static std::string Slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    auto text = metadata::GunzipIfNeeded(p.string(), s.str());  // view files may be gzip'd
    EXPECT_TRUE(text);
    return text ? *text : "";
  }
  static void Write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  static fs::path PathOf(const std::string& uri) { return uri.substr(std::string("file://").size()); }
  LoadedTable CreateT(const std::string& name) {
    CreateTableRequest req;
    req.name = name;
    req.schema = TableSchema();
    auto created = svc().CreateTable(admin_, {"db"}, req);
    EXPECT_TRUE(created) << created.error().message;
    return *created;
  }
  bool OutsideEmpty() {
    for (const auto& e : fs::recursive_directory_iterator(outside_)) {
      if (e.is_regular_file()) return false;
    }
    return true;
  }
  fs::path outside_;
};

TEST_F(CatalogLocationsTest, CreateTableOutsideTheWarehouseIsForbiddenAndWritesNothing) {
  CreateTableRequest req;
  req.name = "t";
  req.schema = TableSchema();
  req.location = Uri(outside_ / "t");
  const CatalogState before = State();
  auto created = svc().CreateTable(admin_, {"db"}, req);
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(created.error().message, "Location " + Uri(outside_ / "t") +
                                         " is not allowed for catalog 'c'; allowed: " + Wh());
  EXPECT_TRUE(OutsideEmpty());
  EXPECT_EQ(State(), before);
}

TEST_F(CatalogLocationsTest, CreateTableRefusesParentSegmentsAndSiblingPrefixes) {
  CreateTableRequest req;
  req.name = "t";
  req.schema = TableSchema();
  req.location = Wh() + "/../outside/t";
  auto dotdot = svc().CreateTable(admin_, {"db"}, req);
  ASSERT_FALSE(dotdot);
  EXPECT_EQ(dotdot.error().kind, ErrorKind::kForbidden);
  req.location = Wh() + "2/t";  // .../wh2 is not inside .../wh
  auto sibling = svc().CreateTable(admin_, {"db"}, req);
  ASSERT_FALSE(sibling);
  EXPECT_EQ(sibling.error().kind, ErrorKind::kForbidden);
}

TEST_F(CatalogLocationsTest, CreateTableInsideWarehouseOrAllowedLocationSucceeds) {
  CreateTableRequest req;
  req.name = "t";
  req.schema = TableSchema();
  req.location = "file:" + (warehouse_ / "custom" / "t").string();  // file:/ form
  ASSERT_TRUE(svc().CreateTable(admin_, {"db"}, req));
  RequestContext ctx = admin_;
  ctx.catalog = std::make_shared<CatalogInfo>(
      CatalogInfo{"c", Wh(), "FILE", {Uri(outside_ / "extra")}, {}});
  req.name = "u";
  req.location = Uri(outside_ / "extra" / "u");
  auto created = svc().CreateTable(ctx, {"db"}, req);
  ASSERT_TRUE(created) << created.error().message;
  EXPECT_FALSE(OutsideEmpty());
}

TEST_F(CatalogLocationsTest, WriteMetadataPathOutsideIsForbiddenOnCreateAndCommit) {
  CreateTableRequest req;
  req.name = "t";
  req.schema = TableSchema();
  req.properties["write.metadata.path"] = Uri(outside_);
  auto created = svc().CreateTable(admin_, {"db"}, req);
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kForbidden);
  CreateT("t");
  TableChange change{{{"db"}, "t"}, {}, {metadata::SetProperties{{{"write.metadata.path", Uri(outside_)}}}}};
  auto updated = svc().UpdateTable(admin_, change);
  ASSERT_FALSE(updated);
  EXPECT_EQ(updated.error().kind, ErrorKind::kForbidden);
  EXPECT_TRUE(OutsideEmpty());
}

TEST_F(CatalogLocationsTest, SetLocationOutsideIsForbiddenInCommitsAndTransactions) {
  CreateT("t");
  const CatalogState before = State();
  TableChange change{{{"db"}, "t"}, {}, {metadata::SetLocation{Uri(outside_ / "t")}}};
  auto updated = svc().UpdateTable(admin_, change);
  ASSERT_FALSE(updated);
  EXPECT_EQ(updated.error().kind, ErrorKind::kForbidden);
  auto txn = svc().CommitTransaction(admin_, {change});
  ASSERT_FALSE(txn);
  EXPECT_EQ(txn.error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(State(), before);
  // A move inside the warehouse is still a plain commit.
  TableChange inside{{{"db"}, "t"}, {}, {metadata::SetLocation{Wh() + "/moved/t"}}};
  ASSERT_TRUE(svc().UpdateTable(admin_, inside));
}

TEST_F(CatalogLocationsTest, CreateThroughCommitOutsideIsForbidden) {
  TableChange change{{{"db"}, "t"},
                     {metadata::AssertCreate{}},
                     {metadata::SetLocation{Uri(outside_ / "t")}}};
  auto created = svc().UpdateTable(admin_, change);
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kForbidden);
  EXPECT_TRUE(OutsideEmpty());
}

TEST_F(CatalogLocationsTest, RegisterTableRefusesMetadataFileOrTableLocationOutside) {
  LoadedTable t = CreateT("t");
  const std::string text = Slurp(PathOf(t.metadata_location));
  // The file itself outside: refused before it is read.
  Write(outside_ / "m.metadata.json", text);
  auto far = svc().RegisterTable(admin_, {{"db"}, "r1"}, Uri(outside_ / "m.metadata.json"), false);
  ASSERT_FALSE(far);
  EXPECT_EQ(far.error().kind, ErrorKind::kForbidden);
  // The file inside, but naming a table location outside.
  auto json = boost::json::parse(text);
  json.as_object()["location"] = Uri(outside_ / "t");
  Write(warehouse_ / "planted" / "m.metadata.json", boost::json::serialize(json));
  auto planted =
      svc().RegisterTable(admin_, {{"db"}, "r2"}, Wh() + "/planted/m.metadata.json", false);
  ASSERT_FALSE(planted);
  EXPECT_EQ(planted.error().kind, ErrorKind::kForbidden);
  EXPECT_FALSE(store_->LoadPointer(admin_.scope, {{"db"}, "r1"}, store::ObjectKind::kTable));
  EXPECT_FALSE(store_->LoadPointer(admin_.scope, {{"db"}, "r2"}, store::ObjectKind::kTable));
}

TEST_F(CatalogLocationsTest, PurgeKeepsFilesListedOutsideTheTableLocation) {
  LoadedTable t = CreateT("t");
  // Metadata naming one file outside the catalog, one in a sibling table whose name extends
  // this one's, and one old metadata file of its own.
  const fs::path victim = outside_ / "victim.txt";
  const fs::path sibling = warehouse_ / "db" / "tt" / "metadata" / "keep.metadata.json";
  const fs::path own = warehouse_ / "db" / "t" / "metadata" / "old.metadata.json";
  for (const auto& p : {victim, sibling, own}) Write(p, "x");
  auto json = boost::json::parse(Slurp(PathOf(t.metadata_location)));
  boost::json::array log;
  for (const auto& p : {victim, sibling, own}) {
    log.push_back(boost::json::object{{"timestamp-ms", 1}, {"metadata-file", Uri(p)}});
  }
  json.as_object()["metadata-log"] = log;
  const fs::path crafted = warehouse_ / "db" / "t" / "metadata" / "00009-crafted.metadata.json";
  Write(crafted, boost::json::serialize(json));
  ASSERT_TRUE(svc().RegisterTable(admin_, {{"db"}, "t"}, Uri(crafted), true));

  ASSERT_TRUE(svc().DropTable(admin_, {{"db"}, "t"}, /*purge=*/true));
  EXPECT_TRUE(fs::exists(victim));
  EXPECT_TRUE(fs::exists(sibling));
  EXPECT_FALSE(fs::exists(own));
  EXPECT_FALSE(fs::exists(crafted));
}

TEST_F(CatalogLocationsTest, PurgeTableFilesDeletesOnlyUnderTheLocation) {
  const fs::path victim = outside_ / "stats.puffin";
  const fs::path own = warehouse_ / "t" / "metadata" / "v1.metadata.json";
  const fs::path current = warehouse_ / "t" / "metadata" / "v2.metadata.json";
  const fs::path elsewhere = outside_ / "v3.metadata.json";
  for (const auto& p : {victim, own, current, elsewhere}) Write(p, "x");
  metadata::TableMetadata table;
  table.location = Wh() + "/t/";
  table.metadata_log = {{1, Uri(victim)}, {2, "file:" + own.string()}};
  auto objects = io::MakeDefaultObjectStore();
  auto anything = [](std::string_view) { return true; };
  EXPECT_EQ(PurgeTableFiles(*objects, table, Uri(current), anything), 2u);
  EXPECT_TRUE(fs::exists(victim));
  EXPECT_FALSE(fs::exists(own));
  EXPECT_FALSE(fs::exists(current));
  // A current metadata file outside the location (registered from elsewhere) is kept too.
  table.metadata_log.clear();
  EXPECT_EQ(PurgeTableFiles(*objects, table, Uri(elsewhere), anything), 0u);
  EXPECT_TRUE(fs::exists(elsewhere));
}

TEST_F(CatalogLocationsTest, PurgeTableFilesKeepsWhatTheOwnershipCheckRefuses) {
  const fs::path mine = warehouse_ / "t" / "data" / "a.parquet";
  const fs::path theirs = warehouse_ / "t" / "other" / "b.parquet";
  const fs::path current = warehouse_ / "t" / "metadata" / "v2.metadata.json";
  for (const auto& p : {mine, theirs, current}) Write(p, "x");
  metadata::TableMetadata table;
  table.location = Wh() + "/t";
  table.metadata_log = {{1, Uri(mine)}, {2, Uri(theirs)}};
  auto objects = io::MakeDefaultObjectStore();
  auto not_theirs = [](std::string_view f) { return f.find("/other/") == std::string_view::npos; };
  EXPECT_EQ(PurgeTableFiles(*objects, table, Uri(current), not_theirs), 2u);
  EXPECT_FALSE(fs::exists(mine));
  EXPECT_TRUE(fs::exists(theirs));
}

TEST_F(CatalogLocationsTest, CreateViewAndSetLocationOutsideAreForbidden) {
  CreateViewRequest req = ViewRequest("v");
  req.location = Uri(outside_ / "v");
  auto created = svc().CreateView(admin_, {"db"}, req);
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kForbidden);
  ASSERT_TRUE(svc().CreateView(admin_, {"db"}, ViewRequest("v")));
  ViewChange change{{{"db"}, "v"}, {}, {metadata::SetLocation{Uri(outside_ / "v")}}};
  auto replaced = svc().ReplaceView(admin_, change);
  ASSERT_FALSE(replaced);
  EXPECT_EQ(replaced.error().kind, ErrorKind::kForbidden);
  EXPECT_TRUE(OutsideEmpty());
}

TEST_F(CatalogLocationsTest, RegisterViewOutsideIsForbidden) {
  auto v = svc().CreateView(admin_, {"db"}, ViewRequest("v"));
  ASSERT_TRUE(v);
  const std::string text = Slurp(PathOf(v->metadata_location));
  Write(outside_ / "v.metadata.json", text);
  auto far = svc().RegisterView(admin_, {{"db"}, "r1"}, Uri(outside_ / "v.metadata.json"));
  ASSERT_FALSE(far);
  EXPECT_EQ(far.error().kind, ErrorKind::kForbidden);
  auto json = boost::json::parse(text);
  json.as_object()["location"] = Uri(outside_ / "v");
  Write(warehouse_ / "planted" / "v.metadata.json", boost::json::serialize(json));
  auto planted = svc().RegisterView(admin_, {{"db"}, "r2"}, Wh() + "/planted/v.metadata.json");
  ASSERT_FALSE(planted);
  EXPECT_EQ(planted.error().kind, ErrorKind::kForbidden);
}

TEST_F(CatalogLocationsTest, RegisterViewRefusesAFileOutsideTheLocationItDescribes) {
  auto v = svc().CreateView(admin_, {"db"}, ViewRequest("v"));
  ASSERT_TRUE(v);
  ASSERT_TRUE(svc().DropView(admin_, {{"db"}, "v"}));  // its location is free again
  // A copy elsewhere in the warehouse describes v's location: the file is not v's to hand out
  // (it could otherwise name any location and make the catalog own and later delete it).
  const fs::path other = warehouse_ / "shared" / "v.metadata.json";
  Write(other, Slurp(PathOf(v->metadata_location)));
  auto copy = svc().RegisterView(admin_, {{"db"}, "w"}, Uri(other));
  ASSERT_FALSE(copy);
  EXPECT_EQ(copy.error().kind, ErrorKind::kBadRequest);
  EXPECT_TRUE(fs::exists(other));
  // A view's own file is deleted on drop.
  auto v2 = svc().CreateView(admin_, {"db"}, ViewRequest("v2"));
  ASSERT_TRUE(v2);
  ASSERT_TRUE(svc().DropView(admin_, {{"db"}, "v2"}));
  EXPECT_FALSE(fs::exists(PathOf(v2->metadata_location)));
}

// Rename keeps a table's location, so the old name's default location is still owned: a new
// table of that name gets a location of its own beside it instead of a 409 (and never the
// renamed table's files).
TEST_F(CatalogLocationsTest, ANewTableWithARenamedTablesOldNameGetsALocationOfItsOwn) {
  const LoadedTable first = CreateT("t");
  const std::string old_location = first.table->metadata.location;
  ASSERT_EQ(old_location, Wh() + "/db/t");
  ASSERT_TRUE(svc().RenameTable(admin_, {{"db"}, "t"}, {{"db"}, "moved"}));
  const LoadedTable second = CreateT("t");
  ASSERT_TRUE(second.table);
  const std::string& fresh = second.table->metadata.location;
  EXPECT_NE(fresh, old_location);
  EXPECT_TRUE(fresh.starts_with(old_location + "-")) << fresh;
  EXPECT_FALSE(IsUnder(fresh, old_location)) << fresh;
  // Dropping the renamed table with purge leaves the new one loadable.
  ASSERT_TRUE(svc().DropTable(admin_, {{"db"}, "moved"}, /*purge=*/true));
  EXPECT_TRUE(svc().LoadTable(admin_, {{"db"}, "t"}));
}

// A table over a view of the same name (and the reverse) is refused for its name, worded as
// the Java catalogs word it, before the shared default location is considered.
TEST_F(CatalogLocationsTest, ATableAndAViewOfOneNameAreRefusedForTheName) {
  ASSERT_TRUE(svc().CreateView(admin_, {"db"}, ViewRequest("v")));
  CreateTableRequest req;
  req.name = "v";
  req.schema = TableSchema();
  auto table = svc().CreateTable(admin_, {"db"}, req);
  ASSERT_FALSE(table);
  EXPECT_EQ(table.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(table.error().message, "View with same name already exists: db.v");
  CreateT("t");
  auto view = svc().CreateView(admin_, {"db"}, ViewRequest("t"));
  ASSERT_FALSE(view);
  EXPECT_EQ(view.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(view.error().message, "Table with same name already exists: db.t");
}

}  // namespace
}  // namespace firn::catalog::testing
