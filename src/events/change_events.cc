#include "events/change_events.h"

#include <charconv>
#include <cstdio>
#include <ctime>
#include <optional>

#include "common/digest.h"
#include "common/encoding.h"
#include "common/error.h"
#include "common/macros.h"

namespace firn::events {
namespace {

std::optional<int64_t> ParseCount(std::string_view text) {
  int64_t value = 0;
  if (text.empty() || text.size() > 19) return std::nullopt;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

std::string SinkAssociatedData(std::string_view realm, std::string_view name) {
  std::string ad = "event-sink\n";
  ad.append(realm).append("\n").append(name);
  return ad;
}

}  // namespace

std::string EncodeCursor(const store::EventCursor& cursor) {
  return std::to_string(cursor.txn) + "-" + std::to_string(cursor.id);
}

Result<store::EventCursor> DecodeCursor(std::string_view text) {
  if (text.empty() || text == "0") return store::EventCursor{};
  const size_t dash = text.find('-');
  if (dash != std::string_view::npos) {
    auto txn = ParseCount(text.substr(0, dash));
    auto id = ParseCount(text.substr(dash + 1));
    if (txn && id) return store::EventCursor{*txn, *id};
  }
  return Fail(ErrorKind::kBadRequest,
              "Invalid cursor: expected an event id from the feed (\"<txn>-<id>\")");
}

std::string FormatRfc3339Millis(int64_t ms) {
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[40];
  const size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03dZ", static_cast<int>(ms % 1000));
  return std::string(text, n) + millis;
}

boost::json::object CloudEvent(const store::ChangeEvent& event, std::string_view deployment_id) {
  const store::AuditEntry& e = event.entry;
  boost::json::object data;
  data["realm"] = e.realm;
  data["catalog"] = e.catalog;
  data["operation"] = e.operation;
  data["object"] = e.object;
  data["principal"] = e.principal;
  data["client"] = e.client;
  data["requestId"] = e.request_id;
  if (!e.old_location.empty()) data["previousMetadataLocation"] = e.old_location;
  if (!e.new_location.empty()) data["metadataLocation"] = e.new_location;
  if (!e.detail.empty()) data["detail"] = e.detail;
  boost::json::object ce;
  ce["specversion"] = "1.0";
  ce["id"] = EncodeCursor(event.cursor);
  ce["source"] = "urn:firn:" + std::string(deployment_id);
  ce["type"] = "firn." + e.operation;
  ce["subject"] = e.object;
  ce["time"] = FormatRfc3339Millis(e.at_ms);
  ce["datacontenttype"] = "application/json";
  ce["firnrealm"] = e.realm;
  ce["firncatalog"] = e.catalog;
  ce["data"] = std::move(data);
  return ce;
}

Result<std::string> SealSinkSecret(const auth::KeyEncryptionKeys& keks, std::string_view realm,
                                   std::string_view name, const Secret& secret) {
  const auth::KeyEncryptionKey& kek = keks.primary();
  FIRN_ASSIGN_OR_RETURN(std::string sealed, kek.Seal(secret, SinkAssociatedData(realm, name)));
  return kek.id() + "." + sealed;
}

Result<Secret> OpenSinkSecret(const auth::KeyEncryptionKeys& keks, std::string_view realm,
                              std::string_view name, std::string_view stored) {
  const size_t dot = stored.find('.');
  const auth::KeyEncryptionKey* kek =
      dot == std::string_view::npos ? nullptr : keks.Find(stored.substr(0, dot));
  if (!kek) {
    return Fail(ErrorKind::kNotAuthorized,
                "The event sink's secret was sealed with a key-encryption key this server "
                "does not hold");
  }
  return kek->Open(stored.substr(dot + 1), SinkAssociatedData(realm, name));
}

Result<std::string> ResealSinkSecret(const auth::KeyEncryptionKeys& keks, std::string_view realm,
                                     std::string_view name, std::string_view stored) {
  if (stored.starts_with(keks.primary().id() + ".")) return std::string(stored);
  FIRN_ASSIGN_OR_RETURN(Secret secret, OpenSinkSecret(keks, realm, name, stored));
  return SealSinkSecret(keks, realm, name, secret);
}

std::string WebhookSignature(const Secret& secret, std::string_view id, int64_t timestamp_s,
                             std::string_view body) {
  std::string signed_text;
  signed_text.reserve(id.size() + body.size() + 24);
  signed_text.append(id).append(".").append(std::to_string(timestamp_s)).append(".").append(body);
  return "v1," + Base64Encode(HmacSha256(secret.Reveal(), signed_text));
}

}  // namespace firn::events
