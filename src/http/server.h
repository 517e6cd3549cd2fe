// Server: HTTP/1.1 (Boost.Beast) with keep-alive, a body limit, read/write timeouts, a bounded
// worker pool and graceful drain.
//
// Contract:
// - Requests are read by I/O threads and run on a bounded worker pool. When `max_queued`
//   requests are already waiting, the request is answered 503 with Retry-After at once
//   (`overloaded` builds the body).
// - A body over `max_body_bytes` is answered 413 (`too_large` builds the body; the handler is
//   not called) and the connection is closed. Headers over `max_header_bytes` → 431 and close.
//   Malformed HTTP closes the connection with 400.
// - Timeouts: `idle_timeout` bounds the wait for the first byte of a request on a keep-alive
//   connection, `read_timeout` the rest of the request (headers and body), `write_timeout`
//   the response. An expired timeout closes the connection without a response.
// - Every response carries X-Request-Id: the request's own if it is short and [A-Za-z0-9._-]
//   (see request_id.h), otherwise a fresh one; Request::request_id holds it. HEAD responses
//   never carry a body (Content-Length still says what GET would send).
// - Requests on one connection are answered in order (one at a time; keep-alive, pipelined
//   requests are read after the previous response is written). Expect: 100-continue is honoured.
// - `handler` must not throw; if it does, the server answers 500 via `internal_error` and logs
//   the exception's what() (the handler is responsible for keeping secrets out of it).
// - Stop() stops accepting, lets in-flight requests finish (up to `drain_timeout`), then
//   closes idle keep-alive connections and returns from Run(). New requests read during the
//   drain are still served, with Connection: close. After `drain_timeout` the remaining
//   connections are closed forcibly. Run() also joins the workers, so it waits for a handler
//   that never returns. A Server runs once: Run() after Stop() returns at once.
// - Empty callbacks get plain-text defaults. `on_complete` runs on an I/O thread after the
//   response is written (the Response's body is the one sent; empty for HEAD); keep it cheap.
// Thread-safety: Run() blocks the calling thread; Stop() may be called from any thread or
// from a signal-handling context set up by the caller (it only posts to the io_context).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "http/http_types.h"

namespace firn::http {

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8181;                 // 0 = pick a free port (see BoundPort)
  int io_threads = 2;
  int worker_threads = 16;
  int max_queued = 1024;                 // waiting requests beyond which we answer 503
  uint64_t max_body_bytes = 16 << 20;    // 16 MiB
  uint32_t max_header_bytes = 64 << 10;  // request line + headers
  std::chrono::milliseconds read_timeout{30000};
  std::chrono::milliseconds write_timeout{30000};
  std::chrono::milliseconds idle_timeout{60000};
  std::chrono::milliseconds drain_timeout{20000};
};

struct ServerCallbacks {
  std::function<Response(const Request&)> handler;
  std::function<Response(const Request&)> overloaded;     // 503 body
  std::function<Response(const Request&)> too_large;      // 413 body
  std::function<Response(const Request&)> internal_error; // 500 body
  // Called after each response is written (for access logs and metrics). Optional.
  std::function<void(const Request&, const Response&, std::chrono::microseconds)> on_complete;
};

class Server {
 public:
  Server(ServerOptions options, ServerCallbacks callbacks);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the listening socket (SO_REUSEADDR); returns false (and logs) if it cannot.
  bool Listen();
  // The bound port (useful with port 0); 0 before a successful Listen().
  uint16_t BoundPort() const;
  // Serves until Stop(); returns after the drain.
  void Run();
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace firn::http
