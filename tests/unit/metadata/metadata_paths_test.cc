#include "metadata/metadata_paths.h"

#include <gtest/gtest.h>

#include "common/uuid.h"
#include "metadata/gzip.h"
#include "metadata/serde.h"

namespace firn::metadata {
namespace {

TableMetadata Table(std::string location) {
  TableMetadata m;
  m.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  m.location = std::move(location);
  m.schemas.push_back(Schema{});
  m.partition_specs.push_back(PartitionSpec{});
  m.sort_orders.push_back(SortOrder{});
  return m;
}

TEST(MetadataPathsTest, ParsesVersion) {
  EXPECT_EQ(ParseMetadataVersion("s3://b/t/metadata/00003-9c12d441-03fe-4693-9a96-a0705ddf69c1.metadata.json"), 3);
  EXPECT_EQ(ParseMetadataVersion("00000-x.gz.metadata.json"), 0);
  EXPECT_EQ(ParseMetadataVersion("/t/metadata/123456-x.metadata.json"), 123456);
  EXPECT_EQ(ParseMetadataVersion("/t/metadata/v3.metadata.json"), -1);
  EXPECT_EQ(ParseMetadataVersion("/t/metadata/-x.metadata.json"), -1);
  EXPECT_EQ(ParseMetadataVersion("/t/metadata/0a001-x.metadata.json"), -1);
  EXPECT_EQ(ParseMetadataVersion("/t/00001-dir/v3.metadata.json"), -1);
  EXPECT_EQ(ParseMetadataVersion("/t/metadata/99999999999-x.metadata.json"), -1);
}

TEST(MetadataPathsTest, FirstFileIsVersionZeroUnderMetadataDir) {
  std::string loc = NewMetadataLocation(Table("s3://b/wh/t/"), std::nullopt);
  const std::string prefix = "s3://b/wh/t/metadata/00000-";
  ASSERT_EQ(loc.rfind(prefix, 0), 0u) << loc;
  const std::string suffix = ".metadata.json";
  ASSERT_GT(loc.size(), prefix.size() + suffix.size());
  EXPECT_EQ(loc.substr(loc.size() - suffix.size()), suffix);
  EXPECT_TRUE(IsUuid(loc.substr(prefix.size(), loc.size() - prefix.size() - suffix.size())));
}

TEST(MetadataPathsTest, NextVersionFollowsBase) {
  std::string loc = NewMetadataLocation(Table("s3://b/t"), "s3://b/t/metadata/00041-x.metadata.json");
  EXPECT_EQ(loc.rfind("s3://b/t/metadata/00042-", 0), 0u) << loc;
  // A base without a version (a registered file) counts as version 0.
  loc = NewMetadataLocation(Table("s3://b/t"), "s3://b/t/metadata/v7.metadata.json");
  EXPECT_EQ(loc.rfind("s3://b/t/metadata/00001-", 0), 0u) << loc;
  loc = NewMetadataLocation(Table("s3://b/t"), "s3://b/t/metadata/99999-x.metadata.json");
  EXPECT_EQ(loc.rfind("s3://b/t/metadata/100000-", 0), 0u) << loc;
}

TEST(MetadataPathsTest, NamesAreUnique) {
  TableMetadata m = Table("s3://b/t");
  EXPECT_NE(NewMetadataLocation(m, std::nullopt), NewMetadataLocation(m, std::nullopt));
}

TEST(MetadataPathsTest, HonoursWriteMetadataPathAndGzipCodec) {
  TableMetadata m = Table("s3://b/t");
  m.properties["write.metadata.path"] = "s3://other/meta/";
  m.properties["write.metadata.compression-codec"] = "GZIP";
  std::string loc = NewMetadataLocation(m, std::nullopt);
  EXPECT_EQ(loc.rfind("s3://other/meta/00000-", 0), 0u) << loc;
  EXPECT_TRUE(loc.ends_with(".gz.metadata.json")) << loc;
  m.properties["write.metadata.compression-codec"] = "none";
  EXPECT_FALSE(NewMetadataLocation(m, std::nullopt).ends_with(".gz.metadata.json"));
}

TEST(MetadataPathsTest, MetadataDirectoryStripsOneSlash) {
  EXPECT_EQ(MetadataDirectory(Table("file:///wh/t/")), "file:///wh/t/metadata");
  EXPECT_EQ(MetadataDirectory(Table("file:///wh/t")), "file:///wh/t/metadata");
}

TEST(MetadataPathsTest, EncodeGzipsOnlyWhenTheNameSaysSo) {
  TableMetadata m = Table("s3://b/t");
  std::string plain = EncodeMetadataFile(m, "s3://b/t/metadata/00000-x.metadata.json");
  EXPECT_EQ(plain, SerializeTableMetadata(m));
  std::string zipped = EncodeMetadataFile(m, "s3://b/t/metadata/00000-x.gz.metadata.json");
  ASSERT_GE(zipped.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(zipped[0]), 0x1f);
  Result<std::string> back = GunzipIfNeeded("x.gz.metadata.json", zipped);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, plain);
}

}  // namespace
}  // namespace firn::metadata
