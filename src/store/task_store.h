// TaskStore: durable background work (purges, expiry, maintenance; catalog/tasks.h) kept in
// the catalog database, so it survives restarts and crashes and is shared by every instance.
//
// A task is claimed by one instance at a time with a lease: ClaimTask marks it running and
// owned until `now + lease`; the owner renews while it works and finishes it (done, failed,
// or back to pending with a not-before time for a retry). A task whose lease ran out (its
// instance died) is claimable again. Every change of a claimed task names its owner and fails
// kCommitFailed when the lease was lost meanwhile, so two instances never both finish it.
//
// Thread-safety: every method is safe to call concurrently. Errors: kServiceUnavailable (the
// database), kAlreadyExists (EnqueueTask with a used id), kCommitFailed (lease lost).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace firn::store {

enum class TaskState { kPending, kRunning, kDone, kFailed };
std::string_view TaskStateName(TaskState state);  // pending | running | done | failed
std::optional<TaskState> TaskStateFromName(std::string_view name);

struct Task {
  std::string id;       // a UUID
  std::string kind;     // e.g. "purge-table"
  std::string realm;
  std::string catalog;
  std::string object;   // what it works on, for people: "table db.t"
  std::string payload;  // the kind's own JSON
  TaskState state = TaskState::kPending;
  int attempts = 0;     // claims so far
  int64_t not_before_ms = 0;
  std::string lease_owner;  // '' unless running
  int64_t lease_until_ms = 0;
  std::string progress;     // the kind's JSON account so far ('' = none)
  std::string last_error;
  int64_t created_ms = 0;
  int64_t updated_ms = 0;
};

struct TaskFilter {
  std::optional<TaskState> state;
  std::string realm;  // '' = every realm
  std::string kind;   // '' = every kind
  int64_t limit = 100;
};

class TaskStore {
 public:
  virtual ~TaskStore() = default;
  // Stores a new pending task (id, kind, realm, catalog, object, payload, not_before_ms).
  virtual Status EnqueueTask(const Task& task) = 0;
  // Claims one task for `owner` until now + lease: a pending one that is due (oldest first),
  // or a running one whose lease ran out. With `only_id`, that task alone, due or not.
  // nullopt: nothing to claim.
  virtual Result<std::optional<Task>> ClaimTask(const std::string& owner, int64_t now_ms,
                                                int64_t lease_ms,
                                                const std::string& only_id = "") = 0;
  // Extends `owner`'s lease and records progress; kCommitFailed when the lease was lost.
  virtual Status RenewTask(const std::string& id, const std::string& owner,
                           int64_t lease_until_ms, const std::string& progress) = 0;
  // Ends `owner`'s claim: `state` done or failed, or pending again (a retry) from
  // `not_before_ms`. kCommitFailed when the lease was lost.
  virtual Status FinishTask(const std::string& id, const std::string& owner, TaskState state,
                            int64_t not_before_ms, const std::string& progress,
                            const std::string& error) = 0;
  // Newest first.
  virtual Result<std::vector<Task>> ListTasks(const TaskFilter& filter) = 0;
};

}  // namespace firn::store
