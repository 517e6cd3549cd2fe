// RequestMetrics: every request counted by route pattern, method and status, with a latency
// histogram per route and method (firn_http_requests_total, firn_http_request_duration_seconds).
//
// The table is built once from the router's routes (one slot per route and method, plus
// "unmatched" for 404/405 and refusals before a route was found) and never changes, so
// Record is a hash look-up and a few relaxed atomic increments: no lock, no allocation.
// Statuses are counted in fixed slots (the codes Firn answers, and "other"); series that
// never happened are not exposed.
// Thread-safety: Record and the collector are safe from any thread. The router must have all
// its routes when this is constructed, and outlive it.
#pragma once

#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/metrics.h"
#include "http/http_types.h"
#include "http/router.h"

namespace firn::rest {

class RequestMetrics {
 public:
  RequestMetrics(const http::Router& router, metrics::Registry& registry);
  ~RequestMetrics();

  void Record(const http::Request& req, int status, std::chrono::microseconds elapsed);

  static constexpr std::array<int, 23> kStatuses = {200, 201, 202, 204, 301, 302, 304, 400,
                                                    401, 403, 404, 405, 406, 409, 413, 415,
                                                    419, 422, 429, 431, 500, 501, 503};

 private:
  struct MethodStats {
    metrics::Histogram latency;
    std::array<metrics::Counter, kStatuses.size() + 1> by_status;  // last: any other code
  };
  struct RouteStats {
    std::array<std::unique_ptr<MethodStats>, 8> methods;  // by http::Method
  };
  static size_t StatusSlot(int status);
  void Render(metrics::Exposition& out) const;

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, RouteStats, Hash, std::equal_to<>> routes_;
  RouteStats unmatched_;
  metrics::Registry::CollectorHandle collector_;
};

}  // namespace firn::rest
