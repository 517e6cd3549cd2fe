// The EventStore operations (store/event_store.h) as statements on a Session, for the shared SQL
// store. Each runs inside the Runner call the store chose for it; none opens or ends a
// transaction.
//
// Thread-safety: as the Session. Errors: the EventStore contract.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/event_store.h"
#include "store/sql/sql_session.h"

namespace firn::store::sql {

Result<std::vector<ChangeEvent>> ListEventRows(Session& session, const EventFilter& filter);
Result<EventCursor> LatestEventRow(Session& session, const std::string& realm);

Status InsertEventSink(Session& session, const EventSink& sink);
Result<std::vector<EventSink>> ListEventSinkRows(Session& session, const std::string& realm);
Status DeleteEventSinkRow(Session& session, const std::string& realm, const std::string& name);
Result<std::optional<EventSink>> ClaimEventSinkRow(Session& session, const std::string& realm,
                                                   const std::string& name,
                                                   const std::string& owner, int64_t now_ms,
                                                   int64_t lease_ms);
Status FinishEventSinkRow(Session& session, const std::string& realm, const std::string& name,
                          const std::string& owner, const SinkProgress& progress);

}  // namespace firn::store::sql
