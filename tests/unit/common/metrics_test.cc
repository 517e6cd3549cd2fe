// The Prometheus exposition: counters, gauges and histograms by labels, escaping, and
// collectors that leave with their handle.
#include "common/metrics.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace firn::metrics {
namespace {

TEST(MetricsTest, CountersAndGaugesRenderWithHelpTypeAndLabels) {
  Registry r;
  auto& requests = r.Counters("x_requests_total", "Requests", {"route", "status"});
  requests.With({"/v1/a", "200"}).Inc(3);
  requests.With({"/v1/a", "404"}).Inc();
  r.Gauges("x_bytes", "Bytes").With().Set(-7);
  const std::string text = r.Render();
  EXPECT_NE(text.find("# HELP x_requests_total Requests\n# TYPE x_requests_total counter\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find("x_requests_total{route=\"/v1/a\",status=\"200\"} 3\n"), std::string::npos);
  EXPECT_NE(text.find("x_requests_total{route=\"/v1/a\",status=\"404\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE x_bytes gauge\nx_bytes -7\n"), std::string::npos) << text;
}

TEST(MetricsTest, LabelValuesAreEscaped) {
  Registry r;
  r.Counters("x_total", "X", {"name"}).With({"a\"b\\c\nd"}).Inc();
  EXPECT_NE(r.Render().find(R"(x_total{name="a\"b\\c\nd"} 1)"), std::string::npos)
      << r.Render();
}

TEST(MetricsTest, HistogramBucketsAreCumulativeWithSumAndCount) {
  Registry r;
  const double bounds[] = {0.001, 0.01, 0.1};
  Histogram h(bounds);
  h.Observe(std::chrono::microseconds(500));     // <= 0.001
  h.Observe(std::chrono::microseconds(1000));    // == 0.001: counted in that bucket
  h.Observe(std::chrono::microseconds(20000));   // <= 0.1
  h.Observe(std::chrono::microseconds(2000000)); // +Inf
  std::string out;
  Exposition e(out);
  e.HistogramSamples("x_seconds", {{"route", "r"}}, h);
  EXPECT_NE(out.find("x_seconds_bucket{route=\"r\",le=\"0.001\"} 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{route=\"r\",le=\"0.01\"} 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{route=\"r\",le=\"0.1\"} 3\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{route=\"r\",le=\"+Inf\"} 4\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_sum{route=\"r\"} 2.0215\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_count{route=\"r\"} 4\n"), std::string::npos) << out;
}

TEST(MetricsTest, ACollectorLeavesWithItsHandle) {
  Registry r;
  {
    auto handle = r.AddCollector([](Exposition& e) {
      e.Family("x_up", "gauge", "Up");
      e.Sample("x_up", {}, uint64_t{1});
    });
    EXPECT_NE(r.Render().find("x_up 1\n"), std::string::npos);
    Registry::CollectorHandle moved = std::move(handle);
    EXPECT_NE(r.Render().find("x_up 1\n"), std::string::npos) << "the move removed it";
  }
  EXPECT_EQ(r.Render().find("x_up"), std::string::npos);
}

TEST(MetricsTest, ConcurrentIncrementsAreAllCounted) {
  Registry r;
  Counter& c = r.Counters("x_total", "X").With();
  Histogram& h = r.Histograms("x_seconds", "X").With();
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        c.Inc();
        h.Observe(std::chrono::microseconds(i));
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(c.Value(), 80000u);
  EXPECT_EQ(h.Read().count, 80000u);
}

TEST(MetricsTest, TheSameNameIsTheSameFamily) {
  Registry r;
  r.Counters("x_total", "X", {"a"}).With({"1"}).Inc();
  r.Counters("x_total", "ignored", {"ignored"}).With({"1"}).Inc();
  EXPECT_NE(r.Render().find("x_total{a=\"1\"} 2\n"), std::string::npos) << r.Render();
}

}  // namespace
}  // namespace firn::metrics
