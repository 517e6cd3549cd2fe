#include "rest/ops_routes.h"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "rest/request_pipeline.h"

namespace firn::rest {

Readiness::Readiness(std::vector<ReadinessCheck> checks, std::chrono::milliseconds cache_for)
    : checks_(std::move(checks)), cache_for_(cache_for) {}

Readiness::Report Readiness::Check() {
  std::lock_guard lock(mu_);  // one prober at a time; waiters then read its fresh result
  const auto now = std::chrono::steady_clock::now();
  if (has_report_ && now - checked_at_ < cache_for_) return last_;
  boost::json::object checks;
  bool ready = true;
  for (const ReadinessCheck& c : checks_) {
    Status st = c.run();
    if (st) {
      checks[c.name] = "UP";
    } else {
      ready = false;
      checks[c.name] = "DOWN: " + std::string(ErrorKindName(st.error().kind));
    }
  }
  boost::json::object body;
  body["status"] = ready ? "READY" : "NOT_READY";
  body["checks"] = std::move(checks);
  last_ = Report{ready, boost::json::serialize(body)};
  has_report_ = true;
  checked_at_ = std::chrono::steady_clock::now();
  return last_;
}

void AddOpsRoutes(http::Router& router, Readiness& readiness, metrics::Registry* registry) {
  const auto kPublic = static_cast<uint32_t>(RouteKind::kPublic);
  router.Add(
      http::Method::kGet, "/health",
      [](const http::Request&, const http::PathParams&) {
        http::Response r = http::Response::Json(200, R"({"status":"UP"})");
        r.SetHeader("Cache-Control", "no-store");
        return r;
      },
      kPublic);
  router.Add(
      http::Method::kGet, "/ready",
      [&readiness](const http::Request&, const http::PathParams&) {
        Readiness::Report report = readiness.Check();
        http::Response r = http::Response::Json(report.ready ? 200 : 503, std::move(report.body));
        r.SetHeader("Cache-Control", "no-store");
        if (!report.ready) r.SetHeader("Retry-After", "1");
        return r;
      },
      kPublic);
  if (registry == nullptr) return;
  router.Add(
      http::Method::kGet, "/metrics",
      [registry](const http::Request&, const http::PathParams&) {
        http::Response r = http::Response::Text(200, registry->Render());
        r.SetHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        r.SetHeader("Cache-Control", "no-store");
        return r;
      },
      kPublic);
}

}  // namespace firn::rest
