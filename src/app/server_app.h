// RunServer: wires config → store, object store, catalog service, routes and HTTP server,
// serves until SIGTERM/SIGINT, then drains. Returns the process exit code.
#pragma once

#include "app/server_config.h"

namespace firn::app {

int RunServer(ServerConfig config);

}  // namespace firn::app
