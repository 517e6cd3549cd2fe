#include "catalog/task_runner.h"

#include <spdlog/spdlog.h>

#include <boost/json.hpp>

#include <algorithm>
#include <atomic>

#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"
#include "common/uuid.h"

namespace firn::catalog {

namespace {

using SteadyClock = std::chrono::steady_clock;

class Control final : public TaskControl {
 public:
  Control(store::TaskStore& store, const store::Task& task, const std::string& owner,
          const TaskRunnerOptions& options, SteadyClock::time_point deadline,
          const std::atomic<bool>& stopping)
      : store_(store),
        task_(task),
        owner_(owner),
        options_(options),
        deadline_(deadline),
        stopping_(stopping),
        renewed_(SteadyClock::now()),
        progress_(task.progress) {}

  bool KeepGoing() override {
    if (options_.step_delay.count() > 0) std::this_thread::sleep_for(options_.step_delay);
    if (lost_ || stopping_.load(std::memory_order_relaxed)) return false;
    const auto now = SteadyClock::now();
    if (now >= deadline_) return false;
    if (now - renewed_ >= options_.lease / 3) {
      if (auto st = store_.RenewTask(task_.id, owner_, NowMillis() + options_.lease.count(),
                                     progress_);
          !st) {
        spdlog::warn(R"("msg":"task lease lost","task":"{}","error":"{}")", task_.id,
                     log::Escape(st.error().message));
        if (st.error().kind == ErrorKind::kCommitFailed) lost_ = true;
        return false;
      }
      renewed_ = now;
    }
    return true;
  }
  void SetProgress(std::string json) override { progress_ = std::move(json); }

  bool lost() const { return lost_; }
  const std::string& progress() const { return progress_; }

 private:
  store::TaskStore& store_;
  const store::Task& task_;
  const std::string& owner_;
  const TaskRunnerOptions& options_;
  const SteadyClock::time_point deadline_;
  const std::atomic<bool>& stopping_;
  SteadyClock::time_point renewed_;
  std::string progress_;
  bool lost_ = false;
};

}  // namespace

boost::json::object TaskJson(const store::Task& t) {
  boost::json::object o;
  o["id"] = t.id;
  o["kind"] = t.kind;
  o["realm"] = t.realm;
  o["catalog"] = t.catalog;
  o["object"] = t.object;
  o["state"] = store::TaskStateName(t.state);
  o["attempts"] = t.attempts;
  o["notBefore"] = t.not_before_ms;
  o["leaseOwner"] = t.lease_owner;
  o["leaseUntil"] = t.lease_until_ms;
  boost::system::error_code ec;
  boost::json::value progress =
      t.progress.empty() ? boost::json::value(nullptr) : boost::json::parse(t.progress, ec);
  o["progress"] = ec ? boost::json::value(nullptr) : progress;
  o["lastError"] = t.last_error;
  o["created"] = t.created_ms;
  o["updated"] = t.updated_ms;
  return o;
}

TaskRunner::TaskRunner(store::TaskStore& store, std::string instance_id,
                       TaskRunnerOptions options)
    : store_(store), instance_id_(std::move(instance_id)), options_(options) {}

TaskRunner::~TaskRunner() { Stop(); }

void TaskRunner::Register(std::string kind, TaskHandler handler) {
  handlers_[std::move(kind)] = std::move(handler);
}

void TaskRunner::Start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable()) return;
  stopping_ = false;
  stop_flag_.store(false);
  thread_ = std::thread([this] { Loop(); });
}

void TaskRunner::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    stop_flag_.store(true);
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void TaskRunner::Kick() {
  {
    std::lock_guard lock(mu_);
    kicked_ = true;
  }
  wake_.notify_all();
}

Result<std::string> TaskRunner::Enqueue(store::Task task) {
  if (task.id.empty()) task.id = NewUuidV4();
  if (task.not_before_ms == 0) task.not_before_ms = NowMillis();
  FIRN_RETURN_IF_ERROR(store_.EnqueueTask(task));
  return task.id;
}

std::optional<store::TaskState> TaskRunner::RunNow(const std::string& id,
                                                   std::chrono::milliseconds budget) {
  auto claimed = store_.ClaimTask(instance_id_, NowMillis(), options_.lease.count(), id);
  if (!claimed || !*claimed) return std::nullopt;
  return Run(**claimed, SteadyClock::now() + budget);
}

store::TaskState TaskRunner::Run(const store::Task& task, SteadyClock::time_point deadline) {
  // A task claimed again and again without ever finishing (it takes its instance down, say)
  // is given up rather than claimed forever.
  if (task.attempts > options_.max_attempts) {
    const std::string why = "given up after " + std::to_string(task.attempts - 1) +
                            " attempts that never finished";
    spdlog::error(R"("msg":"task given up","task":"{}","kind":"{}","object":"{}")", task.id,
                  log::Escape(task.kind), log::Escape(task.object));
    (void)store_.FinishTask(task.id, instance_id_, store::TaskState::kFailed, 0, task.progress,
                            why);
    return store::TaskState::kFailed;
  }
  auto handler = handlers_.find(task.kind);
  Control control(store_, task, instance_id_, options_, deadline, stop_flag_);
  Result<TaskOutcome> outcome =
      handler == handlers_.end()
          ? Result<TaskOutcome>(Fail(ErrorKind::kInternal, "no handler for tasks of kind " +
                                                               task.kind))
          : handler->second(task, control);
  if (control.lost()) return store::TaskState::kRunning;  // another instance has it now
  store::TaskState state = store::TaskState::kDone;
  int64_t not_before = 0;
  std::string error;
  if (!outcome) {
    error = outcome.error().message;
    if (task.attempts >= options_.max_attempts) {
      state = store::TaskState::kFailed;
    } else {
      state = store::TaskState::kPending;
      const int64_t backoff = std::min<int64_t>(
          options_.max_backoff.count(),
          options_.base_backoff.count() << std::min(task.attempts - 1, 20));
      not_before = NowMillis() + backoff;
    }
    spdlog::warn(R"("msg":"task failed","task":"{}","kind":"{}","object":"{}","attempt":{},)"
                 R"("error":"{}","retry":{})",
                 task.id, log::Escape(task.kind), log::Escape(task.object), task.attempts,
                 log::Escape(error), state == store::TaskState::kPending);
  } else if (*outcome == TaskOutcome::kStopped) {
    state = store::TaskState::kPending;
    not_before = NowMillis();
  }
  if (auto st = store_.FinishTask(task.id, instance_id_, state, not_before, control.progress(),
                                  error);
      !st) {
    spdlog::warn(R"("msg":"task could not be finished","task":"{}","error":"{}")", task.id,
                 log::Escape(st.error().message));
    return store::TaskState::kRunning;
  }
  if (state == store::TaskState::kDone) {
    spdlog::info(R"("msg":"task done","task":"{}","kind":"{}","object":"{}","progress":{})",
                 task.id, log::Escape(task.kind), log::Escape(task.object),
                 control.progress().empty() ? "null" : control.progress());
  }
  return state;
}

void TaskRunner::AddPeriodic(std::chrono::milliseconds every, std::function<void()> work) {
  periodic_.push_back({every, std::move(work), {}});
}

void TaskRunner::Loop() {
  while (true) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
    }
    for (Periodic& p : periodic_) {
      const auto now = SteadyClock::now();
      if (now < p.next) continue;
      p.next = now + p.every;
      p.work();
    }
    auto claimed = store_.ClaimTask(instance_id_, NowMillis(), options_.lease.count());
    if (claimed && *claimed) {
      Run(**claimed, SteadyClock::time_point::max());
      continue;  // there may be more
    }
    if (!claimed) {
      spdlog::warn(R"("msg":"cannot claim tasks","error":"{}")",
                   log::Escape(claimed.error().message));
    }
    std::unique_lock lock(mu_);
    wake_.wait_for(lock, options_.poll, [&] { return stopping_ || kicked_; });
    kicked_ = false;
  }
}

}  // namespace firn::catalog
