#include "common/metrics.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace firn::metrics {

Histogram::Histogram(std::span<const double> bounds)
    : bound_count_(std::min(bounds.size(), kMaxBounds)) {
  std::copy_n(bounds.begin(), bound_count_, bounds_.begin());
}

void Histogram::Observe(std::chrono::microseconds elapsed) noexcept {
  const int64_t us = std::max<int64_t>(elapsed.count(), 0);
  const double seconds = static_cast<double>(us) / 1e6;
  size_t i = 0;
  while (i < bound_count_ && seconds > bounds_[i]) ++i;
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  sum_us_.fetch_add(static_cast<uint64_t>(us), std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
}

void Histogram::ObserveSeconds(double seconds) noexcept {
  if (!(seconds >= 0)) seconds = 0;  // NaN and negatives count as 0
  Observe(std::chrono::microseconds(static_cast<int64_t>(std::llround(seconds * 1e6))));
}

Histogram::Snapshot Histogram::Read() const {
  Snapshot s;
  s.bounds.assign(bounds_.begin(), bounds_.begin() + static_cast<ptrdiff_t>(bound_count_));
  uint64_t running = 0;
  for (size_t i = 0; i <= bound_count_; ++i) {
    running += buckets_[i].load(std::memory_order_relaxed);
    s.cumulative.push_back(running);
  }
  // Buckets are read one by one while others record: +Inf and _count agree by construction.
  s.count = running;
  s.sum_seconds = static_cast<double>(sum_us_.load(std::memory_order_relaxed)) / 1e6;
  return s;
}

namespace {

void AppendEscaped(std::string& out, std::string_view value) {
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
}

void AppendNumber(std::string& out, double v) {
  if (std::isinf(v)) {
    out += v > 0 ? "+Inf" : "-Inf";
    return;
  }
  if (std::isnan(v)) {
    out += "NaN";
    return;
  }
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, ec == std::errc() ? end : buf);
}

}  // namespace

void Exposition::Family(std::string_view name, std::string_view type, std::string_view help) {
  out_ += "# HELP ";
  out_ += name;
  out_ += ' ';
  for (char c : help) out_ += c == '\n' ? ' ' : c;
  out_ += "\n# TYPE ";
  out_ += name;
  out_ += ' ';
  out_ += type;
  out_ += '\n';
}

void Exposition::Head(std::string_view name, const Labels& labels, std::string_view extra_label,
                      std::string_view extra_value) {
  out_ += name;
  if (labels.empty() && extra_label.empty()) {
    out_ += ' ';
    return;
  }
  out_ += '{';
  bool first = true;
  auto add = [&](std::string_view k, std::string_view v) {
    if (!first) out_ += ',';
    first = false;
    out_ += k;
    out_ += "=\"";
    AppendEscaped(out_, v);
    out_ += '"';
  };
  for (const auto& [k, v] : labels) add(k, v);
  if (!extra_label.empty()) add(extra_label, extra_value);
  out_ += "} ";
}

void Exposition::Sample(std::string_view name, const Labels& labels, double value) {
  Head(name, labels);
  AppendNumber(out_, value);
  out_ += '\n';
}

void Exposition::Sample(std::string_view name, const Labels& labels, uint64_t value) {
  Head(name, labels);
  out_ += std::to_string(value);
  out_ += '\n';
}

void Exposition::Sample(std::string_view name, const Labels& labels, int64_t value) {
  Head(name, labels);
  out_ += std::to_string(value);
  out_ += '\n';
}

void Exposition::HistogramSamples(std::string_view name, const Labels& labels,
                                  const Histogram& h) {
  const Histogram::Snapshot s = h.Read();
  const std::string bucket = std::string(name) + "_bucket";
  for (size_t i = 0; i < s.cumulative.size(); ++i) {
    std::string le;
    AppendNumber(le, i < s.bounds.size() ? s.bounds[i] : INFINITY);
    Head(bucket, labels, "le", le);
    out_ += std::to_string(s.cumulative[i]);
    out_ += '\n';
  }
  Sample(std::string(name) + "_sum", labels, s.sum_seconds);
  Sample(std::string(name) + "_count", labels, s.count);
}

template <typename T>
void Family<T>::Render(Exposition& out) const {
  constexpr std::string_view type = std::is_same_v<T, Counter> ? "counter"
                                    : std::is_same_v<T, Gauge> ? "gauge"
                                                               : "histogram";
  out.Family(name_, type, help_);
  std::lock_guard lock(mu_);
  for (const auto& [values, instrument] : instruments_) {
    Labels labels;
    for (size_t i = 0; i < label_names_.size() && i < values.size(); ++i) {
      labels.emplace_back(label_names_[i], values[i]);
    }
    if constexpr (std::is_same_v<T, Histogram>) {
      out.HistogramSamples(name_, labels, *instrument);
    } else {
      out.Sample(name_, labels, instrument->Value());
    }
  }
}

template class Family<Counter>;
template class Family<Gauge>;
template class Family<Histogram>;

template <typename T>
Family<T>& Registry::FamilyOf(const std::string& name, const std::string& help,
                              std::vector<std::string> label_names) {
  std::lock_guard lock(mu_);
  for (const Entry& e : families_) {
    if (e.name == name) return *static_cast<Family<T>*>(e.owner.get());
  }
  auto family = std::make_shared<Family<T>>(name, help, std::move(label_names));
  Family<T>* raw = family.get();
  families_.push_back({name, [raw](Exposition& out) { raw->Render(out); }, std::move(family)});
  return *raw;
}

Family<Counter>& Registry::Counters(const std::string& name, const std::string& help,
                                    std::vector<std::string> label_names) {
  return FamilyOf<Counter>(name, help, std::move(label_names));
}

Family<Gauge>& Registry::Gauges(const std::string& name, const std::string& help,
                                std::vector<std::string> label_names) {
  return FamilyOf<Gauge>(name, help, std::move(label_names));
}

Family<Histogram>& Registry::Histograms(const std::string& name, const std::string& help,
                                        std::vector<std::string> label_names) {
  return FamilyOf<Histogram>(name, help, std::move(label_names));
}

Registry::CollectorHandle Registry::AddCollector(Collector collector) {
  std::lock_guard lock(mu_);
  const uint64_t id = next_id_++;
  collectors_.emplace(id, std::move(collector));
  return CollectorHandle(this, id);
}

void Registry::Remove(uint64_t id) {
  std::lock_guard lock(mu_);
  collectors_.erase(id);
}

Registry::CollectorHandle& Registry::CollectorHandle::operator=(CollectorHandle&& other) noexcept {
  if (this != &other) {
    if (registry_ != nullptr) registry_->Remove(id_);
    registry_ = other.registry_;
    id_ = other.id_;
    other.registry_ = nullptr;
  }
  return *this;
}

Registry::CollectorHandle::~CollectorHandle() {
  if (registry_ != nullptr) registry_->Remove(id_);
}

std::string Registry::Render() const {
  std::string out;
  Exposition exposition(out);
  std::lock_guard lock(mu_);
  for (const Entry& e : families_) e.render(exposition);
  for (const auto& [id, collector] : collectors_) collector(exposition);
  return out;
}

Registry& Default() {
  static Registry* registry = new Registry();  // never destroyed: used until exit
  return *registry;
}

}  // namespace firn::metrics
