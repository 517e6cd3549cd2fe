#include "rest/request_metrics.h"

#include <string>

namespace firn::rest {

namespace {
constexpr size_t kMethods = 8;
}  // namespace

RequestMetrics::RequestMetrics(const http::Router& router, metrics::Registry& registry) {
  for (const auto& route : router.Routes()) {
    routes_[route.pattern].methods[static_cast<size_t>(route.method)] =
        std::make_unique<MethodStats>();
  }
  for (size_t m = 0; m < kMethods; ++m) unmatched_.methods[m] = std::make_unique<MethodStats>();
  collector_ = registry.AddCollector([this](metrics::Exposition& out) { Render(out); });
}

RequestMetrics::~RequestMetrics() = default;

size_t RequestMetrics::StatusSlot(int status) {
  for (size_t i = 0; i < kStatuses.size(); ++i) {
    if (kStatuses[i] == status) return i;
  }
  return kStatuses.size();
}

void RequestMetrics::Record(const http::Request& req, int status,
                            std::chrono::microseconds elapsed) {
  const RouteStats* route = &unmatched_;
  if (!req.route.empty()) {
    if (auto it = routes_.find(req.route); it != routes_.end()) route = &it->second;
  }
  MethodStats* stats = route->methods[static_cast<size_t>(req.method)].get();
  if (stats == nullptr) stats = unmatched_.methods[static_cast<size_t>(req.method)].get();
  stats->latency.Observe(elapsed);
  stats->by_status[StatusSlot(status)].Inc();
}

void RequestMetrics::Render(metrics::Exposition& out) const {
  auto each = [&](auto&& fn) {
    for (const auto& [pattern, route] : routes_) fn(pattern, route);
    fn(std::string_view("unmatched"), unmatched_);
  };
  out.Family("firn_http_requests_total", "counter",
             "HTTP requests answered, by route pattern, method and status");
  each([&](std::string_view pattern, const RouteStats& route) {
    for (size_t m = 0; m < kMethods; ++m) {
      if (!route.methods[m]) continue;
      for (size_t i = 0; i <= kStatuses.size(); ++i) {
        const uint64_t n = route.methods[m]->by_status[i].Value();
        if (n == 0) continue;
        out.Sample("firn_http_requests_total",
                   {{"route", std::string(pattern)},
                    {"method", std::string(http::MethodName(static_cast<http::Method>(m)))},
                    {"status", i < kStatuses.size() ? std::to_string(kStatuses[i]) : "other"}},
                   n);
      }
    }
  });
  out.Family("firn_http_request_duration_seconds", "histogram",
             "Time from a request's header to the end of its response");
  each([&](std::string_view pattern, const RouteStats& route) {
    for (size_t m = 0; m < kMethods; ++m) {
      if (!route.methods[m] || route.methods[m]->latency.Read().count == 0) continue;
      out.HistogramSamples(
          "firn_http_request_duration_seconds",
          {{"route", std::string(pattern)},
           {"method", std::string(http::MethodName(static_cast<http::Method>(m)))}},
          route.methods[m]->latency);
    }
  });
}

}  // namespace firn::rest
