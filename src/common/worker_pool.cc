#include "common/worker_pool.h"

#include <utility>

namespace firn {

WorkerPool::WorkerPool(int threads, size_t max_queued) : max_queued_(max_queued) {
  if (threads < 1) threads = 1;
  threads_.reserve(threads);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Loop(); });
}

WorkerPool::~WorkerPool() { Shutdown(); }

bool WorkerPool::TrySubmit(Task task) {
  {
    std::lock_guard lock(mu_);
    if (shut_down_ || queue_.size() >= max_queued_) return false;
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
  return true;
}

void WorkerPool::Shutdown() {
  std::deque<Task> dropped;
  {
    std::lock_guard lock(mu_);
    shut_down_ = true;
    dropped.swap(queue_);
  }
  cv_.notify_all();
  // Destroy dropped tasks outside the lock: their captures may do real work when released.
  dropped.clear();
  for (std::thread& t : threads_) {
    if (t.joinable() && t.get_id() != std::this_thread::get_id()) t.join();
  }
}

void WorkerPool::Loop() {
  while (true) {
    Task task;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return shut_down_ || !queue_.empty(); });
      if (queue_.empty()) return;  // shut down and nothing left
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

}  // namespace firn
