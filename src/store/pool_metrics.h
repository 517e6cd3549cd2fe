// Database connection figures for /metrics (docs/operations.md), one set per backend
// ("postgres", "sqlite"), shared by every pool of that backend in the process.
//
//   firn_db_connections{backend,state="in_use"|"open"}   gauges: lent out / open in all
//   firn_db_waits_total{backend}                         a request waited for a connection
//                                                        (PostgreSQL: the pool was exhausted;
//                                                        SQLite: a write queued behind another)
//   firn_db_wait_seconds{backend}                        how long those waits took
//   firn_db_errors_total{backend,kind="connect"|"timeout"|"discarded"}
//                                                        failed opens, acquisitions that gave up
//                                                        (a 503), broken connections thrown away
//
// Thread-safety: the instruments are atomics; PoolMetricsFor resolves them once per backend.
#pragma once

#include <string_view>

#include "common/metrics.h"

namespace firn::store {

struct PoolMetrics {
  metrics::Gauge& in_use;
  metrics::Gauge& open;
  metrics::Counter& waits;
  metrics::Histogram& wait_seconds;
  metrics::Counter& connect_errors;
  metrics::Counter& timeouts;
  metrics::Counter& discarded;
};

// backend: "postgres" or "sqlite".
const PoolMetrics& PoolMetricsFor(std::string_view backend);

}  // namespace firn::store
