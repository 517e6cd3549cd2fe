// TaskRunner: runs the durable tasks of store/task_store.h (docs/tasks.md). Each kind of task
// has one handler; the runner claims due tasks with a lease on a background thread, renews the
// lease while a handler works, and finishes the task: done, failed for good after
// `max_attempts` errors, or pending again with exponential backoff. A task whose instance died
// is claimed again once its lease runs out, by any instance, so handlers must be idempotent
// (a purge deletes what is still there).
//
// RunNow runs one task at once on the caller's thread (a drop with purge runs its purge inside
// the request) for a time budget; what is left goes back to the queue.
//
// Thread-safety: Register before Start; everything else is safe from any thread.
#pragma once

#include <boost/json/object.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/result.h"
#include "store/task_store.h"

namespace firn::catalog {

// A task as the management API (GET /api/management/v1/tasks) and `firn admin tasks` show it:
// id, kind, realm, catalog, object, state, attempts, notBefore, leaseOwner, leaseUntil,
// progress (the kind's JSON, or null), lastError, created, updated.
boost::json::object TaskJson(const store::Task& task);

// What a handler is given while it works.
class TaskControl {
 public:
  virtual ~TaskControl() = default;
  // False when the handler should stop where it is (its budget is spent, the runner is
  // stopping, or the lease was lost); renews the lease when due. Call it between steps.
  virtual bool KeepGoing() = 0;
  // The task's progress so far (the kind's JSON), saved with the next renewal and at the end.
  virtual void SetProgress(std::string json) = 0;
};

enum class TaskOutcome {
  kDone,     // finished
  kStopped,  // stopped early (KeepGoing() was false): pending again, to be continued
};
using TaskHandler = std::function<Result<TaskOutcome>(const store::Task&, TaskControl&)>;

struct TaskRunnerOptions {
  std::chrono::milliseconds poll{1000};
  std::chrono::milliseconds lease{30000};
  int max_attempts = 10;
  std::chrono::milliseconds base_backoff{1000};  // doubled per attempt, up to max_backoff
  std::chrono::milliseconds max_backoff{600000};
  // Test mode only (FIRN_TEST_TASK_STEP_DELAY_MS): a pause in every KeepGoing(), so that a
  // test can kill an instance in the middle of a task.
  std::chrono::milliseconds step_delay{0};
};

class TaskRunner {
 public:
  TaskRunner(store::TaskStore& store, std::string instance_id, TaskRunnerOptions options = {});
  ~TaskRunner();
  TaskRunner(const TaskRunner&) = delete;
  TaskRunner& operator=(const TaskRunner&) = delete;

  void Register(std::string kind, TaskHandler handler);
  // Work this instance does on its own, every `every` (first at start), on the runner's
  // thread between tasks: housekeeping whose every run is idempotent, so that it needs no
  // durable task of its own (the sweep of commit intents). Register before Start.
  void AddPeriodic(std::chrono::milliseconds every, std::function<void()> work);
  void Start();
  void Stop();  // waits for the task in hand to stop at its next step

  // Stores `task` as pending now (its id is made when empty); returns the id.
  Result<std::string> Enqueue(store::Task task);
  // Claims task `id` and runs it here for at most `budget`. The state it was left in, or
  // nullopt when another instance holds it (or it is already finished).
  std::optional<store::TaskState> RunNow(const std::string& id, std::chrono::milliseconds budget);
  // Wakes the background thread (a task was enqueued that it should pick up).
  void Kick();

  const std::string& instance_id() const { return instance_id_; }

 private:
  store::TaskState Run(const store::Task& task,
                       std::chrono::steady_clock::time_point deadline);
  void Loop();

  store::TaskStore& store_;
  const std::string instance_id_;
  const TaskRunnerOptions options_;
  std::map<std::string, TaskHandler> handlers_;
  struct Periodic {
    std::chrono::milliseconds every;
    std::function<void()> work;
    std::chrono::steady_clock::time_point next{};
  };
  std::vector<Periodic> periodic_;  // the runner's thread only, after Start
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;  // mu_
  std::atomic<bool> stop_flag_{false};  // stopping_, for handlers in progress
  bool kicked_ = false;    // mu_
  std::thread thread_;
};

}  // namespace firn::catalog
