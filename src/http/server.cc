#include "http/server.h"

#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "common/log.h"
#include "http/server_state.h"
#include "http/session.h"

namespace firn::http {

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {
// Back-off after an accept failure such as EMFILE, so the loop does not spin.
constexpr std::chrono::milliseconds kAcceptRetryDelay{50};
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
      boost::system::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      StartSession(state, std::move(socket));
      DoAccept();
    });
  }

  // On `control`: the first step of the drain.
  void BeginDrain() {
    boost::system::error_code ignored;
    acceptor.close(ignored);
    retry_timer.cancel();
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
  net::post(im.control, [&im] { im.DoAccept(); });

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
