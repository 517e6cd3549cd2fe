#include "common/gzip.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace firn {
namespace {

constexpr size_t kLimit = size_t{64} << 20;

std::string Numbers(int n) {
  std::string data;
  for (int i = 0; i < n; ++i) data += std::to_string(i) + ",";
  return data;
}

std::string RandomBytes(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::string out(n, '\0');
  for (char& c : out) c = static_cast<char>(rng() & 0xff);
  return out;
}

TEST(GzipTest, RoundTripsLargeInputAtBothLevels) {
  const std::string data = Numbers(200000);
  for (int level : {kGzipLevelFast, kGzipLevelDefault}) {
    std::string zipped = Gzip(data, level);
    EXPECT_TRUE(HasGzipMagic(zipped));
    EXPECT_LT(zipped.size(), data.size() / 2) << level;
    Result<std::string> back = Gunzip(zipped, kLimit);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(*back, data);
  }
}

TEST(GzipTest, RoundTripsEmptyAndIncompressibleInput) {
  EXPECT_EQ(*Gunzip(Gzip(""), 0), "");
  const std::string noise = RandomBytes(300000, 7);  // deflate grows it a little: the loop
  EXPECT_EQ(*Gunzip(Gzip(noise, kGzipLevelFast), kLimit), noise);
}

TEST(GzipTest, CorruptOrTruncatedDataFails) {
  std::string zipped = Gzip(std::string(10000, 'a'));
  Result<std::string> truncated = Gunzip(zipped.substr(0, 12), kLimit);
  ASSERT_FALSE(truncated);
  EXPECT_EQ(truncated.error().kind, ErrorKind::kInternal);
  EXPECT_EQ(truncated.error().message, "corrupt gzip data");
  std::string corrupt = zipped;
  corrupt[12] ^= 0x55;
  corrupt[13] ^= 0x55;
  EXPECT_FALSE(Gunzip(corrupt, kLimit));
  EXPECT_FALSE(Gunzip("not gzip at all", kLimit));
  EXPECT_FALSE(Gunzip("", kLimit));
}

TEST(GzipTest, InflatingStopsAtTheLimitAGzipBombNeverGrowsPastIt) {
  const std::string data(100000, ' ');
  const std::string zipped = Gzip(data);
  ASSERT_LT(zipped.size(), 1000u);
  Result<std::string> exact = Gunzip(zipped, data.size());
  ASSERT_TRUE(exact) << exact.error().message;
  EXPECT_EQ(*exact, data);
  for (size_t limit : {data.size() - 1, size_t{65536}, size_t{1}, size_t{0}}) {
    Result<std::string> over = Gunzip(zipped, limit);
    ASSERT_FALSE(over) << limit;
    EXPECT_EQ(over.error().message, "inflated size over limit");
  }
}

// Pieces deflated separately, joined in any order and any number, inflate to the
// concatenation of their inputs (crc and size checked by zlib against the trailer).
TEST(GzipTest, JoinedPiecesInflateToTheConcatenation) {
  const std::string big = Numbers(30000);        // > 64 KiB: the full window
  const std::string small = R"({"metadata-location":"s3://b/t/metadata/1.json","metadata":)";
  const std::string tiny = "}";
  const std::string noise = RandomBytes(5000, 11);
  const DeflatedPiece p_big = DeflatePiece(big);
  const DeflatedPiece p_small = DeflatePiece(small);
  const DeflatedPiece p_tiny = DeflatePiece(tiny);
  const DeflatedPiece p_noise = DeflatePiece(noise);
  const DeflatedPiece p_empty = DeflatePiece("");
  EXPECT_EQ(p_big.size, big.size());
  EXPECT_LT(p_big.deflated.size(), big.size() / 2);

  auto inflate = [](const std::string& gz) {
    Result<std::string> r = Gunzip(gz, kLimit);
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : std::string("<error>");
  };
  EXPECT_EQ(inflate(GzipJoin({&p_small, &p_big, &p_tiny})), small + big + tiny);
  // The same kept piece serves another join, in another position.
  EXPECT_EQ(inflate(GzipJoin({&p_big, &p_noise, &p_big})), big + noise + big);
  EXPECT_EQ(inflate(GzipJoin({&p_empty, &p_tiny, nullptr, &p_empty})), tiny);
  EXPECT_EQ(inflate(GzipJoin({})), "");
  EXPECT_TRUE(HasGzipMagic(GzipJoin({&p_tiny})));
}

TEST(GzipTest, StoredPiecesJoinWithDeflatedOnes) {
  const std::string big = Numbers(30000);
  const std::string head = R"({"metadata-location":"s3://b/t/metadata/1.json","metadata":)";
  const std::string huge = RandomBytes(200000, 5);  // several stored blocks of 65,535 bytes
  const DeflatedPiece p_head = StoredPiece(head);
  const DeflatedPiece p_big = DeflatePiece(big);
  const DeflatedPiece p_huge = StoredPiece(huge);
  const DeflatedPiece p_empty = StoredPiece("");
  EXPECT_EQ(p_head.deflated.size(), head.size() + 5);  // one block: a byte, LEN and NLEN
  EXPECT_EQ(p_head.crc, DeflatePiece(head).crc);
  Result<std::string> joined =
      Gunzip(GzipJoin({&p_head, &p_big, &p_empty, &p_huge, &p_head}), kLimit);
  ASSERT_TRUE(joined) << joined.error().message;
  EXPECT_EQ(*joined, head + big + huge + head);
  for (size_t n : {size_t{65535}, size_t{65536}}) {  // exactly one block, and one byte more
    const std::string edge(n, 'e');
    const DeflatedPiece p = StoredPiece(edge);
    EXPECT_EQ(*Gunzip(GzipJoin({&p}), kLimit), edge) << n;
  }
}

TEST(GzipTest, AJoinWithAWrongTrailerIsRefused) {
  const DeflatedPiece piece = DeflatePiece(Numbers(1000));
  std::string gz = GzipJoin({&piece});
  gz[gz.size() - 6] ^= 0x01;  // a bit of the CRC-32
  EXPECT_FALSE(Gunzip(gz, kLimit));
  gz = GzipJoin({&piece});
  gz[gz.size() - 1] ^= 0x01;  // ISIZE
  EXPECT_FALSE(Gunzip(gz, kLimit));
}

}  // namespace
}  // namespace firn
