#include "http/server.h"

#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/http.hpp>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>


#include "common/log.h"
#include "http/heap_trim.h"
#include "http/server_state.h"
#include "http/session.h"

namespace firn::http {

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {
// Back-off after an accept failure such as EMFILE, so the loop does not spin.
constexpr std::chrono::milliseconds kAcceptRetryDelay{50};
// Free heap memory worth handing back (see HeapTrimmer).
constexpr uint64_t kTrimThreshold = 4u << 20;

// The whole HTTP/1.1 answer sent to a connection over the cap: `overloaded`'s response with
// Retry-After and Connection: close.
std::string RenderRefusal(const ServerCallbacks& callbacks) {
  Response r = Response::Text(503, "too many connections");
  if (callbacks.overloaded) {
    try {
      r = callbacks.overloaded(Request{});
    } catch (...) {
      // keep the plain-text default
    }
  }
  namespace bhttp = boost::beast::http;
  bhttp::response<bhttp::string_body> res{bhttp::status::service_unavailable, 11};
  for (const Header& h : r.headers) {
    if (!EqualsIgnoreCase(h.name, "Content-Length") && !EqualsIgnoreCase(h.name, "Connection") &&
        h.value.find_first_of("\r\n") == std::string::npos) {
      res.set(h.name, h.value);
    }
  }
  res.set(bhttp::field::retry_after, "1");
  res.keep_alive(false);
  res.body() = std::move(r.body);
  res.prepare_payload();
  std::ostringstream out;
  out << res;
  return out.str();
}

// Answers a connection over the cap and closes it, without a session or a buffer of its own:
// one non-blocking write of the pre-built answer, then whatever the client already sent is
// read into a stack buffer and dropped (closing with unread data would reset the connection
// before the client reads the answer).
void RefuseConnection(tcp::socket& socket, const std::string& answer) {
  boost::system::error_code ec;
  socket.non_blocking(true, ec);
  socket.write_some(net::buffer(answer), ec);
  socket.shutdown(tcp::socket::shutdown_send, ec);
  char sink[4096];
  for (int i = 0; i < 16; ++i) {
    socket.read_some(net::buffer(sink), ec);
    if (ec) break;
  }
  socket.close(ec);
}
}  // namespace

// Member order matters: `state` outlives `ioc` (sessions destroyed with the io_context still
// unregister from it), and everything on the io_context is declared after it.
struct Server::Impl {
  ServerState state;
  net::io_context ioc;
  net::strand<net::io_context::executor_type> control{net::make_strand(ioc)};
  tcp::acceptor acceptor{control};
  net::steady_timer drain_timer{control};
  net::steady_timer retry_timer{control};
  net::steady_timer trim_timer{control};
  HeapTrimmer trimmer{kTrimThreshold};
  std::string refusal;  // RenderRefusal(), built by Run()
  uint16_t bound_port = 0;
  bool listening = false;
  std::atomic<bool> ran{false};

  explicit Impl(int io_threads) : ioc(io_threads < 1 ? 1 : io_threads) {}

  void DoAccept() {
    acceptor.async_accept(net::make_strand(ioc), [this](boost::system::error_code ec,
                                                        tcp::socket socket) {
      if (ec == net::error::operation_aborted || state.stopping.load()) return;
      if (ec) {
        spdlog::warn(R"("msg":"accept failed","error":"{}")", log::Escape(ec.message()));
        retry_timer.expires_after(kAcceptRetryDelay);
        retry_timer.async_wait([this](boost::system::error_code ec) {
          if (!ec && !state.stopping.load()) DoAccept();
        });
        return;
      }
      size_t open;
      {
        std::lock_guard lock(state.mu);
        open = state.sessions.size();
      }
      if (open >= static_cast<size_t>(std::max(state.options.max_connections, 1))) {
        RefuseConnection(socket, refusal);
        return DoAccept();
      }
      boost::system::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      StartSession(state, std::move(socket));
      DoAccept();
    });
  }

  // On `control`, every trim_interval: hand freed memory back once a burst has passed.
  void ScheduleTrim() {
    trim_timer.expires_after(state.options.trim_interval);
    trim_timer.async_wait([this](boost::system::error_code ec) {
      if (ec || state.stopping.load()) return;
      trimmer.MaybeTrim();
      ScheduleTrim();
    });
  }

  // On `control`: the first step of the drain.
  void BeginDrain() {
    boost::system::error_code ignored;
    acceptor.close(ignored);
    retry_timer.cancel();
    trim_timer.cancel();
    CloseIdleSessions(state);
    bool empty;
    {
      std::lock_guard lock(state.mu);
      empty = state.sessions.empty();
    }
    if (empty) {
      ioc.stop();
      return;
    }
    drain_timer.expires_after(state.options.drain_timeout);
    drain_timer.async_wait([this](boost::system::error_code ec) {
      if (ec) return;
      size_t left;
      {
        std::lock_guard lock(state.mu);
        left = state.sessions.size();
      }
      spdlog::warn(R"("msg":"drain timeout; closing remaining connections","connections":{})",
                   left);
      ioc.stop();
    });
  }
};

Server::Server(ServerOptions options, ServerCallbacks callbacks)
    : impl_(std::make_unique<Impl>(options.io_threads)) {
  impl_->state.options = std::move(options);
  impl_->state.callbacks = std::move(callbacks);
  impl_->state.on_drained = [impl = impl_.get()] { impl->ioc.stop(); };
}

Server::~Server() {
  Stop();
  // Sessions still queued in the io_context die with it; they must not report drain progress.
  impl_->state.io_finished.store(true);
}

bool Server::Listen() {
  Impl& im = *impl_;
  const ServerOptions& o = im.state.options;
  try {
    tcp::resolver resolver(im.ioc);
    auto results = resolver.resolve(o.host, std::to_string(o.port),
                                    tcp::resolver::passive | tcp::resolver::numeric_service);
    if (results.empty()) throw boost::system::system_error(net::error::host_not_found);
    tcp::endpoint ep = results.begin()->endpoint();
    im.acceptor.open(ep.protocol());
    im.acceptor.set_option(net::socket_base::reuse_address(true));
    im.acceptor.bind(ep);
    im.acceptor.listen(net::socket_base::max_listen_connections);
    im.bound_port = im.acceptor.local_endpoint().port();
    im.listening = true;
    return true;
  } catch (const boost::system::system_error& e) {
    spdlog::error(R"("msg":"cannot listen","host":"{}","port":{},"error":"{}")",
                  log::Escape(o.host), o.port, log::Escape(e.code().message()));
    boost::system::error_code ignored;
    im.acceptor.close(ignored);
    return false;
  }
}

uint16_t Server::BoundPort() const { return impl_->bound_port; }

void Server::Run() {
  Impl& im = *impl_;
  if (!im.listening || im.ran.exchange(true) || im.state.stopping.load()) return;
  const ServerOptions& o = im.state.options;
  im.state.pool = std::make_unique<WorkerPool>(
      o.worker_threads, static_cast<size_t>(o.max_queued < 0 ? 0 : o.max_queued));
  // Keeps run() alive while requests sit in the worker pool with no I/O pending; the drain
  // ends the loop with ioc.stop().
  auto guard = net::make_work_guard(im.ioc);
  im.refusal = RenderRefusal(im.state.callbacks);
  net::post(im.control, [&im] {
    im.DoAccept();
    im.ScheduleTrim();
  });

  std::vector<std::thread> threads;
  const int n = o.io_threads < 1 ? 1 : o.io_threads;
  threads.reserve(n - 1);
  for (int i = 1; i < n; ++i) threads.emplace_back([&im] { im.ioc.run(); });
  im.ioc.run();
  for (std::thread& t : threads) t.join();

  // No I/O thread runs now. Anything left outlived the drain timeout: close its socket (a
  // handler still running on a worker never touches the socket), then wait for running
  // handlers and drop requests never started.
  im.state.io_finished.store(true);
  ForceCloseSessions(im.state);
  im.state.pool->Shutdown();
  // Let the aborted operations finish so the sessions are released now rather than when the
  // Server is destroyed.
  guard.reset();
  im.ioc.restart();
  im.ioc.poll();
}

void Server::Stop() {
  Impl& im = *impl_;
  if (im.state.stopping.exchange(true)) return;
  net::post(im.control, [&im] { im.BeginDrain(); });
}

}  // namespace firn::http
