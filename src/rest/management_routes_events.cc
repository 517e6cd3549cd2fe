// Firn extensions: GET /api/management/v1/events — the change feed of the caller's realm as
// CloudEvents, read with a cursor — and /api/management/v1/event-sinks — webhooks that receive
// it (docs/events.md).
#include "common/macros.h"
#include "common/strings.h"
#include "events/change_events.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"
#include "rest/request_params.h"

namespace firn::rest::mgmt {
namespace {

json::value CursorOrNull(const store::EventCursor& c) {
  if (c.txn == 0 && c.id == 0) return nullptr;
  return json::value(events::EncodeCursor(c));
}

// A sink as the API shows it: never its secret, only whether it has one.
json::object SinkJson(const store::EventSink& s) {
  json::object o;
  o["name"] = s.name;
  o["url"] = s.url;
  o["catalog"] = s.catalog.empty() ? json::value(nullptr) : json::value(s.catalog);
  json::array ops;
  for (std::string_view op : SplitString(s.operations, ',')) ops.emplace_back(op);
  o["operations"] = std::move(ops);
  o["signed"] = !s.secret.empty();
  o["created"] = s.created_ms;
  json::object state;
  state["deliveredThrough"] = CursorOrNull(s.delivered_through);
  state["delivered"] = s.delivered;
  state["failures"] = s.failures;
  state["lastError"] = s.last_error.empty() ? json::value(nullptr) : json::value(s.last_error);
  state["lastAttempt"] = s.last_attempt_ms == 0 ? json::value(nullptr) : json::value(s.last_attempt_ms);
  state["lastSuccess"] = s.last_success_ms == 0 ? json::value(nullptr) : json::value(s.last_success_ms);
  state["nextAttempt"] = s.next_attempt_ms;
  state["leasedBy"] = s.lease_owner.empty() ? json::value(nullptr) : json::value(s.lease_owner);
  o["delivery"] = std::move(state);
  return o;
}

Result<access::EventSinkSpec> SinkSpecFromBody(const Request& req) {
  FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(req));
  for (const auto& member : body) {
    const std::string_view key = member.key();
    if (key != "name" && key != "url" && key != "secret" && key != "catalog" &&
        key != "operations" && key != "from") {
      return Fail(ErrorKind::kBadRequest,
                  "Unknown field in an event sink: " + std::string(key.substr(0, 64)) +
                      " (fields: name, url, secret, catalog, operations, from)");
    }
  }
  access::EventSinkSpec spec;
  FIRN_ASSIGN_OR_RETURN(spec.name, RequiredString(body, "name"));
  FIRN_ASSIGN_OR_RETURN(spec.url, RequiredString(body, "url"));
  FIRN_ASSIGN_OR_RETURN(auto secret, OptionalString(body, "secret"));
  if (secret) spec.secret = Secret(std::move(*secret));
  FIRN_ASSIGN_OR_RETURN(auto catalog, OptionalString(body, "catalog"));
  spec.catalog = catalog.value_or("");
  FIRN_ASSIGN_OR_RETURN(auto operations, OptionalStringArray(body, "operations"));
  if (operations) spec.operations = std::move(*operations);
  FIRN_ASSIGN_OR_RETURN(auto from, OptionalString(body, "from"));
  if (from && *from != "now" && *from != "start") {
    return Fail(ErrorKind::kBadRequest, "Invalid from: must be \"now\" or \"start\"");
  }
  spec.from_start = from && *from == "start";
  return spec;
}

}  // namespace

void AddEventRoutes(Registrar& routes, access::ManagementService& service) {
  routes.Add(Method::kGet, "/events", [&service](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(c.req.query));
    const std::string after_text = TextParam(query, "after").value_or("");
    std::optional<store::EventCursor> after;
    if (after_text != "latest") {
      FIRN_ASSIGN_OR_RETURN(after, events::DecodeCursor(after_text));
    }
    FIRN_ASSIGN_OR_RETURN(auto limit, IntParam(query, "limit"));
    FIRN_ASSIGN_OR_RETURN(access::EventPage page,
                          service.ListEvents(c.ctx, TextParam(query, "catalog").value_or(""),
                                             after, limit.value_or(100)));
    json::array out;
    for (const auto& e : page.events) out.emplace_back(events::CloudEvent(e, service.deployment_id()));
    json::object body;
    body["events"] = std::move(out);
    body["next"] = events::EncodeCursor(page.next);
    return JsonResponse(200, body);
  });

  AddListRoute(routes, "/event-sinks", service, &Service::ListEventSinks, "eventSinks", SinkJson);

  routes.Add(Method::kPost, "/event-sinks", [&service](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(access::EventSinkSpec spec, SinkSpecFromBody(c.req));
    FIRN_ASSIGN_OR_RETURN(store::EventSink sink, service.CreateEventSink(c.ctx, spec));
    return JsonResponse(201, SinkJson(sink));
  });

  routes.Add(Method::kGet, "/event-sinks/{sinkName}", [&service](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(store::EventSink sink, service.GetEventSink(c.ctx, c.names[0]));
    return JsonResponse(200, SinkJson(sink));
  });

  AddNamedActionRoute(routes, Method::kDelete, "/event-sinks/{sinkName}", service,
                      &Service::DeleteEventSink, 204);
}

}  // namespace firn::rest::mgmt
