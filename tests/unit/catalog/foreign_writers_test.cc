// The foreign-writer check (catalog/foreign_writers.h) and the claim format
// (catalog/store_claims.h), on a real local object store in a temporary directory.
#include "catalog/foreign_writers.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>

#include "catalog/store_claims.h"
#include "io/local/local_object_store.h"

namespace firn::catalog {
namespace {

namespace fs = std::filesystem;

class ForeignWritersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "firn-fw-XXXXXX").string();
    dir_ = mkdtemp(pattern.data());
    table_.location = "file://" + (dir_ / "t").string();
    table_.table_uuid = "0f0e0d0c-1111-4222-8333-444455556666";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string File(const std::string& name) { return table_.location + "/metadata/" + name; }
  void Put(const std::string& name) { ASSERT_TRUE(objects_.WriteNew(File(name), "{}")); }
  std::vector<std::string> Foreign(const std::string& current, const Fence& fence = {},
                                   bool full = false) {
    auto found = FindForeignMetadata(objects_, table_, File(current), kTag, fence, full);
    EXPECT_TRUE(found) << found.error().message;
    return found ? *found : std::vector<std::string>{};
  }

  static constexpr std::string_view kTag = "abcdef01";
  fs::path dir_;
  io::LocalObjectStore objects_;
  metadata::TableMetadata table_;
};

TEST_F(ForeignWritersTest, OwnTaggedFilesChainAndOtherVersionsAreNotForeign) {
  const std::string current = "00003-abcdef01-0000-4000-8000-000000000003.metadata.json";
  const std::string older = "00002-12345678-0000-4000-8000-000000000002.metadata.json";
  Put(current);
  Put("00004-abcdef01-9999-4000-8000-000000000009.metadata.json");  // a concurrent commit of ours
  Put(older);                                                        // in the chain
  Put("00004-abcdef01-m0.avro");                                     // not metadata
  Put("snap-1-1-abcdef.avro");
  table_.metadata_log.push_back({1, File(older)});
  EXPECT_TRUE(Foreign(current).empty());
  EXPECT_TRUE(Foreign(current, {}, /*full=*/true).empty());
}

TEST_F(ForeignWritersTest, AnUntaggedSiblingOrSuccessorIsForeignUntilKept) {
  const std::string current = "00009-abcdef01-0000-4000-8000-000000000009.metadata.json";
  Put(current);
  const std::string sibling = "00009-77777777-0000-4000-8000-000000000000.metadata.json";
  const std::string next = "00010-88888888-0000-4000-8000-000000000000.gz.metadata.json";
  Put(sibling);
  Put(next);
  Put("00011-99999999-0000-4000-8000-000000000000.metadata.json");  // beyond the commit check
  std::vector<std::string> found = Foreign(current);
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{File(sibling), File(next)}));
  EXPECT_EQ(Foreign(current, {}, /*full=*/true).size(), 3u);
  Fence kept{Fence::State::kKept, 1, {File(sibling), File(next)}};
  EXPECT_TRUE(Foreign(current, kept).empty());
  Fence fenced{Fence::State::kFenced, 1, {File(sibling), File(next)}};
  EXPECT_EQ(Foreign(current, fenced).size(), 2u);  // only a kept fence acknowledges files
}

// A chain spelled otherwise than the listing (a bare path for file://) names the same files;
// the full scan leaves alone versions older than the chain spans.
TEST_F(ForeignWritersTest, TheChainIsComparedCanonicallyAndTheScanSkipsTrimmedVersions) {
  const std::string current = "00005-abcdef01-0000-4000-8000-000000000005.metadata.json";
  const std::string sibling = "00005-55555555-0000-4000-8000-000000000000.metadata.json";
  const std::string trimmed = "00001-11111111-0000-4000-8000-000000000000.metadata.json";
  const std::string logged = "00004-44444444-0000-4000-8000-000000000000.metadata.json";
  for (const auto& f : {current, sibling, trimmed, logged}) Put(f);
  const std::string bare = (dir_ / "t" / "metadata").string() + "/";
  table_.metadata_log.push_back({1, bare + logged});
  table_.metadata_log.push_back({2, bare + sibling});
  EXPECT_TRUE(Foreign(current).empty());
  EXPECT_TRUE(Foreign(current, {}, /*full=*/true).empty());  // 00001 predates the chain
  table_.metadata_log.pop_back();
  EXPECT_EQ(Foreign(current), (std::vector<std::string>{File(sibling)}));
}

TEST_F(ForeignWritersTest, VersionsAcrossADigitBoundaryAreBothListed) {
  const std::string current = "00009-abcdef01-0000-4000-8000-000000000009.metadata.json";
  Put(current);
  Put("00010-12121212-0000-4000-8000-000000000000.metadata.json");
  Put("00019-12121212-0000-4000-8000-000000000000.metadata.json");  // neither 9 nor 10
  EXPECT_EQ(Foreign(current).size(), 1u);
}

TEST_F(ForeignWritersTest, ABaseWithoutAVersionChecksVersionsZeroAndOne) {
  const std::string current = "v3.metadata.json";
  Put(current);
  Put("00000-12121212-0000-4000-8000-000000000000.metadata.json");
  EXPECT_EQ(Foreign(current).size(), 1u);
}

TEST_F(ForeignWritersTest, AnEmptyDirectoryHoldsNothingForeign) {
  EXPECT_TRUE(Foreign("00001-abcdef01-0000-4000-8000-000000000001.metadata.json").empty());
}

TEST(FenceFormatTest, RoundTripsAndFailsClosed) {
  Fence f{Fence::State::kFenced, 42, {"file:///a", "file:///b"}};
  Fence back = DecodeFence(EncodeFence(f));
  EXPECT_EQ(back.state, Fence::State::kFenced);
  EXPECT_EQ(back.detected_ms, 42);
  EXPECT_EQ(back.files, f.files);
  EXPECT_EQ(DecodeFence("").state, Fence::State::kNone);
  EXPECT_EQ(EncodeFence(Fence{}), "");
  EXPECT_EQ(DecodeFence("{not json").state, Fence::State::kFenced);
  EXPECT_EQ(DecodeFence(R"({"state":"kept"})").state, Fence::State::kKept);
}

TEST(WriterTagTest, IsTheFirstEightHexDigitsOfTheDeployment) {
  EXPECT_EQ(WriterTag("ABCDEF01-2345-4678-9abc-def012345678"), "abcdef01");
  EXPECT_EQ(WriterTag("short"), "");
  EXPECT_TRUE(WrittenBy("s3://b/t/metadata/00001-abcdef01-x.metadata.json", "abcdef01"));
  EXPECT_FALSE(WrittenBy("s3://b/t/metadata/00001-abcdef02-x.metadata.json", "abcdef01"));
  EXPECT_FALSE(WrittenBy("s3://b/t/metadata/v1.metadata.json", "abcdef01"));
  EXPECT_FALSE(WrittenBy("s3://b/t/metadata/00001-abcdef01.metadata.json", ""));
}

TEST(StoreClaimFormatTest, RoundTripsAndRefusesOtherDocuments) {
  StoreClaim c{"d-1", "realm", "cat", {"a", "b.c"}, "t", "uuid", 123, "moving", "catalog x"};
  auto back = DecodeStoreClaim(EncodeStoreClaim(c));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->deployment, "d-1");
  EXPECT_EQ(back->ns, (store::Namespace{"a", "b.c"}));
  EXPECT_EQ(back->state, "moving");
  EXPECT_EQ(back->moving_to, "catalog x");
  EXPECT_EQ(back->claimed_ms, 123);
  for (std::string_view bad :
       {std::string_view(""), std::string_view("[]"),
        std::string_view(R"({"format":"other","format-version":1})"),
        std::string_view(R"({"format":"firn-table-claim","format-version":2})"),
        std::string_view(R"({"format":"firn-table-claim","format-version":1,"deployment":"d"})"),
        std::string_view(
            R"({"format":"firn-table-claim","format-version":1,"deployment":"d","realm":"r",)"
            R"("catalog":"c","namespace":["a"],"name":"t","table-uuid":"u","claimed-at-ms":1,)"
            R"("state":"gone"})")}) {
    auto refused = DecodeStoreClaim(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().kind, ErrorKind::kBadRequest) << bad;
  }
  EXPECT_EQ(StoreClaimUri("s3://b/t/"), "s3://b/t/.firn-claim.json");
  EXPECT_EQ(StoreClaimUri("file:///w/t"), "file:///w/t/.firn-claim.json");
}

}  // namespace
}  // namespace firn::catalog
