// Server: HTTP/1.1 (Boost.Beast) with keep-alive, a body limit, read/write timeouts, a bounded
// worker pool and graceful drain.
//
// Contract:
// - Requests are read by I/O threads and run on a bounded worker pool. When `max_queued`
//   requests are already waiting, the request is answered 503 with Retry-After at once
//   (`overloaded` builds the body).
// - A body over `max_body_bytes` is answered 413 (`too_large` builds the body) and the
//   connection is closed. Malformed HTTP closes the connection with 400.
// - `handler` must not throw; if it does, the server answers 500 via `internal_error` and logs
//   the exception's what() (the handler is responsible for keeping secrets out of it).
// - Stop() stops accepting, lets in-flight requests finish (up to `drain_timeout`), then
//   closes idle keep-alive connections and returns from Run().
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

  // Binds the listening socket; returns false (and logs) if it cannot.
  bool Listen();
  uint16_t BoundPort() const;
  // Serves until Stop(); returns after the drain.
  void Run();
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace firn::http
