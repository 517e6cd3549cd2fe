#include <gtest/gtest.h>

#include "metadata/gzip.h"

namespace firn::metadata {
namespace {

TEST(GzipTest, RecognisesBothSuffixes) {
  EXPECT_TRUE(IsGzipMetadataLocation("s3://b/t/metadata/00001-u.gz.metadata.json"));
  EXPECT_TRUE(IsGzipMetadataLocation("s3://b/t/metadata/00001-u.metadata.json.gz"));
  EXPECT_FALSE(IsGzipMetadataLocation("s3://b/t/metadata/00001-u.metadata.json"));
}

TEST(GzipTest, GunzipIfNeededSniffsTheMagic) {
  std::string json = R"({"a":1})";
  // Plain bytes pass through, whatever the name says.
  EXPECT_EQ(*GunzipIfNeeded("x.metadata.json", json), json);
  EXPECT_EQ(*GunzipIfNeeded("x.gz.metadata.json", json), json);
  // Gzip bytes are inflated, whatever the name says.
  EXPECT_EQ(*GunzipIfNeeded("x.metadata.json", Gzip(json)), json);
  EXPECT_EQ(*GunzipIfNeeded("x.metadata.json.gz", Gzip(json)), json);
}

TEST(GzipTest, CorruptOrTruncatedFileFailsNamingTheLocation) {
  std::string zipped = Gzip(std::string(10000, 'a'));
  Result<std::string> truncated = GunzipIfNeeded("x.gz.metadata.json", zipped.substr(0, 12));
  ASSERT_FALSE(truncated);
  EXPECT_EQ(truncated.error().kind, ErrorKind::kInternal);
  EXPECT_EQ(truncated.error().message, "Cannot read metadata file: corrupt gzip data");
  EXPECT_EQ(truncated.error().detail, "location: x.gz.metadata.json");
}

TEST(GzipTest, InflatingAFileStopsAtTheLimit) {
  const std::string data(100000, ' ');
  const std::string zipped = Gzip(data);
  ASSERT_LT(zipped.size(), 1000u);  // the bomb: 100 kB from well under 1 kB
  EXPECT_EQ(*GunzipIfNeeded("x.gz.metadata.json", zipped, data.size()), data);
  for (size_t limit : {data.size() - 1, size_t{65536}, size_t{1}, size_t{0}}) {
    Result<std::string> over = GunzipIfNeeded("x.gz.metadata.json", zipped, limit);
    ASSERT_FALSE(over) << limit;
    EXPECT_EQ(over.error().message, "Cannot read metadata file: inflated size over limit");
  }
}

}  // namespace
}  // namespace firn::metadata
