#include "store/sql/sql_event_ops.h"

#include "common/error.h"
#include "common/macros.h"
#include "store/sql/sql_access_ops.h"
#include "store/sql/sql_statements.h"

namespace firn::store::sql {
namespace {

EventSink SinkFromRow(const Row& row) {
  EventSink s;
  s.realm = std::string(row.Text(0));
  s.name = std::string(row.Text(1));
  s.url = std::string(row.Text(2));
  s.secret = std::string(row.Text(3));
  s.catalog = std::string(row.Text(4));
  s.operations = std::string(row.Text(5));
  s.created_ms = row.Int(6);
  s.delivered_through = {row.Int(7), row.Int(8)};
  s.delivered = row.Int(9);
  s.failures = row.Int(10);
  s.last_error = std::string(row.Text(11));
  s.last_attempt_ms = row.Int(12);
  s.last_success_ms = row.Int(13);
  s.next_attempt_ms = row.Int(14);
  s.lease_owner = std::string(row.Text(15));
  s.lease_until_ms = row.Int(16);
  return s;
}

}  // namespace

Result<std::vector<ChangeEvent>> ListEventRows(Session& session, const EventFilter& filter) {
  if (filter.limit < 1 || filter.limit > 1000) {
    return Fail(ErrorKind::kIllegalArgument, "Invalid limit: must be between 1 and 1000");
  }
  // Without row locks one write transaction runs at a time: every visible row is final.
  const std::string_view statement = session.HasRowLocks() ? kListEndedEvents : kListEvents;
  std::vector<ChangeEvent> events;
  FIRN_RETURN_IF_ERROR(session.Query(
      statement, {filter.realm, filter.catalog, filter.after.txn, filter.after.id, filter.limit},
      [&](const Row& row) -> Status {
        ChangeEvent event;
        event.entry = AuditFromRow(row);
        event.cursor = {row.Int(13), event.entry.id};
        events.push_back(std::move(event));
        return Ok();
      }));
  return events;
}

Result<EventCursor> LatestEventRow(Session& session, const std::string& realm) {
  EventCursor latest;
  FIRN_RETURN_IF_ERROR(session.Query(session.HasRowLocks() ? kLatestEndedEvent : kLatestEvent,
                                     {realm}, [&](const Row& row) -> Status {
                                       latest = {row.Int(0), row.Int(1)};
                                       return Ok();
                                     }));
  return latest;
}

Status InsertEventSink(Session& session, const EventSink& s) {
  FIRN_ASSIGN_OR_RETURN(
      int64_t inserted,
      session.Exec(kInsertEventSink,
                   {s.realm, s.name, s.url, s.secret, s.catalog, s.operations, s.created_ms,
                    s.delivered_through.txn, s.delivered_through.id, s.delivered, s.failures,
                    s.last_error, s.last_attempt_ms, s.last_success_ms, s.next_attempt_ms,
                    s.lease_owner, s.lease_until_ms}));
  if (inserted == 0) return Fail(ErrorKind::kAlreadyExists, "Event sink already exists: " + s.name);
  return Ok();
}

Result<std::vector<EventSink>> ListEventSinkRows(Session& session, const std::string& realm) {
  std::vector<EventSink> sinks;
  FIRN_RETURN_IF_ERROR(session.Query(kListEventSinks, {realm}, [&](const Row& row) -> Status {
    sinks.push_back(SinkFromRow(row));
    return Ok();
  }));
  return sinks;
}

Status DeleteEventSinkRow(Session& session, const std::string& realm, const std::string& name) {
  FIRN_ASSIGN_OR_RETURN(int64_t deleted, session.Exec(kDeleteEventSink, {realm, name}));
  if (deleted == 0) return Fail(ErrorKind::kNotFound, "Event sink does not exist: " + name);
  return Ok();
}

Result<std::optional<EventSink>> ClaimEventSinkRow(Session& session, const std::string& realm,
                                                   const std::string& name,
                                                   const std::string& owner, int64_t now_ms,
                                                   int64_t lease_ms) {
  std::optional<EventSink> claimed;
  FIRN_RETURN_IF_ERROR(session.Exec(kClaimEventSink,
                                    {owner, now_ms, now_ms + lease_ms, realm, name},
                                    [&](const Row& row) -> Status {
                                      claimed = SinkFromRow(row);
                                      return Ok();
                                    }));
  return claimed;
}

Status FinishEventSinkRow(Session& session, const std::string& realm, const std::string& name,
                          const std::string& owner, const SinkProgress& p) {
  FIRN_ASSIGN_OR_RETURN(
      int64_t changed,
      session.Exec(kFinishEventSink,
                   {realm, name, owner, p.delivered_through.txn, p.delivered_through.id,
                    p.newly_delivered, p.failures, p.last_error, p.attempt_ms, p.last_success_ms,
                    p.next_attempt_ms}));
  if (changed == 0) {
    return Fail(ErrorKind::kCommitFailed,
                "Event sink " + name + " is no longer leased by this instance");
  }
  return Ok();
}

}  // namespace firn::store::sql
