// Metrics in the Prometheus text exposition format (version 0.0.4), for `GET /metrics`.
//
// Instruments: Counter (monotonic), Gauge (up and down) and Histogram (fixed upper bounds in
// seconds, cumulative on exposition). Each is a few relaxed atomics: recording takes no lock
// and allocates nothing, so hot paths record directly. Labelled families (Family<T>) find or
// create one instrument per label values under a mutex — resolve them once, outside the hot
// path, and keep the reference (instruments never move or die while the registry lives).
//
// Registry: families are created through it and live as long as it; `AddCollector` adds a
// callback that writes values read at scrape time (process figures, pool sizes, cache bytes)
// and returns a handle that removes it, so an object that ends before the registry (a server,
// a store) takes its collector with it. `Render` writes every family and collector, in
// registration order. Default() is the process's registry; tests may make their own.
//
// Thread-safety: everything is safe from any thread. Errors: none; names are the caller's
// constants (metric and label names are not checked), label values are escaped.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace firn::metrics {

class Counter {
 public:
  void Inc(uint64_t n = 1) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t Value() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

class Gauge {
 public:
  void Set(int64_t v) noexcept { value_.store(v, std::memory_order_relaxed); }
  void Add(int64_t n) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
  int64_t Value() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

// Request and operation latencies: 100 µs to 10 s.
inline constexpr std::array<double, 16> kLatencyBounds = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
    0.05,   0.1,     0.25,   0.5,   1.0,    2.5,   5.0,   10.0};

class Histogram {
 public:
  static constexpr size_t kMaxBounds = 24;
  // `bounds`: ascending upper bounds in seconds (at most kMaxBounds; more are dropped).
  explicit Histogram(std::span<const double> bounds = kLatencyBounds);

  void Observe(std::chrono::microseconds elapsed) noexcept;
  void ObserveSeconds(double seconds) noexcept;

  struct Snapshot {
    std::vector<double> bounds;
    std::vector<uint64_t> cumulative;  // per bound, then +Inf (== count)
    double sum_seconds = 0;
    uint64_t count = 0;
  };
  Snapshot Read() const;

 private:
  size_t bound_count_ = 0;
  std::array<double, kMaxBounds> bounds_{};
  std::array<std::atomic<uint64_t>, kMaxBounds + 1> buckets_{};
  std::atomic<uint64_t> sum_us_{0};
  std::atomic<uint64_t> count_{0};
};

using Labels = std::vector<std::pair<std::string, std::string>>;

// Writes families and samples; used by Render and by collectors.
class Exposition {
 public:
  explicit Exposition(std::string& out) : out_(out) {}
  // "# HELP" and "# TYPE" lines; type is counter, gauge or histogram.
  void Family(std::string_view name, std::string_view type, std::string_view help);
  void Sample(std::string_view name, const Labels& labels, double value);
  void Sample(std::string_view name, const Labels& labels, uint64_t value);
  void Sample(std::string_view name, const Labels& labels, int64_t value);
  // name_bucket{...,le=...}, name_sum, name_count.
  void HistogramSamples(std::string_view name, const Labels& labels, const Histogram& h);

 private:
  void Head(std::string_view name, const Labels& labels, std::string_view extra_label = {},
            std::string_view extra_value = {});
  std::string& out_;
};

// One metric name with a fixed list of label names; an instrument per label values.
template <typename T>
class Family {
 public:
  Family(std::string name, std::string help, std::vector<std::string> label_names)
      : name_(std::move(name)), help_(std::move(help)), label_names_(std::move(label_names)) {}

  // The instrument for these label values (in label-name order), created at first use.
  T& With(const std::vector<std::string>& values) {
    std::lock_guard lock(mu_);
    auto& slot = instruments_[values];
    if (!slot) slot = std::make_unique<T>();
    return *slot;
  }
  T& With() { return With(std::vector<std::string>{}); }

  void Render(Exposition& out) const;

 private:
  std::string name_;
  std::string help_;
  std::vector<std::string> label_names_;
  mutable std::mutex mu_;
  std::map<std::vector<std::string>, std::unique_ptr<T>> instruments_;
};

class Registry {
 public:
  using Collector = std::function<void(Exposition&)>;

  class CollectorHandle {
   public:
    CollectorHandle() = default;
    CollectorHandle(Registry* registry, uint64_t id) : registry_(registry), id_(id) {}
    CollectorHandle(CollectorHandle&& other) noexcept { *this = std::move(other); }
    CollectorHandle& operator=(CollectorHandle&& other) noexcept;
    ~CollectorHandle();

   private:
    Registry* registry_ = nullptr;
    uint64_t id_ = 0;
  };

  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // The family of that name, created at first call (later calls return the same one and
  // ignore help and labels).
  Family<Counter>& Counters(const std::string& name, const std::string& help,
                            std::vector<std::string> label_names = {});
  Family<Gauge>& Gauges(const std::string& name, const std::string& help,
                        std::vector<std::string> label_names = {});
  Family<Histogram>& Histograms(const std::string& name, const std::string& help,
                                std::vector<std::string> label_names = {});

  [[nodiscard]] CollectorHandle AddCollector(Collector collector);

  std::string Render() const;

 private:
  struct Entry {
    std::string name;
    std::function<void(Exposition&)> render;
    std::shared_ptr<void> owner;  // the family
  };
  template <typename T>
  Family<T>& FamilyOf(const std::string& name, const std::string& help,
                      std::vector<std::string> label_names);
  void Remove(uint64_t id);

  mutable std::mutex mu_;
  std::vector<Entry> families_;
  std::map<uint64_t, Collector> collectors_;  // by id: registration order
  uint64_t next_id_ = 1;
};

// The process's registry (every area records into it; `GET /metrics` renders it).
Registry& Default();

}  // namespace firn::metrics
