// Operations routes, answered without a token (RouteKind::kPublic, no body):
//   GET /health   200 {"status":"UP"} while the process serves (liveness);
//   GET /ready    200 {"status":"READY","checks":{name:"UP"}} when every readiness check
//                 passes, else 503 {"status":"NOT_READY","checks":{name:"DOWN: <kind>"}}
//                 (readiness: the database answers, the access snapshot is loaded, every
//                 storage root answers);
//   GET /metrics  the Prometheus text exposition of a metrics::Registry (only when given).
// Readiness runs its checks at most once per `cache_for` (one caller runs them; the others
// get the last result), so a load balancer polling every instance often costs the database
// and the store one probe per interval. Check results name the kind of error only — never a
// message, a URI or a secret — since anyone may read them.
// Thread-safety: safe from any thread.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "common/metrics.h"
#include "common/result.h"
#include "http/router.h"

namespace firn::rest {

struct ReadinessCheck {
  std::string name;             // e.g. "database", "access", "storage-1"
  std::function<Status()> run;  // Ok when ready
};

class Readiness {
 public:
  Readiness(std::vector<ReadinessCheck> checks, std::chrono::milliseconds cache_for);

  struct Report {
    bool ready = false;
    std::string body;  // JSON
  };
  Report Check();

 private:
  std::vector<ReadinessCheck> checks_;
  std::chrono::milliseconds cache_for_;
  std::mutex mu_;
  std::chrono::steady_clock::time_point checked_at_{};
  bool has_report_ = false;
  Report last_;
};

// Registers /health, /ready and (with a registry) /metrics. Both must outlive the router.
void AddOpsRoutes(http::Router& router, Readiness& readiness, metrics::Registry* registry);

}  // namespace firn::rest
