// Readiness (cached checks, what a refusal names), the ops routes and request metrics by
// route pattern.
#include "rest/ops_routes.h"

#include <gtest/gtest.h>

#include <atomic>

#include "rest/error_model.h"
#include "rest/request_metrics.h"
#include "rest/routes.h"

namespace firn::rest {
namespace {

http::Response Get(const http::Router& router, std::string path) {
  http::Request req;
  req.method = http::Method::kGet;
  req.path = std::move(path);
  req.target = req.path;
  return router.Dispatch(req);
}

TEST(OpsRoutesTest, ReadyNamesTheFailingCheckByKindOnlyAndIsCached) {
  std::atomic<int> runs{0};
  bool db_up = true;
  Readiness readiness(
      {{"database",
        [&]() -> Status {
          ++runs;
          if (db_up) return Ok();
          return Fail(ErrorKind::kServiceUnavailable, "password=hunter2 host=db.internal");
        }},
       {"access", []() -> Status { return Ok(); }}},
      std::chrono::hours(1));
  http::Router router(ErrorFallbacks());
  AddOpsRoutes(router, readiness, nullptr);
  auto up = Get(router, "/ready");
  EXPECT_EQ(up.status, 200);
  EXPECT_EQ(up.body, R"({"status":"READY","checks":{"database":"UP","access":"UP"}})");
  db_up = false;
  EXPECT_EQ(Get(router, "/ready").status, 200) << "within the interval the last result holds";
  EXPECT_EQ(runs.load(), 1);

  Readiness fresh({{"database", [&]() -> Status {
                      return Fail(ErrorKind::kServiceUnavailable, "password=hunter2");
                    }}},
                  std::chrono::milliseconds(0));
  http::Router router2(ErrorFallbacks());
  AddOpsRoutes(router2, fresh, nullptr);
  auto down = Get(router2, "/ready");
  EXPECT_EQ(down.status, 503);
  EXPECT_EQ(down.GetHeader("Retry-After"), "1");
  EXPECT_NE(down.body.find("\"NOT_READY\""), std::string::npos) << down.body;
  EXPECT_NE(down.body.find("DOWN: "), std::string::npos) << down.body;
  EXPECT_EQ(down.body.find("hunter2"), std::string::npos) << "a check's message leaked";
  EXPECT_EQ(Get(router2, "/health").status, 200);
  EXPECT_EQ(Get(router2, "/metrics").status, 404) << "no registry, no /metrics";
}

TEST(OpsRoutesTest, RequestsAreCountedByPatternNotByPath) {
  metrics::Registry registry;
  http::Router router(ErrorFallbacks());
  auto ok = [](const http::Request&, const http::PathParams&) { return http::Response::Empty(204); };
  router.Add(http::Method::kGet, "/v1/{prefix}/namespaces/{namespace}", ok);
  Readiness readiness({}, std::chrono::seconds(1));
  AddOpsRoutes(router, readiness, &registry);
  RequestMetrics requests(router, registry);
  http::Request req;
  req.method = http::Method::kGet;
  for (std::string path : {"/v1/wh/namespaces/secret_one", "/v1/wh/namespaces/secret_two"}) {
    req.path = path;
    req.route = router.Find(req).pattern;
    requests.Record(req, 204, std::chrono::microseconds(300));
  }
  req.path = "/nowhere";
  req.route = router.Find(req).pattern;
  requests.Record(req, 404, std::chrono::microseconds(50));
  req.route = {};
  requests.Record(req, 299, std::chrono::microseconds(50));  // a code outside the slots

  auto text = Get(router, "/metrics");
  ASSERT_EQ(text.status, 200);
  EXPECT_EQ(text.GetHeader("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  const std::string& b = text.body;
  EXPECT_NE(b.find("firn_http_requests_total{route=\"/v1/{prefix}/namespaces/{namespace}\","
                   "method=\"GET\",status=\"204\"} 2\n"),
            std::string::npos) << b;
  EXPECT_NE(b.find("firn_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"404\"} 1"),
            std::string::npos) << b;
  EXPECT_NE(b.find("status=\"other\"} 1"), std::string::npos) << b;
  EXPECT_NE(b.find("firn_http_request_duration_seconds_count{route=\"/v1/{prefix}/namespaces/"
                   "{namespace}\",method=\"GET\"} 2"),
            std::string::npos) << b;
  EXPECT_EQ(b.find("secret_one"), std::string::npos) << "a path reached a label";
  EXPECT_EQ(b.find("route=\"/health\""), std::string::npos) << "a series that never happened";
}

}  // namespace
}  // namespace firn::rest
