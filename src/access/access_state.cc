#include "access/access_state.h"

#include <spdlog/spdlog.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::access {
namespace {

// Acknowledging is a database write: once per second is enough for a 5 s liveness window.
constexpr int64_t kHeartbeatMs = 1000;

}  // namespace

AccessState::AccessState(std::shared_ptr<store::AccessStore> store, std::string instance_id,
                         std::shared_ptr<const auth::KeyEncryptionKeys> keks,
                         AccessStateOptions options)
    : store_(std::move(store)),
      instance_id_(std::move(instance_id)),
      keks_(std::move(keks)),
      options_(options) {}

AccessState::~AccessState() { Stop(); }

Status AccessState::Start() {
  FIRN_RETURN_IF_ERROR(Refresh());
  std::lock_guard lock(stop_mu_);
  if (poller_.joinable()) return Ok();
  stopping_ = false;
  poller_ = std::thread([this] { PollLoop(); });
  return Ok();
}

void AccessState::Stop() {
  {
    std::lock_guard lock(stop_mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (poller_.joinable() && poller_.get_id() != std::this_thread::get_id()) poller_.join();
}

Status AccessState::Refresh() {
  std::lock_guard lock(refresh_mu_);
  auto current = current_.load();
  FIRN_ASSIGN_OR_RETURN(int64_t version, store_->AccessVersion());
  if (!current || current->version != version) {
    FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, store_->LoadAccess());
    FIRN_ASSIGN_OR_RETURN(auto next,
                          BuildAccessSnapshot(rows, NowMillis() / 1000, *keks_, current.get()));
    current_.store(next);
    if (current) {
      spdlog::info(R"("msg":"access snapshot loaded","version":{},"previous":{})", next->version,
                   current->version);
    }
    current = std::move(next);
  }
  int64_t now = NowMillis();
  if (current->version != last_acked_version_ || now - last_ack_ms_ >= kHeartbeatMs) {
    auto s = store_->AckAccessVersion({instance_id_, current->version, now});
    if (!s) return s;
    last_acked_version_ = current->version;
    last_ack_ms_ = now;
  }
  return Ok();
}

Status AccessState::AwaitPropagation(int64_t version) {
  auto s = Refresh();
  if (!s) {
    return Fail(ErrorKind::kServiceUnavailable, "Access change saved but not yet loaded",
                s.error().message);
  }
  const auto deadline = std::chrono::steady_clock::now() + options_.propagation_timeout;
  while (true) {
    auto live = store_->LiveInstances(NowMillis() - options_.liveness_window.count());
    if (live) {
      std::string laggard;
      for (const auto& ack : *live) {
        if (ack.version < version) laggard = ack.instance_id;
      }
      if (laggard.empty()) return Ok();
      if (std::chrono::steady_clock::now() >= deadline) {
        spdlog::warn(R"("msg":"peer has not loaded the access change yet","instance":"{}","version":{})",
                     log::Escape(laggard), version);
        return Ok();
      }
    } else if (std::chrono::steady_clock::now() >= deadline) {
      spdlog::warn(R"("msg":"cannot list live instances","error":"{}")",
                   log::Escape(live.error().message));
      return Ok();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void AccessState::PollLoop() {
  bool failing = false;
  std::unique_lock lock(stop_mu_);
  while (!stop_cv_.wait_for(lock, options_.poll_interval, [this] { return stopping_; })) {
    lock.unlock();
    auto s = Refresh();
    if (!s && !failing) {
      spdlog::warn(R"("msg":"access refresh failed, serving the last snapshot","error":"{}","detail":"{}")",
                   log::Escape(s.error().message), log::Escape(s.error().detail));
    } else if (s && failing) {
      spdlog::info(R"("msg":"access refresh recovered")");
    }
    failing = !s;
    lock.lock();
  }
}

}  // namespace firn::access
