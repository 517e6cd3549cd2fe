// Process figures read at scrape time: firn_process_resident_bytes, firn_process_open_fds,
// firn_process_uptime_seconds, firn_build_info{version}. Linux /proc; 0 where unreadable.
#pragma once

#include "common/metrics.h"

namespace firn::app {

// The collector lives as long as the returned handle.
metrics::Registry::CollectorHandle AddProcessMetrics(metrics::Registry& registry);

}  // namespace firn::app
