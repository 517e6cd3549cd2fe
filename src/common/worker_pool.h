// WorkerPool: a fixed set of threads draining a bounded FIFO of tasks. Used by the server to run
// request handlers off the I/O threads (the bound is what turns overload into a fast 503), and
// by the catalog for checks that must not hold up a request (the foreign-writer check of loads).
//
// Thread-safety: TrySubmit and Shutdown may be called from any thread. Tasks must not throw
// (the pool terminates the process if one does; the server wraps handlers in a catch).
// Ownership: the pool owns queued tasks; Shutdown destroys the ones that never ran.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace firn {

class WorkerPool {
 public:
  using Task = std::move_only_function<void()>;

  // Starts `threads` (at least 1) threads. At most `max_queued` tasks wait (not counting the
  // ones running).
  WorkerPool(int threads, size_t max_queued);
  ~WorkerPool();  // Shutdown()
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues `task`; false (task not run, not kept) if `max_queued` tasks are already waiting
  // or the pool is shut down.
  bool TrySubmit(Task task);

  // Refuses new tasks, drops queued ones, waits for running ones and joins. Idempotent.
  void Shutdown();

 private:
  void Loop();

  const size_t max_queued_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  bool shut_down_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace firn
