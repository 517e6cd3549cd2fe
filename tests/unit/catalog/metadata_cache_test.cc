// CachedTable's gzip pieces: what a gzip loadTable embeds instead of compressing the metadata.
#include "catalog/metadata_cache.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/gzip.h"
#include "unit/metadata/builder_test_util.h"

namespace firn::catalog {
namespace {

using metadata::testing::MakeSnapshot;
using metadata::testing::MakeTable;
using metadata::testing::PutCurrentSnapshot;

constexpr size_t kLimit = size_t{64} << 20;

// A table whose snapshots form one chain: only the last is referenced, so snapshots=refs
// has a JSON of its own.
metadata::TableMetadata WithSnapshots(int n) {
  metadata::TableMetadata m = MakeTable();
  for (int64_t id = 1; id <= n; ++id) {
    PutCurrentSnapshot(m, MakeSnapshot(id, id == 1 ? std::nullopt : std::optional<int64_t>(id - 1),
                                       id, 500'000 + id));
  }
  return m;
}

std::string Inflated(const DeflatedPiece& piece) {
  Result<std::string> r = Gunzip(GzipJoin({&piece}), kLimit);
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : std::string();
}

TEST(MetadataCacheTest, EachRepresentationHasOnePieceOfItsOwnJson) {
  auto table = MakeCachedTable("file:///w/t/metadata/00100-x.metadata.json", WithSnapshots(100));
  const std::string& all = table->MetadataJson(SnapshotMode::kAll);
  const std::string& refs = table->MetadataJson(SnapshotMode::kRefs);
  ASSERT_LT(refs.size(), all.size());

  const DeflatedPiece* all_gz = table->MetadataGzip(SnapshotMode::kAll);
  const DeflatedPiece* refs_gz = table->MetadataGzip(SnapshotMode::kRefs);
  ASSERT_NE(all_gz, nullptr);
  ASSERT_NE(refs_gz, nullptr);
  EXPECT_NE(all_gz, refs_gz);
  EXPECT_EQ(Inflated(*all_gz), all);
  EXPECT_EQ(Inflated(*refs_gz), refs);
  EXPECT_LE(all_gz->deflated.size(), all.size() / 4);  // within the cost it was charged
  // Built once: later calls hand out the same bytes.
  EXPECT_EQ(table->MetadataGzip(SnapshotMode::kAll), all_gz);
  EXPECT_EQ(table->MetadataGzip(SnapshotMode::kRefs), refs_gz);
}

TEST(MetadataCacheTest, RefsSharesThePieceWhenEverySnapshotIsReferenced) {
  metadata::TableMetadata m = MakeTable();
  PutCurrentSnapshot(m, MakeSnapshot(1, std::nullopt, 1, 500'001));
  auto table = MakeCachedTable("file:///w/t/metadata/00001-x.metadata.json", std::move(m));
  EXPECT_EQ(table->MetadataGzip(SnapshotMode::kRefs), table->MetadataGzip(SnapshotMode::kAll));
}

TEST(MetadataCacheTest, ConcurrentFirstUsesShareOnePiece) {
  auto table = MakeCachedTable("file:///w/t/metadata/00050-x.metadata.json", WithSnapshots(50));
  std::vector<const DeflatedPiece*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&, i] { seen[i] = table->MetadataGzip(SnapshotMode::kAll); });
  }
  for (auto& t : threads) t.join();
  ASSERT_NE(seen[0], nullptr);
  for (const DeflatedPiece* p : seen) EXPECT_EQ(p, seen[0]);
  EXPECT_EQ(Inflated(*seen[0]), table->MetadataJson(SnapshotMode::kAll));
}

TEST(MetadataCacheTest, MetadataThatBarelyCompressesKeepsNoPiece) {
  metadata::TableMetadata m = WithSnapshots(2);
  std::mt19937 rng(3);
  constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::string noise(40000, ' ');
  for (char& c : noise) c = kAlphabet[rng() % kAlphabet.size()];
  m.properties["noise"] = noise;  // ~75% after deflate: over the quarter reserved for it
  auto table = MakeCachedTable("file:///w/t/metadata/00002-x.metadata.json", std::move(m));
  EXPECT_EQ(table->MetadataGzip(SnapshotMode::kAll), nullptr);
  EXPECT_EQ(table->MetadataGzip(SnapshotMode::kAll), nullptr);  // decided once
}

}  // namespace
}  // namespace firn::catalog
