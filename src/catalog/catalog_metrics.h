// The catalog's instruments in the process registry (metrics::Default()), resolved once:
//   firn_commits_total{outcome}        committed | conflict | unknown | failed, per commit
//                                      (table commit, multi-table transaction, view replace);
//                                      conflict = 409 CommitFailed (requirements or lost races)
//   firn_commit_retries_total          server-side retries after a lost compare-and-swap
//   firn_commit_duration_seconds       one commit, every attempt included
//   firn_load_duration_seconds         one loadTable inside the service (auth, pointer, file)
//   firn_metadata_cache_requests_total{result}  hit | miss
//   firn_metadata_cache_bytes          estimated bytes held (every cache of the process)
//   firn_foreign_writers_total         tables fenced because another catalog wrote to them
// Thread-safety: the instruments are atomics; Metrics() is safe from any thread.
#pragma once

#include "common/error.h"
#include "common/metrics.h"

namespace firn::catalog {

struct CatalogMetrics {
  metrics::Counter& committed;
  metrics::Counter& conflict;
  metrics::Counter& unknown;
  metrics::Counter& failed;
  metrics::Counter& retries;
  metrics::Histogram& commit_seconds;
  metrics::Histogram& load_seconds;
  metrics::Counter& cache_hits;
  metrics::Counter& cache_misses;
  metrics::Gauge& cache_bytes;
  metrics::Counter& foreign_writers;

  // Counts one finished commit by its outcome (`error` null when it committed).
  void CountCommit(const Error* error) const {
    if (error == nullptr) {
      committed.Inc();
    } else if (error->kind == ErrorKind::kCommitFailed) {
      conflict.Inc();
    } else if (error->kind == ErrorKind::kCommitStateUnknown) {
      unknown.Inc();
    } else {
      failed.Inc();
    }
  }
};

const CatalogMetrics& Metrics();

}  // namespace firn::catalog
