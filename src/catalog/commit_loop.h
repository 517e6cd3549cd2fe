// The one commit loop (docs/commit-protocol.md) behind table commits, multi-table transactions
// and view replaces: prepare an attempt (read the base, check requirements, apply, write the
// new metadata file), swap the pointer(s), and on a lost compare-and-swap discard the attempt's
// files and retry against the newer base, a bounded number of times.
//
// This is the server-side retry layer. Below it the store re-runs a database transaction that
// hit a race of its own (serialization failure, deadlock, a concurrent insert); above it the
// client retries a 409. A swap whose outcome is unknown (kCommitStateUnknown) is never retried
// and its files are never deleted.
//
// Thread-safety: stateless; the callbacks are called on the caller's thread.
// Errors: the first non-retryable error of prepare or swap; kCommitFailed "Commit failed: too
// many concurrent commits to <what>, retry" when every attempt lost its race.
#pragma once

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <string_view>
#include <thread>

#include "catalog/audit.h"
#include "catalog/catalog_metrics.h"
#include "common/function_ref.h"
#include "common/macros.h"
#include "common/result.h"

namespace firn::catalog {

struct CommitOptions {
  int max_attempts = 8;     // server-side retries after a lost compare-and-swap
  int base_backoff_ms = 2;  // doubled per attempt, with jitter
};

// Sleeps before attempt `attempt + 1`: a random wait up to base << attempt (capped).
inline void CommitBackoff(const CommitOptions& options, int attempt) {
  thread_local std::minstd_rand rng{std::random_device{}()};
  const int cap = options.base_backoff_ms << std::min(attempt, 6);
  std::this_thread::sleep_for(std::chrono::microseconds(
      std::uniform_int_distribution<int>(cap * 500, cap * 1000)(rng)));
}

// `changed(p)`: false when the attempt changes nothing (no swap; returned as is).
// `swap(p)`: the store write. `discard(p)`: deletes what the attempt wrote (after a refused swap).
template <typename Prepared>
Result<Prepared> RunCommitAttempts(const CommitOptions& options, std::string_view what,
                                   FunctionRef<Result<Prepared>()> prepare,
                                   FunctionRef<bool(const Prepared&)> changed,
                                   FunctionRef<Status(Prepared&)> swap,
                                   FunctionRef<void(const Prepared&)> discard) {
  for (int attempt = 0; attempt < options.max_attempts; ++attempt) {
    FIRN_ASSIGN_OR_RETURN(Prepared p, prepare());
    if (!changed(p)) return p;
    Status swapped = swap(p);
    if (swapped) return p;
    const Error& err = swapped.error();
    // The swap may have happened: never delete, never claim failure.
    if (err.kind == ErrorKind::kCommitStateUnknown) return Fail(err);
    discard(p);
    if (err.kind != ErrorKind::kCommitFailed) return Fail(err);
    Metrics().retries.Inc();
    CommitBackoff(options, attempt);  // lost the race: re-check against the newer base
  }
  return Fail(ErrorKind::kCommitFailed,
              "Commit failed: too many concurrent commits to " + std::string(what) + ", retry");
}

// The loop, counted and timed (catalog_metrics.h).
template <typename Prepared>
Result<Prepared> RunCommitLoop(const CommitOptions& options, std::string_view what,
                               FunctionRef<Result<Prepared>()> prepare,
                               FunctionRef<bool(const Prepared&)> changed,
                               FunctionRef<Status(Prepared&)> swap,
                               FunctionRef<void(const Prepared&)> discard) {
  const auto started = std::chrono::steady_clock::now();
  Result<Prepared> result =
      RunCommitAttempts<Prepared>(options, what, prepare, changed, swap, discard);
  Metrics().CountCommit(result ? nullptr : &result.error());
  Metrics().commit_seconds.Observe(std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - started));
  return result;
}

// A refused commit leaves no pointer move to carry its audit row: it is recorded on its own
// when the refusal is the commit's (lost race, failed requirement, name or location taken).
inline void RecordCommitRefusal(store::CatalogStore& store, const store::AuditEntry& entry,
                                const Error& error) {
  if (error.kind == ErrorKind::kCommitFailed || error.kind == ErrorKind::kAlreadyExists ||
      error.kind == ErrorKind::kLocationConflict) {
    RecordRefusal(store, entry, error);
  }
}

}  // namespace firn::catalog
