// Change events as clients see them (events/change_events.h): cursors that refuse anything but
// their own form, the CloudEvent fields, a Standard Webhooks signature checked against an
// independent computation, and sink secrets that open only for the sink they were sealed for.
#include "events/change_events.h"

#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include "common/digest.h"
#include "common/encoding.h"

namespace firn::events {
namespace {

TEST(EventCursorTest, RoundTripsAndRefusesEverythingElse) {
  EXPECT_EQ(EncodeCursor({0, 42}), "0-42");
  auto c = DecodeCursor("771234-98");
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, (store::EventCursor{771234, 98}));
  EXPECT_EQ(*DecodeCursor(""), (store::EventCursor{}));
  EXPECT_EQ(*DecodeCursor("0"), (store::EventCursor{}));
  for (const char* bad : {"x", "1", "1-", "-1", "1--2", "-1-2", "1-2-3", "1-2 ", " 1-2", "+1-2",
                          "1-0x2", "99999999999999999999-1", "1-99999999999999999999",
                          "1-2\n", "١-٢"}) {
    auto d = DecodeCursor(bad);
    ASSERT_FALSE(d) << bad;
    EXPECT_EQ(d.error().kind, ErrorKind::kBadRequest) << bad;
  }
}

TEST(CloudEventTest, CarriesTheChangeAndItsCursor) {
  store::ChangeEvent e;
  e.cursor = {7, 1001};
  e.entry.id = 1001;
  e.entry.at_ms = 1764835200123;  // 2025-12-04T08:00:00.123Z
  e.entry.realm = "default";
  e.entry.catalog = "lake";
  e.entry.principal = "alice";
  e.entry.operation = "updateTable";
  e.entry.object = "table db.orders";
  e.entry.old_location = "s3://b/db/orders/metadata/1.json";
  e.entry.new_location = "s3://b/db/orders/metadata/2.json";
  e.entry.outcome = "success";
  auto ce = CloudEvent(e, "dep-1");
  EXPECT_EQ(ce.at("specversion"), "1.0");
  EXPECT_EQ(ce.at("id"), "7-1001");
  EXPECT_EQ(ce.at("source"), "urn:firn:dep-1");
  EXPECT_EQ(ce.at("type"), "firn.updateTable");
  EXPECT_EQ(ce.at("subject"), "table db.orders");
  EXPECT_EQ(ce.at("time"), "2025-12-04T08:00:00.123Z");
  EXPECT_EQ(ce.at("firncatalog"), "lake");
  const auto& data = ce.at("data").as_object();
  EXPECT_EQ(data.at("previousMetadataLocation"), "s3://b/db/orders/metadata/1.json");
  EXPECT_EQ(data.at("metadataLocation"), "s3://b/db/orders/metadata/2.json");
  EXPECT_FALSE(data.contains("detail"));  // empty fields are left out
  e.entry.old_location.clear();
  EXPECT_FALSE(CloudEvent(e, "d").at("data").as_object().contains("previousMetadataLocation"));
}

TEST(WebhookSignatureTest, IsTheHmacOfIdTimestampAndBody) {
  const Secret secret("a-webhook-secret-of-some-length");
  const std::string body = R"({"id":"0-1"})";
  const std::string expected =
      "v1," + Base64Encode(HmacSha256(secret.Reveal(), "0-1.1700000000." + body));
  EXPECT_EQ(WebhookSignature(secret, "0-1", 1700000000, body), expected);
  EXPECT_NE(WebhookSignature(secret, "0-1", 1700000001, body), expected);
  EXPECT_NE(WebhookSignature(Secret("another-secret-entirely!"), "0-1", 1700000000, body),
            expected);
}

TEST(SinkSecretTest, OpensOnlyForItsOwnSinkAndKek) {
  auto kek = auth::KeyEncryptionKey::FromText(Secret(std::string(40, 'k')));
  ASSERT_TRUE(kek);
  auth::KeyEncryptionKeys keks(*kek);
  auto sealed = SealSinkSecret(keks, "default", "hook", Secret("s3cr3t-value-for-hook"));
  ASSERT_TRUE(sealed);
  EXPECT_EQ(sealed->find("s3cr3t"), std::string::npos);
  EXPECT_TRUE(sealed->starts_with(kek->id() + "."));
  auto opened = OpenSinkSecret(keks, "default", "hook", *sealed);
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->Reveal(), "s3cr3t-value-for-hook");
  // Copied onto another sink or realm, or under another KEK, it does not open.
  EXPECT_FALSE(OpenSinkSecret(keks, "default", "other", *sealed));
  EXPECT_FALSE(OpenSinkSecret(keks, "realm2", "hook", *sealed));
  auto other = auth::KeyEncryptionKey::FromText(Secret(std::string(40, 'o')));
  ASSERT_TRUE(other);
  EXPECT_FALSE(OpenSinkSecret(auth::KeyEncryptionKeys(*other), "default", "hook", *sealed));
  EXPECT_FALSE(OpenSinkSecret(keks, "default", "hook", "no-dot-here"));
  EXPECT_FALSE(OpenSinkSecret(keks, "default", "hook", kek->id() + ".tampered"));
  // A KEK rotation: re-sealed under the new primary, it opens with the new KEK alone.
  auth::KeyEncryptionKeys rotating(*other, {*kek});
  auto resealed = ResealSinkSecret(rotating, "default", "hook", *sealed);
  ASSERT_TRUE(resealed);
  EXPECT_TRUE(resealed->starts_with(other->id() + "."));
  auto reopened = OpenSinkSecret(auth::KeyEncryptionKeys(*other), "default", "hook", *resealed);
  ASSERT_TRUE(reopened);
  EXPECT_EQ(reopened->Reveal(), "s3cr3t-value-for-hook");
  EXPECT_EQ(*ResealSinkSecret(rotating, "default", "hook", *resealed), *resealed);  // done
  EXPECT_FALSE(ResealSinkSecret(auth::KeyEncryptionKeys(*other), "default", "hook", *sealed))
      << "re-sealing needs the KEK that sealed it";
}

}  // namespace
}  // namespace firn::events
