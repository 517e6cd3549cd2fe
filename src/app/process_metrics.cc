#include "app/process_metrics.h"

#include <chrono>
#include <filesystem>
#include <string>
#include <system_error>

#include "common/version.h"
#include "http/heap_trim.h"

namespace firn::app {

namespace {

int64_t OpenDescriptors() {
  std::error_code ec;
  int64_t n = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++n;
  }
  return ec ? 0 : n;
}

}  // namespace

metrics::Registry::CollectorHandle AddProcessMetrics(metrics::Registry& registry) {
  const auto started = std::chrono::steady_clock::now();
  return registry.AddCollector([started](metrics::Exposition& out) {
    out.Family("firn_process_resident_bytes", "gauge", "Resident set size");
    out.Sample("firn_process_resident_bytes", {}, http::ResidentBytes());
    out.Family("firn_process_open_fds", "gauge", "Open file descriptors");
    out.Sample("firn_process_open_fds", {}, OpenDescriptors());
    out.Family("firn_process_uptime_seconds", "gauge", "Seconds since this server started");
    out.Sample("firn_process_uptime_seconds", {},
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    out.Family("firn_build_info", "gauge", "Always 1; the build's version as a label");
    out.Sample("firn_build_info", {{"version", std::string(kFirnVersion)}}, uint64_t{1});
  });
}

}  // namespace firn::app
