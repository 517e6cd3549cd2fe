// ManagementService: the change feed and its webhooks (docs/events.md).

#include "access/management_service_internal.h"
#include "common/clock.h"
#include "common/macros.h"
#include "events/change_events.h"
#include "events/sink_urls.h"

namespace firn::access {
namespace {

constexpr size_t kMinSecretBytes = 16;
constexpr size_t kMaxSecretBytes = 1024;

Status ValidateOperations(const std::vector<std::string>& operations) {
  for (const std::string& name : operations) {
    bool known = false;
    for (int i = 0; i < auth::kOperationCount && !known; ++i) {
      known = auth::AuditName(static_cast<auth::Operation>(i)) == name;
    }
    if (!known) {
      return Fail(ErrorKind::kBadRequest,
                  "Invalid operations: unknown operation '" + name.substr(0, 64) +
                      "' (names are the REST and management operationIds, e.g. updateTable)");
    }
  }
  return Ok();
}

}  // namespace

Result<EventPage> ManagementService::ListEvents(const ManagementContext& ctx,
                                                const std::string& catalog,
                                                std::optional<store::EventCursor> after,
                                                int64_t limit) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kListEvents));
  if (limit < 1 || limit > 1000) {
    return Fail(ErrorKind::kBadRequest, "Invalid limit: must be between 1 and 1000");
  }
  EventPage page;
  if (!after) {
    FIRN_ASSIGN_OR_RETURN(page.next, catalogs_.LatestEventCursor(ctx.realm));
    return page;
  }
  store::EventFilter filter;
  filter.realm = ctx.realm;
  filter.catalog = catalog;
  filter.after = *after;
  filter.limit = limit;
  FIRN_ASSIGN_OR_RETURN(page.events, catalogs_.ListEvents(filter));
  page.next = page.events.empty() ? *after : page.events.back().cursor;
  return page;
}

Result<store::EventSink> ManagementService::CreateEventSink(const ManagementContext& ctx,
                                                            const EventSinkSpec& spec) {
  const auth::Operation op = auth::Operation::kCreateEventSink;
  FIRN_RETURN_IF_ERROR(Require(ctx, op));
  FIRN_RETURN_IF_ERROR(mgmt::ValidateName("event sink", spec.name));
  FIRN_RETURN_IF_ERROR(events::CheckSinkUrl(spec.url, options_.sink_urls));
  FIRN_RETURN_IF_ERROR(ValidateOperations(spec.operations));
  if (!spec.catalog.empty()) FIRN_RETURN_IF_ERROR(mgmt::ValidateName("catalog", spec.catalog));
  store::EventSink sink;
  sink.realm = ctx.realm;
  sink.name = spec.name;
  sink.url = spec.url;
  sink.catalog = spec.catalog;
  for (const std::string& operation : spec.operations) {
    if (!sink.operations.empty()) sink.operations += ',';
    sink.operations += operation;
  }
  if (spec.secret) {
    const size_t n = spec.secret->Reveal().size();
    if (n < kMinSecretBytes || n > kMaxSecretBytes) {
      return Fail(ErrorKind::kBadRequest, "Invalid secret: must be " +
                                              std::to_string(kMinSecretBytes) + " to " +
                                              std::to_string(kMaxSecretBytes) + " characters");
    }
    if (!options_.keks) {
      return Fail(ErrorKind::kBadRequest,
                  "Invalid secret: this server has no key-encryption key to keep it sealed");
    }
    FIRN_ASSIGN_OR_RETURN(sink.secret,
                          events::SealSinkSecret(*options_.keks, sink.realm, sink.name,
                                                 *spec.secret));
  }
  sink.created_ms = NowMillis();
  if (!spec.from_start) {
    FIRN_ASSIGN_OR_RETURN(sink.delivered_through, catalogs_.LatestEventCursor(ctx.realm));
  }
  const std::string object = "event-sink " + spec.name;
  store::AuditEntry audit = mgmt::MakeAudit(ctx, op, "", object);
  audit.outcome = std::string(mgmt::kSuccess);
  audit.detail = "to " + events::RedactedSinkUrl(spec.url);
  if (auto st = catalogs_.CreateEventSink(sink, &audit); !st) {
    Error e = mgmt::MapStoreError(st.error(), object);
    AuditFailure(ctx, op, "", object, e);
    return std::unexpected(std::move(e));
  }
  return sink;
}

Result<std::vector<store::EventSink>> ManagementService::ListEventSinks(
    const ManagementContext& ctx) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kListEventSinks));
  return catalogs_.ListEventSinks(ctx.realm);
}

Result<store::EventSink> ManagementService::GetEventSink(const ManagementContext& ctx,
                                                         std::string_view name) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kGetEventSink));
  FIRN_ASSIGN_OR_RETURN(auto sinks, catalogs_.ListEventSinks(ctx.realm));
  for (auto& s : sinks) {
    if (s.name == name) return std::move(s);
  }
  return Fail(ErrorKind::kNotFound, "Does not exist: event-sink " + std::string(name));
}

Status ManagementService::DeleteEventSink(const ManagementContext& ctx, std::string_view name) {
  const auth::Operation op = auth::Operation::kDeleteEventSink;
  FIRN_RETURN_IF_ERROR(Require(ctx, op));
  const std::string object = "event-sink " + std::string(name);
  store::AuditEntry audit = mgmt::MakeAudit(ctx, op, "", object);
  audit.outcome = std::string(mgmt::kSuccess);
  if (auto st = catalogs_.DeleteEventSink(ctx.realm, std::string(name), &audit); !st) {
    Error e = mgmt::MapStoreError(st.error(), object);
    AuditFailure(ctx, op, "", object, e);
    return std::unexpected(std::move(e));
  }
  return Ok();
}

}  // namespace firn::access
