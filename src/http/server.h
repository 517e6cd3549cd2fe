// Server: HTTP/1.1 (Boost.Beast) with keep-alive, a body limit, read/write timeouts, a bounded
// worker pool and graceful drain.
//
// Contract:
// - Nothing of a request's body is read before its header has been judged: once the header is
//   parsed, `admit` runs (on a worker) with the request's method, target, headers and
//   remote address. Its refusal is sent as the answer and the handler is not called; when a
//   body was announced it is never read and the connection is closed after the answer. An
//   admitted request may carry what `admit` established in Request::context to the handler.
//   A request without a body is admitted and handled in one worker task (one thread hop).
// - Body limits: a body over min(`max_body_bytes`, Admission::max_body_bytes) is answered 413
//   (`too_large` builds the body; the handler is not called) and the connection is closed;
//   a Content-Length over the limit is refused before any of the body is read. Bodies being
//   read or handled count against `max_inflight_body_bytes` (all connections together): the
//   announced Content-Length, or the whole limit for a chunked body, is reserved before the
//   body is read and released when the handler returns. A body that does not fit is answered
//   503 + Retry-After: 1 (`overloaded` builds it) without being read, and the connection is
//   closed. Headers over `max_header_bytes` → 431 and close. Malformed HTTP → 400 and close.
// - Connections: at most `max_connections` are open at once. One more is answered with a
//   pre-built 503 + Retry-After (`overloaded`, rendered once at Run()) and closed at accept,
//   before any per-connection state or buffer exists.
// - Requests run on a bounded worker pool. When `max_queued` requests are already waiting,
//   the request is answered 503 with Retry-After at once (and its connection closed if its
//   body has not been read).
// - Memory: an idle connection keeps no request or response body and at most one small read
//   buffer; every `trim_interval` the server hands heap memory glibc holds free back to the
//   system once it amounts to 4 MiB and the resident size grew by as much (heap_trim.h).
// - Timeouts: `idle_timeout` bounds the wait for the first byte of a request on a keep-alive
//   connection, `read_timeout` the rest of the request (headers and body), `write_timeout`
//   the response. An expired timeout closes the connection without a response.
// - Every response carries X-Request-Id: the request's own if it is short and [A-Za-z0-9._-]
//   (see request_id.h), otherwise a fresh one; Request::request_id holds it. HEAD responses
//   never carry a body (Content-Length still says what GET would send).
// - Requests on one connection are answered in order (one at a time; keep-alive, pipelined
//   requests are read after the previous response is written). Expect: 100-continue is
//   answered after admission, only when the body is going to be read.
// - `admit` and `handler` must not throw; if one does, the server answers 500 via
//   `internal_error` and logs the exception's what() (the callback is responsible for keeping
//   secrets out of it).
// - Stop() stops accepting, lets in-flight requests finish (up to `drain_timeout`), then
//   closes idle keep-alive connections and returns from Run(). New requests read during the
//   drain are still served, with Connection: close. After `drain_timeout` the remaining
//   connections are closed forcibly. Run() also joins the workers, so it waits for a handler
//   that never returns. A Server runs once: Run() after Stop() returns at once.
// - Empty callbacks get plain-text defaults. `on_complete` runs on an I/O thread after the
//   response is written (the Response's body is the one sent; empty for HEAD); keep it cheap.
//   Its elapsed time runs from the end of the request's header to the end of the response.
// Thread-safety: Run() blocks the calling thread; Stop() may be called from any thread or
// from a signal-handling context set up by the caller (it only posts to the io_context).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
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
  int max_connections = 1024;            // open connections; one more is refused (503)
  uint64_t max_inflight_body_bytes = 256u << 20;  // bodies being read or handled, in total
  std::chrono::milliseconds read_timeout{30000};
  std::chrono::milliseconds write_timeout{30000};
  std::chrono::milliseconds idle_timeout{60000};
  std::chrono::milliseconds drain_timeout{20000};
  std::chrono::milliseconds trim_interval{1000};  // how often to consider malloc_trim
};

// What `admit` decided from a request's header.
struct Admission {
  // Set: the answer; the handler is not called and an announced body is not read (the
  // connection is closed after the answer).
  std::optional<Response> refusal;
  // This request's body limit (ServerOptions::max_body_bytes still applies).
  uint64_t max_body_bytes = std::numeric_limits<uint64_t>::max();
};

struct ServerCallbacks {
  // Judges a request from its header, before any of its body is read (Request::body is
  // empty). Optional: without it every request is admitted with the server's body limit.
  std::function<Admission(Request&)> admit;
  std::function<Response(const Request&)> handler;
  std::function<Response(const Request&)> overloaded;     // 503 body (also: connection cap)
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
