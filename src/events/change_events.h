// Change events as clients see them (docs/events.md): the feed's cursor as text, each event as
// a CloudEvents 1.0 structured-mode JSON object, and what a webhook needs (its signing secret
// sealed at rest, the signature of a delivery).
//
// An event is one audited change (store/event_store.h). Its CloudEvent:
//   id       the event's cursor, "<txn>-<id>": unique, and where to resume after it
//   source   "urn:firn:<deployment id>"
//   type     "firn." + the operation (e.g. "firn.updateTable", "firn.createPrincipal")
//   subject  what changed, e.g. "table db.orders", "principal alice"
//   time     when it was committed (RFC 3339, UTC, milliseconds)
//   data     realm, catalog, operation, object, principal, client, requestId, and when the
//            change moved a metadata pointer previousMetadataLocation and metadataLocation;
//            detail when the audit row has one
// plus the extension attributes firnrealm and firncatalog (for routing without parsing data).
//
// Webhook signatures follow the Standard Webhooks scheme: headers webhook-id (the event id),
// webhook-timestamp (Unix seconds) and webhook-signature "v1,<base64 HMAC-SHA256 of
// id.timestamp.body>", keyed with the sink's secret.
//
// Thread-safety: pure functions. Errors: DecodeCursor kBadRequest; secrets as
// auth/key_encryption.h (kNotAuthorized when a sealed secret does not open).
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "auth/key_encryption.h"
#include "common/result.h"
#include "common/secret.h"
#include "store/event_store.h"

namespace firn::events {

std::string EncodeCursor(const store::EventCursor& cursor);
// "<txn>-<id>" with both non-negative decimal; "" or "0" is the start.
Result<store::EventCursor> DecodeCursor(std::string_view text);

boost::json::object CloudEvent(const store::ChangeEvent& event, std::string_view deployment_id);

// "2026-12-04T08:14:00.123Z".
std::string FormatRfc3339Millis(int64_t ms);

// A sink's secret as stored: "<kek id>.<sealed>", sealed with the primary KEK for this sink
// alone (its realm and name are the associated data).
Result<std::string> SealSinkSecret(const auth::KeyEncryptionKeys& keks, std::string_view realm,
                                   std::string_view name, const Secret& secret);
Result<Secret> OpenSinkSecret(const auth::KeyEncryptionKeys& keks, std::string_view realm,
                              std::string_view name, std::string_view stored);

// The stored secret re-sealed with the primary KEK of `keks` (which must also hold the KEK that
// sealed it): a KEK rotation. Unchanged when it is already sealed with the primary.
Result<std::string> ResealSinkSecret(const auth::KeyEncryptionKeys& keks, std::string_view realm,
                                     std::string_view name, std::string_view stored);

// The webhook-signature header's value.
std::string WebhookSignature(const Secret& secret, std::string_view id, int64_t timestamp_s,
                             std::string_view body);

}  // namespace firn::events
