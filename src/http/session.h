// One HTTP/1.1 connection: read a request (limits, timeouts), hand it to the worker pool, write
// the response on the connection's strand, repeat while keep-alive. Internal to http/.
//
// Thread-safety: a session's I/O and state run on its strand; only the handler runs on a worker
// thread, while the session does nothing else. Errors never escape: a failing connection is
// closed. Ownership: a session keeps itself alive through shared_ptr captures in its pending
// operations and registers itself in ServerState::sessions.
#pragma once

#include <boost/asio/ip/tcp.hpp>

#include "http/server_state.h"

namespace firn::http {

// Starts serving `socket` (whose executor must be a strand).
void StartSession(ServerState& state, boost::asio::ip::tcp::socket socket);

// Asks every session to close if it is waiting for a request; busy ones close after their
// response. Call after setting state.stopping.
void CloseIdleSessions(ServerState& state);

// Closes every remaining session's socket at once. Only while no thread runs the io_context.
void ForceCloseSessions(ServerState& state);

}  // namespace firn::http
