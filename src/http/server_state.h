// State shared between the Server (listener, lifecycle) and its Sessions. Internal to http/.
//
// Thread-safety: options/callbacks are read-only while serving; `stopping` is atomic; the
// session registry is guarded by `mu`. Ownership: owned by Server::Impl, which outlives every
// Session (sessions still queued in the io_context die with it, after this state's users stop).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_set>

#include "http/server.h"
#include "http/worker_pool.h"

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
};

}  // namespace firn::http
