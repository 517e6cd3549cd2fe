#include "store/pool_metrics.h"

#include <string>

namespace firn::store {
namespace {

PoolMetrics Make(const std::string& backend) {
  metrics::Registry& r = metrics::Default();
  auto& connections = r.Gauges("firn_db_connections",
                               "Database connections: lent out (in_use) and open", {"backend", "state"});
  auto& errors = r.Counters("firn_db_errors_total",
                            "Database connection failures: connect, timeout (no connection "
                            "freed up in time), discarded (broken, thrown away)",
                            {"backend", "kind"});
  return PoolMetrics{
      .in_use = connections.With({backend, "in_use"}),
      .open = connections.With({backend, "open"}),
      .waits = r.Counters("firn_db_waits_total",
                          "Requests that waited for a database connection (PostgreSQL) or "
                          "behind another write (SQLite)",
                          {"backend"})
                   .With({backend}),
      .wait_seconds = r.Histograms("firn_db_wait_seconds",
                                   "Time spent waiting for a connection or a writer turn",
                                   {"backend"})
                          .With({backend}),
      .connect_errors = errors.With({backend, "connect"}),
      .timeouts = errors.With({backend, "timeout"}),
      .discarded = errors.With({backend, "discarded"}),
  };
}

}  // namespace

const PoolMetrics& PoolMetricsFor(std::string_view backend) {
  static const PoolMetrics postgres = Make("postgres");
  static const PoolMetrics sqlite = Make("sqlite");
  return backend == "postgres" ? postgres : sqlite;
}

}  // namespace firn::store
