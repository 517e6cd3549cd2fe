// State shared between the Server (listener, lifecycle) and its Sessions. Internal to http/.
//
// Thread-safety: options/callbacks are read-only while serving; `stopping` and the body budget
// are atomic; the session registry is guarded by `mu`. Ownership: owned by Server::Impl, which
// outlives every Session (sessions still queued in the io_context die with it, after this
// state's users stop).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_set>

#include "http/server.h"
#include "common/worker_pool.h"

namespace firn::http {

class Session;

struct ServerState {
  ServerOptions options;
  ServerCallbacks callbacks;
  std::unique_ptr<WorkerPool> pool;  // created by Run()

  std::atomic<bool> stopping{false};
  // Set once the I/O threads have returned; sessions no longer report drain progress.
  std::atomic<bool> io_finished{false};
  // Called (from any thread) when `stopping` and the last session is gone.
  std::function<void()> on_drained;

  std::mutex mu;
  std::unordered_set<Session*> sessions;

  // Body bytes reserved by requests being read or handled (see BodyReservation).
  std::atomic<uint64_t> inflight_body_bytes{0};
};

// A share of ServerState::inflight_body_bytes held by one request; released on destruction.
// Thread-safety: one owner at a time (the session); the counter itself is atomic.
class BodyReservation {
 public:
  BodyReservation() = default;
  ~BodyReservation() { Release(); }
  BodyReservation(const BodyReservation&) = delete;
  BodyReservation& operator=(const BodyReservation&) = delete;

  // Reserves `bytes` (releasing any earlier reservation first); false when they do not fit
  // under `state.options.max_inflight_body_bytes`.
  bool Acquire(ServerState& state, uint64_t bytes) {
    Release();
    const uint64_t limit = state.options.max_inflight_body_bytes;
    uint64_t used = state.inflight_body_bytes.load(std::memory_order_relaxed);
    do {
      if (bytes > limit || used > limit - bytes) return false;
    } while (!state.inflight_body_bytes.compare_exchange_weak(used, used + bytes,
                                                              std::memory_order_relaxed));
    state_ = &state;
    bytes_ = bytes;
    return true;
  }

  void Release() {
    if (state_ == nullptr) return;
    state_->inflight_body_bytes.fetch_sub(bytes_, std::memory_order_relaxed);
    state_ = nullptr;
    bytes_ = 0;
  }

 private:
  ServerState* state_ = nullptr;
  uint64_t bytes_ = 0;
};

}  // namespace firn::http
