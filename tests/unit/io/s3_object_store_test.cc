// S3ObjectStore without a server (routing, config checks, unreachable store) and against a
// REAL S3-compatible server when FIRN_TEST_S3_ENDPOINT, FIRN_TEST_S3_ACCESS_KEY,
// FIRN_TEST_S3_SECRET_KEY and FIRN_TEST_S3_BUCKET are set (optional: FIRN_TEST_S3_REGION,
// FIRN_TEST_S3_PATH_STYLE=0 for virtual-hosted addressing). Without them the server tests are
// SKIPPED, never passed.
#include "io/s3/s3_object_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "io/object_store.h"
#include "io/storage_schemes.h"

namespace firn::io::s3 {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

S3Config UnreachableConfig() {
  S3Config c;
  c.endpoint = "http://127.0.0.1:1";  // nothing listens on port 1
  c.access_key_id = "AKIDEXAMPLE";
  c.secret_access_key = Secret("secret");
  c.path_style_access = true;
  c.max_attempts = 2;
  c.retry_base_delay = std::chrono::milliseconds(1);
  c.connect_timeout = std::chrono::milliseconds(500);
  return c;
}

TEST(S3ObjectStoreTest, DefaultStoreRefusesS3WhenNotConfigured) {
  auto store = MakeDefaultObjectStore();
  auto read = store->Read("s3://bucket/key");
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(read.error().message, "Unsupported storage scheme: s3");
  EXPECT_NE(read.error().detail.find("not configured"), std::string::npos);
}

TEST(S3ObjectStoreTest, MakeObjectStoreRejectsUnusableS3Config) {
  S3Config bad_endpoint = UnreachableConfig();
  bad_endpoint.endpoint = "127.0.0.1:9000";
  auto store = MakeObjectStore({bad_endpoint});
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().kind, ErrorKind::kIllegalArgument);

  S3Config no_keys = UnreachableConfig();
  no_keys.secret_access_key = Secret();
  auto store2 = MakeObjectStore({no_keys});
  ASSERT_FALSE(store2);
  EXPECT_EQ(store2.error().kind, ErrorKind::kIllegalArgument);
}

TEST(S3ObjectStoreTest, UnreachableStoreIsServiceUnavailableForEveryOperation) {
  auto store = MakeObjectStore({UnreachableConfig()});
  ASSERT_TRUE(store);
  const std::string uri = "s3a://bucket/ns/t/metadata/00000-x.metadata.json";
  auto check = [](const Error& e) {
    EXPECT_EQ(e.kind, ErrorKind::kServiceUnavailable);
    EXPECT_EQ(e.message, "Storage is unavailable");
    EXPECT_EQ(e.detail.find("secret"), std::string::npos);
  };
  check((*store)->Read(uri).error());
  check((*store)->WriteNew(uri, "x").error());
  check((*store)->Delete(uri).error());
  check((*store)->Exists(uri).error());
  check((*store)->List("s3a://bucket/ns/").error());
}

TEST(S3ObjectStoreTest, ObjectOperationsNeedAKey) {
  auto store = S3ObjectStore::Create(UnreachableConfig());
  ASSERT_TRUE(store);
  auto read = (*store)->Read("s3://bucket/");
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kIllegalArgument);
}

TEST(S3ObjectStoreTest, FileUrisStillRouteToTheLocalStore) {
  auto store = MakeObjectStore({UnreachableConfig()});
  ASSERT_TRUE(store);
  auto read = (*store)->Read("file:///nonexistent-firn-dir/x.json");
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kNotFound);
}

// Every scheme the registry gives the S3 store (io/storage_schemes.h) is routed there.
TEST(S3ObjectStoreTest, EveryS3SchemeReachesTheS3StoreOnlyWhenConfigured) {
  auto unconfigured = MakeDefaultObjectStore();
  auto configured = MakeObjectStore({UnreachableConfig()});
  ASSERT_TRUE(configured) << configured.error().message;
  int n = 0;
  for (const StorageScheme& s : StorageSchemes()) {
    if (s.store != StoreKind::kS3) continue;
    const std::string uri = std::string(s.name) + "://bucket/key";
    auto refused = unconfigured->Exists(uri);
    ASSERT_FALSE(refused) << uri;
    EXPECT_EQ(refused.error().kind, ErrorKind::kIllegalArgument);
    EXPECT_EQ(refused.error().message, "Unsupported storage scheme: " + std::string(s.name));
    EXPECT_NE(refused.error().detail.find("S3 storage is not configured"), std::string::npos);
    // Routed to the S3 store, which tries the (unreachable) endpoint.
    auto tried = (*configured)->Exists(uri);
    ASSERT_FALSE(tried) << uri;
    EXPECT_EQ(tried.error().kind, ErrorKind::kServiceUnavailable) << tried.error().message;
    ++n;
  }
  EXPECT_GE(n, 3);
}

// --- against a real server ---

class S3ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_.endpoint = Env("FIRN_TEST_S3_ENDPOINT");
    config_.access_key_id = Env("FIRN_TEST_S3_ACCESS_KEY");
    config_.secret_access_key = Secret(Env("FIRN_TEST_S3_SECRET_KEY"));
    bucket_ = Env("FIRN_TEST_S3_BUCKET");
    if (config_.endpoint.empty() || config_.access_key_id.empty() ||
        config_.secret_access_key.empty() || bucket_.empty()) {
      GTEST_SKIP() << "SKIPPED: no S3 server configured (set FIRN_TEST_S3_ENDPOINT, "
                      "FIRN_TEST_S3_ACCESS_KEY, FIRN_TEST_S3_SECRET_KEY, FIRN_TEST_S3_BUCKET)";
    }
    if (std::string region = Env("FIRN_TEST_S3_REGION"); !region.empty()) config_.region = region;
    config_.path_style_access = Env("FIRN_TEST_S3_PATH_STYLE") != "0";
    config_.list_page_size = 2;  // so a handful of objects spans several pages
    auto store = S3ObjectStore::Create(config_);
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
    std::random_device rd;
    prefix_ = "s3://" + bucket_ + "/firn-test-" + std::to_string(rd()) + std::to_string(rd()) + "/";
  }
  void TearDown() override {
    if (!store_) return;
    auto listed = store_->List(prefix_);
    if (listed) {
      for (const ObjectInfo& o : *listed) (void)store_->Delete(o.uri);
    }
  }

  S3Config config_;
  std::string bucket_;
  std::string prefix_;
  std::unique_ptr<S3ObjectStore> store_;
};

TEST_F(S3ServerTest, WriteNewThenReadRoundTripsBinaryData) {
  std::string data(300000, 'x');
  data += std::string("\0binary\xff", 8);
  std::string uri = prefix_ + "ns/t/metadata/00000-a.metadata.json";
  ASSERT_TRUE(store_->WriteNew(uri, data));
  auto read = store_->Read(uri);
  ASSERT_TRUE(read) << read.error().message << " | " << read.error().detail;
  EXPECT_EQ(*read, data);
}

TEST_F(S3ServerTest, KeysWithAwkwardCharactersRoundTrip) {
  for (std::string key : {"a b.json", "plus+sign.json", "dollar$&=;,@:.json", "\xC3\xA9t\xC3\xA9",
                          "percent%20literal", "tilde~star*(paren)", "dir//double"}) {
    std::string uri = prefix_ + key;
    ASSERT_TRUE(store_->WriteNew(uri, key)) << key;
    auto read = store_->Read(uri);
    ASSERT_TRUE(read) << key << ": " << read.error().detail;
    EXPECT_EQ(*read, key);
  }
}

TEST_F(S3ServerTest, WriteNewNeverOverwrites) {
  std::string uri = prefix_ + "once.json";
  ASSERT_TRUE(store_->WriteNew(uri, "first"));
  auto second = store_->WriteNew(uri, "second");
  ASSERT_FALSE(second) << "the server ignored If-None-Match: * and overwrote the object";
  EXPECT_EQ(second.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(*store_->Read(uri), "first");
}

TEST_F(S3ServerTest, ConcurrentWriteNewHasExactlyOneWinner) {
  std::string uri = prefix_ + "race.json";
  constexpr int kWriters = 8;
  std::vector<int> won(kWriters, 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] { won[i] = store_->WriteNew(uri, std::to_string(i)) ? 1 : 0; });
  }
  for (auto& t : threads) t.join();
  int winners = 0;
  int winner = -1;
  for (int i = 0; i < kWriters; ++i) {
    if (won[i]) {
      ++winners;
      winner = i;
    }
  }
  ASSERT_EQ(winners, 1);
  EXPECT_EQ(*store_->Read(uri), std::to_string(winner));
}

TEST_F(S3ServerTest, ReadAtMostAsksForARangeAndRefusesALargerObject) {
  std::string uri = prefix_ + "bounded.json";
  ASSERT_TRUE(store_->WriteNew(uri, std::string(10000, 'x')));
  auto exact = store_->ReadAtMost(uri, 10000);
  ASSERT_TRUE(exact) << exact.error().message << " | " << exact.error().detail;
  EXPECT_EQ(exact->size(), 10000u);
  auto over = store_->ReadAtMost(uri, 9999);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().kind, ErrorKind::kPayloadTooLarge);
  EXPECT_EQ(over.error().message, "Object is larger than 9999 bytes: " + uri);
  // An empty object answers a ranged GET with 416: still an empty read, not an error.
  std::string empty = prefix_ + "empty.json";
  ASSERT_TRUE(store_->WriteNew(empty, ""));
  auto none = store_->ReadAtMost(empty, 100);
  ASSERT_TRUE(none) << none.error().message << " | " << none.error().detail;
  EXPECT_EQ(*none, "");
  auto missing = store_->ReadAtMost(prefix_ + "missing.json", 100);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
}

TEST_F(S3ServerTest, ReadOfMissingObjectIsNotFoundWithExactMessage) {
  std::string uri = prefix_ + "missing.json";
  auto read = store_->Read(uri);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(read.error().message, "Failed to open input stream for file: " + uri);
}

TEST_F(S3ServerTest, ExistsAndDelete) {
  std::string uri = prefix_ + "x.json";
  EXPECT_FALSE(*store_->Exists(uri));
  ASSERT_TRUE(store_->WriteNew(uri, "x"));
  EXPECT_TRUE(*store_->Exists(uri));
  ASSERT_TRUE(store_->Delete(uri));
  EXPECT_FALSE(*store_->Exists(uri));
  EXPECT_TRUE(store_->Delete(uri)) << "deleting a missing object is not an error";
}

TEST_F(S3ServerTest, ListFollowsContinuationTokensAndKeepsTheScheme) {
  std::vector<std::string> written;
  for (int i = 0; i < 5; ++i) {
    written.push_back(prefix_ + "list/f" + std::to_string(i) + ".json");
    ASSERT_TRUE(store_->WriteNew(written.back(), std::string(i + 1, 'z')));
  }
  ASSERT_TRUE(store_->WriteNew(prefix_ + "listx.json", "not under list/"));
  auto listed = store_->List(prefix_ + "list/");
  ASSERT_TRUE(listed) << listed.error().detail;
  ASSERT_EQ(listed->size(), 5u);  // five objects over three pages of two
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ((*listed)[i].uri, written[i]);
    EXPECT_EQ((*listed)[i].size, i + 1);
  }
  std::string s3a_prefix = "s3a" + prefix_.substr(2) + "list/";
  auto listed_a = store_->List(s3a_prefix);
  ASSERT_TRUE(listed_a);
  ASSERT_EQ(listed_a->size(), 5u);
  EXPECT_EQ((*listed_a)[0].uri, s3a_prefix + "f0.json");
}

TEST_F(S3ServerTest, WrongSecretIsRefused) {
  S3Config wrong = config_;
  wrong.secret_access_key = Secret("definitely-not-the-secret");
  auto store = S3ObjectStore::Create(wrong);
  ASSERT_TRUE(store);
  auto read = (*store)->Read(prefix_ + "anything.json");
  if (read || read.error().kind == ErrorKind::kNotFound) {
    GTEST_SKIP() << "SKIPPED: this server accepted a wrong secret, so it does not verify "
                    "signatures (moto needs /moto-api/reset-auth); signing is unproven here";
  }
  EXPECT_EQ(read.error().kind, ErrorKind::kInternal);
  EXPECT_EQ(read.error().detail.find("definitely-not-the-secret"), std::string::npos);
}

}  // namespace
}  // namespace firn::io::s3
