#include "auth/key_encryption.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/encoding.h"

namespace firn::auth {
namespace {

const Secret kPlain(
    "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n");

KeyEncryptionKey Kek(std::string text) {
  return *KeyEncryptionKey::FromText(Secret(std::move(text)));
}

TEST(KeyEncryptionTest, SealedBlobOpensWithTheSameKekAndRecordOnly) {
  auto kek = Kek(std::string(32, 'a'));
  auto sealed = kek.Seal(kPlain, "realm/kid");
  ASSERT_TRUE(sealed);
  EXPECT_EQ(sealed->find("PRIVATE"), std::string::npos);
  auto opened = kek.Open(*sealed, "realm/kid");
  ASSERT_TRUE(opened) << opened.error().detail;
  EXPECT_EQ(opened->Reveal(), kPlain.Reveal());

  // The attack: the blob moved to another record (another realm or kid) does not open.
  auto moved = kek.Open(*sealed, "other-realm/kid");
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().kind, ErrorKind::kNotAuthorized);
  // Another KEK (one byte different) cannot open it.
  auto other = Kek(std::string(31, 'a') + "b").Open(*sealed, "realm/kid");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().kind, ErrorKind::kNotAuthorized);
}

TEST(KeyEncryptionTest, EveryFlippedByteFailsTheTag) {
  auto kek = Kek(std::string(40, 'k'));
  std::string raw = *Base64UrlDecode(*kek.Seal(kPlain, "ad"));
  for (size_t i = 0; i < raw.size(); ++i) {
    std::string tampered = raw;
    tampered[i] = static_cast<char>(tampered[i] ^ 0x01);
    EXPECT_FALSE(kek.Open(Base64UrlEncode(tampered), "ad")) << "byte " << i;
  }
  EXPECT_FALSE(kek.Open(Base64UrlEncode(raw.substr(0, 20)), "ad"));  // truncated
  EXPECT_FALSE(kek.Open("not base64url!", "ad"));
}

TEST(KeyEncryptionTest, FreshIvEverySeal) {
  auto kek = Kek(std::string(32, 'z'));
  EXPECT_NE(*kek.Seal(kPlain, "ad"), *kek.Seal(kPlain, "ad"));
}

TEST(KeyEncryptionTest, ShortTextIsRefusedAndTheIdIsStableAndRevealsNothing) {
  auto short_text = KeyEncryptionKey::FromText(Secret(std::string(31, 'x')));
  ASSERT_FALSE(short_text);
  EXPECT_EQ(short_text.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(short_text.error().message.find("xxxx"), std::string::npos);

  Secret text = KeyEncryptionKey::GenerateText();
  EXPECT_EQ(text.Reveal().size(), 43u);
  auto a = Kek(text.Reveal());
  auto b = Kek(text.Reveal());
  EXPECT_EQ(a.id(), b.id());
  EXPECT_EQ(a.id().size(), 16u);
  EXPECT_EQ(text.Reveal().find(a.id()), std::string::npos);
  EXPECT_NE(Kek(KeyEncryptionKey::GenerateText().Reveal()).id(), a.id());
  // The KEK never prints.
  EXPECT_EQ(fmt::format("{}", text), "***");
}

TEST(KeyEncryptionTest, KeySetFindsByIdAndDropsDuplicates) {
  auto primary = Kek(std::string(32, '1'));
  auto old = Kek(std::string(32, '2'));
  KeyEncryptionKeys keys(primary, {old, Kek(std::string(32, '1')), Kek(std::string(32, '2'))});
  EXPECT_EQ(keys.primary().id(), primary.id());
  EXPECT_EQ(keys.ids(), (std::vector<std::string>{primary.id(), old.id()}));
  ASSERT_NE(keys.Find(old.id()), nullptr);
  EXPECT_TRUE(keys.Find(old.id())->Open(*old.Seal(kPlain, "ad"), "ad"));
  EXPECT_EQ(keys.Find("nope"), nullptr);
}

}  // namespace
}  // namespace firn::auth
