#include "catalog/catalog_metrics.h"

namespace firn::catalog {

const CatalogMetrics& Metrics() {
  static const CatalogMetrics metrics = [] {
    metrics::Registry& r = metrics::Default();
    auto& commits = r.Counters("firn_commits_total", "Commits by outcome", {"outcome"});
    auto& cache = r.Counters("firn_metadata_cache_requests_total",
                             "Metadata cache look-ups by result", {"result"});
    return CatalogMetrics{
        .committed = commits.With({"committed"}),
        .conflict = commits.With({"conflict"}),
        .unknown = commits.With({"unknown"}),
        .failed = commits.With({"failed"}),
        .retries = r.Counters("firn_commit_retries_total",
                              "Server-side commit retries after a lost compare-and-swap")
                       .With(),
        .commit_seconds =
            r.Histograms("firn_commit_duration_seconds", "One commit, every attempt included")
                .With(),
        .load_seconds =
            r.Histograms("firn_load_duration_seconds", "One table load inside the service")
                .With(),
        .cache_hits = cache.With({"hit"}),
        .cache_misses = cache.With({"miss"}),
        .cache_bytes =
            r.Gauges("firn_metadata_cache_bytes", "Estimated bytes held by metadata caches")
                .With(),
        .foreign_writers = r.Counters("firn_foreign_writers_total",
                                      "Tables fenced because another catalog wrote to them")
                               .With(),
    };
  }();
  return metrics;
}

}  // namespace firn::catalog
