// EventStore: the change feed and its webhook sinks (docs/events.md).
//
// The feed is the transactional outbox. Every change is already audited in the same database
// transaction as the change itself (store.h, "Audit"), so the change events are the audit rows
// with outcome "success": nothing more is written on a commit, and a change and its event exist
// together or not at all. Each row carries the number of the transaction that wrote it
// (`txn`); the feed is ordered by (txn, id) and only ever shows rows of transactions that have
// ended, so a reader never passes over a row that commits later:
//   - PostgreSQL: txn is the transaction id; the feed stops below the oldest transaction still
//     running (the snapshot's xmin), so a long transaction delays the feed and never skips it.
//   - SQLite: one write transaction at a time, so ids are assigned in commit order; txn is 0.
// A cursor is the (txn, id) of the last event read; {0, 0} is the start. Reading is
// at-least-once by the reader's own bookkeeping: events are never consumed.
//
// A sink is a webhook with its own cursor and delivery state. One instance at a time delivers
// to a sink, under a lease like a task's (task_store.h): ClaimEventSink takes a sink that is
// due and not leased (or whose lease ran out); a deliverer reads first and claims only a sink
// with something to send, so an idle sink costs no writes; FinishEventSink records what was delivered and
// when to try again, and releases the lease. A lost lease (or a sink deleted meanwhile) is
// kCommitFailed and nothing is recorded, so the sink's cursor only moves for its holder.
//
// Thread-safety: every method is safe to call concurrently. Errors: kServiceUnavailable (the
// database), kAlreadyExists (CreateEventSink with a used name), kNotFound (DeleteEventSink of an
// unknown sink), kCommitFailed (lease lost), kIllegalArgument (limit
// outside 1..1000).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "store/access_store.h"

namespace firn::store {

struct EventCursor {
  int64_t txn = 0;
  int64_t id = 0;
  friend bool operator==(const EventCursor&, const EventCursor&) = default;
};

struct ChangeEvent {
  EventCursor cursor;
  AuditEntry entry;  // outcome is always "success"
};

struct EventFilter {
  std::string realm;
  std::string catalog;  // '' = every catalog of the realm
  EventCursor after;    // events strictly after this one
  int64_t limit = 100;  // 1..1000
};

struct EventSink {
  std::string realm;
  std::string name;
  std::string url;
  std::string secret;      // opaque to the store (sealed by the caller); '' = unsigned
  std::string catalog;     // '' = every catalog
  std::string operations;  // comma-separated operation names; '' = every operation
  int64_t created_ms = 0;
  // Delivery state.
  EventCursor delivered_through;  // the last event delivered (or skipped by the filters)
  int64_t delivered = 0;          // events delivered so far
  int64_t failures = 0;           // consecutive failed attempts (0 after a success)
  std::string last_error;         // of the last failed attempt ('' after a success)
  int64_t last_attempt_ms = 0;
  int64_t last_success_ms = 0;
  int64_t next_attempt_ms = 0;    // not before this
  std::string lease_owner;        // '' when not leased
  int64_t lease_until_ms = 0;
};

// What a delivery attempt achieved (FinishEventSink).
struct SinkProgress {
  EventCursor delivered_through;
  int64_t newly_delivered = 0;
  int64_t failures = 0;
  std::string last_error;
  int64_t attempt_ms = 0;
  int64_t last_success_ms = 0;  // the sink's, as it stands after this attempt
  int64_t next_attempt_ms = 0;
};

class EventStore {
 public:
  virtual ~EventStore() = default;

  // Events of one realm after `filter.after`, oldest first, at most `filter.limit`.
  virtual Result<std::vector<ChangeEvent>> ListEvents(const EventFilter& filter) = 0;
  // The cursor of the realm's newest visible event ({0, 0} when there is none): where a reader
  // that wants only what happens from now on starts.
  virtual Result<EventCursor> LatestEventCursor(const std::string& realm) = 0;

  // Stores a new sink with its delivery state as given (normally: cursor set, counters zero),
  // with `audit` (when given) in the same transaction.
  virtual Status CreateEventSink(const EventSink& sink, const AuditEntry* audit = nullptr) = 0;
  // The sinks of `realm` ('' = every realm), by realm and name.
  virtual Result<std::vector<EventSink>> ListEventSinks(const std::string& realm) = 0;
  // Replaces a sink's sealed secret iff it is still `expected` (a KEK rotation re-sealing it);
  // kCommitFailed when it changed meanwhile or the sink is gone.
  virtual Status ReplaceEventSinkSecret(const std::string& realm, const std::string& name,
                                        const std::string& expected,
                                        const std::string& secret) = 0;
  // kNotFound when there is no such sink (and no audit row is written).
  virtual Status DeleteEventSink(const std::string& realm, const std::string& name,
                                 const AuditEntry* audit = nullptr) = 0;
  // Leases sink `name` of `realm` to `owner` until now + lease_ms, if it is due
  // (next_attempt_ms <= now) and not leased by anyone else (lease_until_ms < now); nullopt
  // otherwise (or when there is no such sink). The sink as it stands after the claim.
  virtual Result<std::optional<EventSink>> ClaimEventSink(const std::string& realm,
                                                          const std::string& name,
                                                          const std::string& owner,
                                                          int64_t now_ms, int64_t lease_ms) = 0;
  // Records an attempt by `owner` and releases its lease; kCommitFailed when it no longer
  // holds the lease (or the sink was deleted).
  virtual Status FinishEventSink(const std::string& realm, const std::string& name,
                                 const std::string& owner, const SinkProgress& progress) = 0;
};

}  // namespace firn::store
