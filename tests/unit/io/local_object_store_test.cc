#include "io/local/local_object_store.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "io/object_store.h"
#include "io/storage_schemes.h"

namespace firn::io {
namespace {

namespace fs = std::filesystem;

class LocalObjectStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "firn-io-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string Uri(const std::string& rel) const { return "file:" + dir_ + "/" + rel; }

  std::string dir_;
  LocalObjectStore store_;
};

TEST_F(LocalObjectStoreTest, LocalPathFromUriAcceptsEveryLocalForm) {
  EXPECT_EQ(*LocalPathFromUri("file:/a/b.json"), "/a/b.json");
  EXPECT_EQ(*LocalPathFromUri("file:///a/b.json"), "/a/b.json");
  EXPECT_EQ(*LocalPathFromUri("file://localhost/a/b.json"), "/a/b.json");
  EXPECT_EQ(*LocalPathFromUri("/a/b c.json"), "/a/b c.json");
  EXPECT_EQ(*LocalPathFromUri("file:/a/%20"), "/a/%20");  // byte for byte, like Hadoop
}

// Every scheme the registry gives the local store (io/storage_schemes.h) is routed here.
TEST_F(LocalObjectStoreTest, EveryLocalSchemeOfTheRegistryRoutesHere) {
  auto store = MakeDefaultObjectStore();
  int n = 0;
  for (const StorageScheme& s : StorageSchemes()) {
    if (s.store != StoreKind::kLocal) continue;
    const std::string uri = std::string(s.name) + "://" + dir_ + "/" + std::string(s.name) + "/f";
    ASSERT_TRUE(store->WriteNew(uri, "data")) << uri;
    auto read = store->Read(uri);
    ASSERT_TRUE(read) << uri;
    EXPECT_EQ(*read, "data");
    EXPECT_TRUE(fs::exists(fs::path(dir_) / s.name / "f"));
    ++n;
  }
  EXPECT_GE(n, 1);
  // A bare absolute path is the bare-path scheme's.
  ASSERT_EQ(BarePathScheme().store, StoreKind::kLocal);
  ASSERT_TRUE(store->WriteNew(dir_ + "/bare", "x"));
  EXPECT_TRUE(fs::exists(fs::path(dir_) / "bare"));
}

TEST_F(LocalObjectStoreTest, LocalPathFromUriRejectsOtherForms) {
  for (const char* uri :
       {"s3://b/k", "file:relative", "relative/x", "file://host/a", "file:", ""}) {
    auto path = LocalPathFromUri(uri);
    ASSERT_FALSE(path) << uri;
    EXPECT_EQ(path.error().kind, ErrorKind::kIllegalArgument) << uri;
  }
}

TEST_F(LocalObjectStoreTest, ReadAtMostReadsUpToTheLimitAndRefusesMore) {
  const std::string uri = Uri("f.json");
  ASSERT_TRUE(store_.WriteNew(uri, std::string(10000, 'x')));
  auto exact = store_.ReadAtMost(uri, 10000);
  ASSERT_TRUE(exact) << exact.error().message;
  EXPECT_EQ(exact->size(), 10000u);
  auto over = store_.ReadAtMost(uri, 9999);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().kind, ErrorKind::kPayloadTooLarge);
  EXPECT_EQ(over.error().message, "Object is larger than 9999 bytes: " + uri);
  auto missing = store_.ReadAtMost(Uri("absent.json"), 10);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(missing.error().message, "Failed to open input stream for file: " + Uri("absent.json"));
}

TEST_F(LocalObjectStoreTest, ReadAtMostRefusesAHugeSparseFileWithoutReadingIt) {
  const std::string path = dir_ + "/huge.json";
  { std::ofstream create(path); }
  fs::resize_file(path, uintmax_t{64} << 30);  // 64 GiB of holes: reading it would not finish
  auto read = store_.ReadAtMost("file:" + path, 1 << 20);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kPayloadTooLarge);
}

TEST_F(LocalObjectStoreTest, AFifoUnderANamedLocationIsNotFoundAndDoesNotHang) {
  const std::string path = dir_ + "/planted.metadata.json";
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0);
  for (auto read : {store_.ReadAtMost("file:" + path, 1024), store_.Read("file:" + path)}) {
    ASSERT_FALSE(read);  // a blocking open would never get here: no writer ever comes
    EXPECT_EQ(read.error().kind, ErrorKind::kNotFound);
  }
}

TEST_F(LocalObjectStoreTest, ReadAtMostOfAnUnboundedSourceStopsAtTheLimit) {
  // /proc files report size 0 and then grow as they are read: the size check cannot help, the
  // read loop must stop one byte past the limit.
  auto read = store_.ReadAtMost("file:/proc/self/maps", 16);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kPayloadTooLarge);
  auto whole = store_.Read("file:/proc/self/maps");
  ASSERT_TRUE(whole);
  EXPECT_GT(whole->size(), 16u);
}

TEST_F(LocalObjectStoreTest, WriteNewThenReadRoundTripsAndCreatesParents) {
  std::string uri = Uri("ns/tbl/metadata/00000-abc.metadata.json");
  std::string data(100000, 'x');
  data += std::string("\0binary\xff", 8);
  ASSERT_TRUE(store_.WriteNew(uri, data));
  auto read = store_.Read(uri);
  ASSERT_TRUE(read);
  EXPECT_EQ(*read, data);
  EXPECT_TRUE(fs::is_regular_file(dir_ + "/ns/tbl/metadata/00000-abc.metadata.json"));
}

TEST_F(LocalObjectStoreTest, EveryUriFormNamesTheSameFile) {
  ASSERT_TRUE(store_.WriteNew("file://" + dir_ + "/a.json", "one"));
  EXPECT_EQ(*store_.Read("file:" + dir_ + "/a.json"), "one");
  EXPECT_EQ(*store_.Read(dir_ + "/a.json"), "one");
  EXPECT_EQ(*store_.Read("file://localhost" + dir_ + "/a.json"), "one");
}

TEST_F(LocalObjectStoreTest, WriteNewNeverOverwrites) {
  std::string uri = Uri("m.json");
  ASSERT_TRUE(store_.WriteNew(uri, "first"));
  auto second = store_.WriteNew(uri, "second");
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(*store_.Read(uri), "first");
}

TEST_F(LocalObjectStoreTest, ConcurrentWriteNewHasExactlyOneWinner) {
  std::string uri = Uri("race/m.json");
  std::atomic<int> wins{0}, exists{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      auto s = store_.WriteNew(uri, "writer " + std::to_string(i));
      if (s) {
        wins++;
      } else if (s.error().kind == ErrorKind::kAlreadyExists) {
        exists++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wins.load(), 1);
  EXPECT_EQ(exists.load(), 7);
}

TEST_F(LocalObjectStoreTest, WriteNewOfEmptyDataCreatesAnEmptyFile) {
  ASSERT_TRUE(store_.WriteNew(Uri("empty"), ""));
  EXPECT_EQ(*store_.Read(Uri("empty")), "");
  EXPECT_TRUE(*store_.Exists(Uri("empty")));
}

TEST_F(LocalObjectStoreTest, ReadOfMissingFileIsNotFoundWithJavaWording) {
  std::string uri = Uri("missing/v1.metadata.json");
  auto read = store_.Read(uri);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(read.error().message, "Failed to open input stream for file: " + uri);
}

TEST_F(LocalObjectStoreTest, ReadOfADirectoryIsNotFound) {
  fs::create_directories(dir_ + "/d");
  auto read = store_.Read(Uri("d"));
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kNotFound);
}

TEST_F(LocalObjectStoreTest, WriteUnderAFileIsRefused) {
  ASSERT_TRUE(store_.WriteNew(Uri("plain"), "x"));
  auto status = store_.WriteNew(Uri("plain/child"), "y");
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind, ErrorKind::kIllegalArgument);
}

TEST_F(LocalObjectStoreTest, DeleteRemovesAndMissingIsNotAnError) {
  std::string uri = Uri("x.json");
  ASSERT_TRUE(store_.WriteNew(uri, "x"));
  EXPECT_TRUE(*store_.Exists(uri));
  ASSERT_TRUE(store_.Delete(uri));
  EXPECT_FALSE(*store_.Exists(uri));
  EXPECT_TRUE(store_.Delete(uri));
  EXPECT_TRUE(store_.Delete(Uri("no/such/dir/x.json")));
}

TEST_F(LocalObjectStoreTest, ExistsIsFalseForDirectoriesAndMissingFiles) {
  fs::create_directories(dir_ + "/d");
  EXPECT_FALSE(*store_.Exists(Uri("d")));
  EXPECT_FALSE(*store_.Exists(Uri("nope")));
}

TEST_F(LocalObjectStoreTest, ListIsRecursiveTextualPrefixAndKeepsUriForm) {
  ASSERT_TRUE(store_.WriteNew(Uri("t/metadata/v1.json"), "1"));
  ASSERT_TRUE(store_.WriteNew(Uri("t/metadata/v2.json"), "22"));
  ASSERT_TRUE(store_.WriteNew(Uri("t/metadata.json"), "333"));
  ASSERT_TRUE(store_.WriteNew(Uri("t/data/a/b/file.parquet"), "4444"));
  ASSERT_TRUE(store_.WriteNew(Uri("u/other"), "5"));

  auto all = store_.List(Uri("t/"));
  ASSERT_TRUE(all);
  std::vector<std::string> uris;
  for (const auto& info : *all) uris.push_back(info.uri);
  EXPECT_EQ(uris, (std::vector<std::string>{Uri("t/data/a/b/file.parquet"), Uri("t/metadata.json"),
                                            Uri("t/metadata/v1.json"), Uri("t/metadata/v2.json")}));
  EXPECT_EQ((*all)[0].size, 4);

  auto meta = store_.List(Uri("t/meta"));
  ASSERT_TRUE(meta);
  EXPECT_EQ(meta->size(), 3u);

  auto plain = store_.List(dir_ + "/t/metadata/");
  ASSERT_TRUE(plain);
  ASSERT_EQ(plain->size(), 2u);
  EXPECT_EQ((*plain)[0].uri, dir_ + "/t/metadata/v1.json");

  auto triple = store_.List("file://" + dir_ + "/u");
  ASSERT_TRUE(triple);
  ASSERT_EQ(triple->size(), 1u);
  EXPECT_EQ((*triple)[0].uri, "file://" + dir_ + "/u/other");
}

TEST_F(LocalObjectStoreTest, ListOfMissingPrefixIsEmpty) {
  auto none = store_.List(Uri("nothing/here/"));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST(ObjectStoreTest, DefaultStoreRoutesLocalUrisAndRefusesOtherSchemes) {
  auto store = MakeDefaultObjectStore();
  std::string pattern = (fs::temp_directory_path() / "firn-io-XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  std::string uri = "file:" + pattern + "/a.json";
  ASSERT_TRUE(store->WriteNew(uri, "hello"));
  EXPECT_EQ(*store->Read(pattern + "/a.json"), "hello");
  EXPECT_EQ(store->List("file://" + pattern + "/")->size(), 1u);
  ASSERT_TRUE(store->Delete("file:///" + pattern.substr(1) + "/a.json"));
  EXPECT_FALSE(*store->Exists(uri));
  fs::remove_all(pattern);

  auto s3 = store->Read("s3://bucket/key");
  ASSERT_FALSE(s3);
  EXPECT_EQ(s3.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(s3.error().message, "Unsupported storage scheme: s3");
  auto gs = store->WriteNew("gs://bucket/key", "x");
  ASSERT_FALSE(gs);
  EXPECT_EQ(gs.error().message, "Unsupported storage scheme: gs");
  auto relative = store->Exists("relative/path");
  ASSERT_FALSE(relative);
  EXPECT_EQ(relative.error().kind, ErrorKind::kIllegalArgument);
}

}  // namespace
}  // namespace firn::io

namespace firn::io {
namespace {

// One level at a time, as an S3 delimiter listing: the discovery of `firn recover` never
// descends into what it does not ask for (a table's data/).
TEST_F(LocalObjectStoreTest, ListChildrenGivesOneLevelOfObjectsAndDirectories) {
  ASSERT_TRUE(store_.WriteNew(Uri("wh/db/t/metadata/00000-a.metadata.json"), "{}"));
  ASSERT_TRUE(store_.WriteNew(Uri("wh/db/t/data/part-0.parquet"), "x"));
  ASSERT_TRUE(store_.WriteNew(Uri("wh/db/t/notes.txt"), "hello"));
  auto children = store_.ListChildren(Uri("wh/db/t"));  // no trailing '/': one is added
  ASSERT_TRUE(children) << children.error().message;
  ASSERT_EQ(children->objects.size(), 1u);
  EXPECT_EQ(children->objects[0].uri, Uri("wh/db/t/notes.txt"));
  EXPECT_EQ(children->objects[0].size, 5);
  EXPECT_EQ(children->dirs,
            (std::vector<std::string>{Uri("wh/db/t/data/"), Uri("wh/db/t/metadata/")}));
  auto missing = store_.ListChildren(Uri("wh/nothing/"));
  ASSERT_TRUE(missing);
  EXPECT_TRUE(missing->objects.empty() && missing->dirs.empty());
  // The default (any store without its own): the same answer from a recursive listing.
  auto fallback = store_.ObjectStore::ListChildren(Uri("wh/db/t/"));
  ASSERT_TRUE(fallback);
  EXPECT_EQ(fallback->dirs, children->dirs);
  ASSERT_EQ(fallback->objects.size(), 1u);
  EXPECT_EQ(fallback->objects[0].uri, children->objects[0].uri);
}

}  // namespace
}  // namespace firn::io
