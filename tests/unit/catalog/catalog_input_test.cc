// Hostile input at the service (issue 9), written as the attacks: names that would nest or
// escape a path, property maps that grow without bound, files that are not metadata handed to
// register. Each must fail with a 400-kind error and leave the catalog and the warehouse as
// they were.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <fstream>
#include <sstream>
#include <thread>

#include "catalog_test_support.h"
#include "metadata/gzip.h"
#include "metadata/serde.h"
#include "metadata/table_requirement.h"
#include "metadata/table_update.h"
#include "metadata/view_update.h"

namespace firn::catalog::testing {
namespace {

using store::ObjectKind;

const std::vector<std::string> kHostile = {
    ".", "..", "", "a/b", "../../escape", std::string("a\0b", 3), "a\x01", "a\x7F",
    "a\xC2\x85", "a\xFF", "\xC0\xAF", std::string(256, 'n'),
};

PropertyLimits SmallLimits() {
  return PropertyLimits{.max_key_bytes = 16, .max_value_bytes = 64, .max_total_bytes = 256,
                        .max_count = 8};
}

class CatalogInputTest : public CatalogFixture {
 protected:
  void SetUp() override {
    CatalogFixture::SetUp();
    Restart(SmallLimits(), 16 << 10);
    ASSERT_TRUE(svc().CreateNamespace(admin_, {"db"}, {}));
  }
  // A new service over the same store and warehouse, with other limits.
  void Restart(PropertyLimits props, size_t max_file) {
    service_ = std::make_unique<CatalogService>(
        store_, io::MakeDefaultObjectStore(),
        CatalogRegistry(CatalogInfo{"c", "file://" + warehouse_.string()}),
        CommitOptions{.max_attempts = 2, .base_backoff_ms = 1},
        InputLimits{.properties = props, .max_metadata_file_bytes = max_file});
    service_->SetDropRetention(std::chrono::seconds(0));
  }
  std::string Wh() const { return "file://" + warehouse_.string(); }
  LoadedTable CreateT(const std::string& name, Properties props = {}) {
    CreateTableRequest req;
    req.name = name;
    req.schema = TableSchema();
    req.properties = std::move(props);
    auto created = svc().CreateTable(admin_, {"db"}, req);
    EXPECT_TRUE(created) << created.error().message;
    return created ? *created : LoadedTable{};
  }
  static std::string Slurp(const std::string& uri) {
    std::ifstream in(uri.substr(std::string("file://").size()), std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void Plant(const std::string& rel, const std::string& bytes) {
    const fs::path p = warehouse_ / "planted" / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
  }
  std::string Planted(const std::string& rel) const { return Wh() + "/planted/" + rel; }
};

template <typename R>
Status ToStatus(const R& r) {
  if (r) return Ok();
  return Fail(r.error());
}

template <typename R>
void ExpectBadRequest(const R& r, const std::string& what) {
  ASSERT_FALSE(r) << what;
  EXPECT_EQ(ErrorKindName(r.error().kind), ErrorKindName(ErrorKind::kBadRequest))
      << what << ": " << r.error().message;
}

// ---- Names -----------------------------------------------------------------------------------

TEST_F(CatalogInputTest, EveryMethodThatCreatesANameRefusesHostileNames) {
  LoadedTable t = CreateT("t");
  auto view = svc().CreateView(admin_, {"db"}, ViewRequest("v"));
  ASSERT_TRUE(view);
  const std::string table_file = t.metadata_location;
  const std::string view_file = view->metadata_location;
  const CatalogState before = State();
  for (const std::string& bad : kHostile) {
    SCOPED_TRACE(::testing::PrintToString(bad));
    ExpectBadRequest(svc().CreateNamespace(admin_, {bad}, {}), "namespace");
    ExpectBadRequest(svc().CreateNamespace(admin_, {"db", bad}, {}), "nested namespace");
    CreateTableRequest req;
    req.name = bad;
    req.schema = TableSchema();
    ExpectBadRequest(svc().CreateTable(admin_, {"db"}, req), "create table");
    req.stage_create = true;
    ExpectBadRequest(svc().CreateTable(admin_, {"db"}, req), "stage-create");
    ExpectBadRequest(svc().RegisterTable(admin_, {{"db"}, bad}, table_file, false), "register");
    ExpectBadRequest(svc().RenameTable(admin_, {{"db"}, "t"}, {{"db"}, bad}), "rename target");
    ExpectBadRequest(svc().RenameTable(admin_, {{"db"}, "t"}, {{bad}, "t2"}), "rename target ns");
    TableChange create{{{"db"}, bad}, {metadata::AssertCreate{}}, {}};
    ExpectBadRequest(svc().UpdateTable(admin_, create), "create transaction");
    ExpectBadRequest(svc().CommitTransaction(admin_, {create}), "multi-table create");
    ExpectBadRequest(svc().CreateView(admin_, {"db"}, ViewRequest(bad)), "create view");
    ExpectBadRequest(svc().RegisterView(admin_, {{"db"}, bad}, view_file), "register view");
    ExpectBadRequest(svc().RenameView(admin_, {{"db"}, "v"}, {{"db"}, bad}), "rename view");
  }
  EXPECT_EQ(State(), before) << "a refused name must change nothing, on disk or in the store";
}

// The attack of the review: "." would get its namespace's own location, "a/b" a location
// inside table "a"; either would let one table's files (and purge) reach another's.
TEST_F(CatalogInputTest, DotAndSlashTablesCannotTakeANamespaceOrSiblingLocation) {
  LoadedTable a = CreateT("a");
  const CatalogState before = State();
  for (const char* name : {".", "a/b", "a/metadata"}) {
    CreateTableRequest req;
    req.name = name;
    req.schema = TableSchema();
    ExpectBadRequest(svc().CreateTable(admin_, {"db"}, req), name);
  }
  EXPECT_EQ(State(), before);
  EXPECT_EQ(Pointer({{"db"}, "a"}, ObjectKind::kTable), a.metadata_location);
}

// ---- Namespace properties --------------------------------------------------------------------

TEST_F(CatalogInputTest, NamespaceCreateOverAnyPropertyLimitStoresNothing) {
  const Properties too_many = {{"1", ""}, {"2", ""}, {"3", ""}, {"4", ""}, {"5", ""},
                               {"6", ""}, {"7", ""}, {"8", ""}, {"9", ""}};
  const Properties long_key = {{std::string(17, 'k'), "v"}};
  const Properties long_value = {{"k", std::string(65, 'v')}};
  const Properties too_big = {{"a", std::string(64, 'v')}, {"b", std::string(64, 'v')},
                              {"c", std::string(64, 'v')}, {"d", std::string(64, 'v')}};
  const CatalogState before = State();
  for (const Properties& props : {too_many, long_key, long_value, too_big}) {
    ExpectBadRequest(svc().CreateNamespace(admin_, {"n"}, props), "create");
  }
  EXPECT_EQ(State(), before);
  EXPECT_FALSE(store_->LoadNamespace(admin_.scope, {"n"}));
}

TEST_F(CatalogInputTest, SmallNamespaceUpdatesCannotAddUpPastTheLimits) {
  // 60-byte values: four fit in 256 bytes (4 * 61), the fifth does not.
  int accepted = 0;
  for (int i = 0; i < 10; ++i) {
    auto r = svc().UpdateProperties(admin_, {"db"}, {},
                                    {{std::string(1, static_cast<char>('a' + i)),
                                      std::string(60, 'v')}});
    if (r) {
      ++accepted;
    } else {
      EXPECT_EQ(r.error().kind, ErrorKind::kBadRequest);
      EXPECT_EQ(r.error().message,
                "Invalid namespace properties: keys and values exceed 256 bytes in total");
    }
  }
  EXPECT_EQ(accepted, 4);
  EXPECT_EQ(store_->LoadNamespace(admin_.scope, {"db"})->size(), 4u);
  // Shrinking is always allowed; it frees room for another.
  ASSERT_TRUE(svc().UpdateProperties(admin_, {"db"}, {"a"}, {}));
  EXPECT_TRUE(svc().UpdateProperties(admin_, {"db"}, {}, {{"z", std::string(60, 'v')}}));
}

TEST_F(CatalogInputTest, ConcurrentNamespaceUpdatesCannotOverspendTheCount) {
  std::vector<std::thread> writers;
  for (int i = 0; i < 16; ++i) {
    writers.emplace_back([this, i] {
      (void)svc().UpdateProperties(admin_, {"db"}, {}, {{"k" + std::to_string(i), "v"}});
    });
  }
  for (auto& w : writers) w.join();
  EXPECT_EQ(store_->LoadNamespace(admin_.scope, {"db"})->size(), SmallLimits().max_count);
}

// ---- Table and view properties ---------------------------------------------------------------

TEST_F(CatalogInputTest, TableCreateOverThePropertyLimitsWritesNothing) {
  const CatalogState before = State();
  CreateTableRequest req;
  req.name = "big";
  req.schema = TableSchema();
  req.properties = {{"k", std::string(65, 'v')}};
  ExpectBadRequest(svc().CreateTable(admin_, {"db"}, req), "create");
  req.stage_create = true;
  ExpectBadRequest(svc().CreateTable(admin_, {"db"}, req), "stage-create");
  auto schema = metadata::SchemaFromJson(TableSchema());
  ASSERT_TRUE(schema);
  TableChange create{{{"db"}, "big"},
                     {metadata::AssertCreate{}},
                     {metadata::AddSchema{*schema, std::nullopt},
                      metadata::SetProperties{{{"k", std::string(65, 'v')}}}}};
  ExpectBadRequest(svc().UpdateTable(admin_, create), "create transaction");
  EXPECT_EQ(State(), before);
  // The same create with properties within the limits succeeds: the refusal was the limit.
  std::get<metadata::SetProperties>(create.updates[1]).updates = {{"k", "v"}};
  create.id.name = "small";
  EXPECT_TRUE(svc().UpdateTable(admin_, create));
}

TEST_F(CatalogInputTest, TableCommitsCannotGrowPropertiesPastTheLimits) {
  LoadedTable t = CreateT("t");
  std::string current = t.metadata_location;
  int accepted = 0;
  for (int i = 0; i < 10; ++i) {
    const Properties props = {{"p" + std::to_string(i), std::string(50, 'v')}};
    TableChange change{{{"db"}, "t"}, {}, {metadata::SetProperties{props}}};
    auto r = svc().UpdateTable(admin_, change);
    if (r) {
      ++accepted;
      current = r->metadata_location;
    } else {
      EXPECT_EQ(r.error().kind, ErrorKind::kBadRequest);
      EXPECT_EQ(r.error().message,
                "Invalid table properties: keys and values exceed 256 bytes in total");
    }
  }
  EXPECT_EQ(accepted, 4);  // 4 * (2 + 50) bytes fit in 256, a fifth does not
  // The same through a multi-table transaction: refused as a whole, no file left behind.
  LoadedTable u = CreateT("u");
  const CatalogState with_u = State();
  const std::string big(60, 'v');
  auto tx = svc().CommitTransaction(
      admin_, {TableChange{{{"db"}, "u"}, {}, {metadata::SetProperties{{{"ok", "1"}}}}},
               TableChange{{{"db"}, "t"}, {}, {metadata::SetProperties{{{"x", big}}}}}});
  ExpectBadRequest(tx, "transaction");
  EXPECT_EQ(State(), with_u);
  EXPECT_EQ(Pointer({{"db"}, "t"}, ObjectKind::kTable), current);
}

TEST_F(CatalogInputTest, ATableAlreadyOverTheLimitsCanStillShedProperties) {
  Restart(PropertyLimits{}, 16 << 10);
  LoadedTable t = CreateT("t", {{"a", std::string(100, 'v')}, {"b", std::string(100, 'v')}});
  Restart(SmallLimits(), 16 << 10);  // limits lowered under it
  TableChange grow{{{"db"}, "t"}, {}, {metadata::SetProperties{{{"c", "1"}}}}};
  ExpectBadRequest(svc().UpdateTable(admin_, grow), "growing an over-limit table");
  auto shed = svc().UpdateTable(
      admin_, TableChange{{{"db"}, "t"}, {}, {metadata::RemoveProperties{{"a"}}}});
  EXPECT_TRUE(shed) << shed.error().message;
}

TEST_F(CatalogInputTest, ViewCreateAndReplaceAreHeldToThePropertyLimits) {
  const CatalogState before = State();
  CreateViewRequest req = ViewRequest("v");
  req.properties = {{"k", std::string(65, 'v')}};
  ExpectBadRequest(svc().CreateView(admin_, {"db"}, req), "create view");
  EXPECT_EQ(State(), before);
  auto v = svc().CreateView(admin_, {"db"}, ViewRequest("v"));
  ASSERT_TRUE(v);
  const CatalogState created = State();
  const std::string value(64, 'v');
  const Properties props = {{"a", value}, {"b", value}, {"c", value}, {"d", value}};
  ViewChange grow{{{"db"}, "v"}, {}, {metadata::SetProperties{props}}};
  ExpectBadRequest(svc().ReplaceView(admin_, grow), "replace view");
  EXPECT_EQ(State(), created);
}

// ---- Register of files that are not metadata --------------------------------------------------

class CatalogRegisterFileTest : public CatalogInputTest {
 protected:
  // Registers `uri` as table or view "r"; every crafted file must get this same answer.
  void ExpectNotMetadata(const std::string& uri, const std::string& secret, bool view = false) {
    const CatalogState before = State();
    Status answer = view ? ToStatus(svc().RegisterView(admin_, {{"db"}, "r"}, uri))
                         : ToStatus(svc().RegisterTable(admin_, {{"db"}, "r"}, uri, false));
    ASSERT_FALSE(answer) << uri;
    EXPECT_EQ(answer.error().kind, ErrorKind::kBadRequest) << answer.error().message;
    EXPECT_EQ(answer.error().message,
              "Invalid metadata-location: " + uri + " is not a " + (view ? "view" : "table") +
                  " metadata file of at most 16384 bytes");
    if (!secret.empty()) {
      EXPECT_EQ(answer.error().message.find(secret), std::string::npos);
      EXPECT_EQ(answer.error().detail.find(secret), std::string::npos);
    }
    EXPECT_EQ(State(), before);
  }
};

TEST_F(CatalogRegisterFileTest, CraftedFilesAreOneBadRequestThatRevealsNothing) {
  const std::string secret = "TOPSECRET-4f1c";
  std::string random;
  for (int i = 0; i < 4096; ++i) random.push_back(static_cast<char>((i * 7919 + 13) & 0xFF));
  Plant("random.bin", random);
  Plant("plain.json", R"({"format-version": 2, "secret": ")" + secret + R"("})");
  Plant("array.json", "[\"" + secret + "\"]");
  Plant("text.metadata.json", secret);
  Plant("empty.metadata.json", "");
  Plant("corrupt.metadata.json.gz", std::string("\x1f\x8b\x08\x00", 4) + secret);
  for (const char* f : {"random.bin", "plain.json", "array.json", "text.metadata.json",
                        "empty.metadata.json", "corrupt.metadata.json.gz"}) {
    SCOPED_TRACE(f);
    ExpectNotMetadata(Planted(f), secret);
    ExpectNotMetadata(Planted(f), secret, /*view=*/true);
  }
}

TEST_F(CatalogRegisterFileTest, ATableFileIsNotAViewFileAndTheOtherWayRound) {
  LoadedTable t = CreateT("t");
  auto v = svc().CreateView(admin_, {"db"}, ViewRequest("v"));
  ASSERT_TRUE(v);
  ExpectNotMetadata(t.metadata_location, "", /*view=*/true);
  ExpectNotMetadata(v->metadata_location, "");
}

TEST_F(CatalogRegisterFileTest, FilesOverTheLimitAreRefusedBeforeTheyAreParsed) {
  LoadedTable t = CreateT("t");
  const std::string valid = Slurp(t.metadata_location);
  ASSERT_LT(valid.size(), 16384u);
  // Valid metadata padded with whitespace (still valid JSON) past the limit: refused for size.
  Plant("padded.metadata.json", valid + std::string(16385 - valid.size(), ' '));
  ExpectNotMetadata(Planted("padded.metadata.json"), "");
  // A gzip bomb: a few KB that inflate to far more than the limit.
  Plant("bomb.metadata.json.gz", Gzip(valid + std::string(8 << 20, ' ')));
  ExpectNotMetadata(Planted("bomb.metadata.json.gz"), "");
  // A huge sparse file: its size alone refuses it, nothing is read.
  {
    std::ofstream(warehouse_ / "planted" / "huge.metadata.json");
    fs::resize_file(warehouse_ / "planted" / "huge.metadata.json", uintmax_t{8} << 30);
  }
  ExpectNotMetadata(Planted("huge.metadata.json"), "");
  // At the limit exactly, compressed or not, the same file registers. It must lie inside the
  // table location it describes, and that location must be free: t is dropped (files kept).
  ASSERT_TRUE(svc().DropTable(admin_, {{"db"}, "t"}, /*purge=*/false));
  const fs::path metadata_dir = warehouse_ / "db" / "t" / "metadata";
  const std::string padded = valid + std::string(16384 - valid.size(), ' ');
  { std::ofstream(metadata_dir / "exact.metadata.json", std::ios::binary) << padded; }
  EXPECT_TRUE(svc().RegisterTable(admin_, {{"db"}, "exact"},
                                  Wh() + "/db/t/metadata/exact.metadata.json", false));
  ASSERT_TRUE(svc().DropTable(admin_, {{"db"}, "exact"}, /*purge=*/false));
  {
    std::ofstream(metadata_dir / "exact.gz.metadata.json", std::ios::binary)
        << Gzip(padded);
  }
  EXPECT_TRUE(svc().RegisterTable(admin_, {{"db"}, "exact_gz"},
                                  Wh() + "/db/t/metadata/exact.gz.metadata.json", false));
}

TEST_F(CatalogRegisterFileTest, AMissingFileIsStillNotFound) {
  for (bool view : {false, true}) {
    const std::string uri = Planted("absent.metadata.json");
    Status answer = view ? ToStatus(svc().RegisterView(admin_, {{"db"}, "r"}, uri))
                         : ToStatus(svc().RegisterTable(admin_, {{"db"}, "r"}, uri, false));
    ASSERT_FALSE(answer);
    EXPECT_EQ(answer.error().kind, ErrorKind::kNotFound);
    EXPECT_EQ(answer.error().message, "Failed to open input stream for file: " + uri);
  }
}

// A stored file that went bad is the catalog's problem, not the caller's: still a 500.
TEST_F(CatalogRegisterFileTest, ACorruptStoredFileStaysAnInternalError) {
  LoadedTable t = CreateT("t");
  std::ofstream(t.metadata_location.substr(std::string("file://").size()), std::ios::trunc)
      << "not json";
  Restart(SmallLimits(), 16 << 10);  // an empty metadata cache
  auto loaded = svc().LoadTable(admin_, {{"db"}, "t"});
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().kind, ErrorKind::kInternal);
}

}  // namespace
}  // namespace firn::catalog::testing
