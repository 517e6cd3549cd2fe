#include "http/server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "test_client.h"

namespace firn::http {
namespace {

using namespace std::chrono_literals;
using testing::TestClient;
namespace bhttp = boost::beast::http;

// Blocks handlers until opened; counts the ones that entered.
class Gate {
 public:
  void Enter() {
    std::unique_lock lock(mu_);
    ++entered_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return open_; });
  }
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  bool WaitEntered(int n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 5s, [&] { return entered_ >= n; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int entered_ = 0;
  bool open_ = false;
};

// Runs a Server on 127.0.0.1:0 in a background thread with a small test handler.
class ServerHarness {
 public:
  explicit ServerHarness(ServerOptions options = {}) {
    options.host = "127.0.0.1";
    options.port = 0;
    ServerCallbacks cb;
    cb.handler = [this](const Request& req) { return Handle(req); };
    cb.overloaded = [](const Request&) { return Response::Json(503, R"({"error":"busy"})"); };
    cb.too_large = [](const Request&) { return Response::Json(413, R"({"error":"big"})"); };
    cb.internal_error = [](const Request&) { return Response::Json(500, R"({"error":"oops"})"); };
    server_ = std::make_unique<Server>(options, std::move(cb));
    listening_ = server_->Listen();
    if (listening_) run_ = std::async(std::launch::async, [this] { server_->Run(); });
  }

  ~ServerHarness() {
    gate.Open();
    server_->Stop();
    if (run_.valid()) run_.wait();
  }

  bool listening() const { return listening_; }
  uint16_t port() const { return server_->BoundPort(); }
  Server& server() { return *server_; }
  // True if Run() returned within `timeout`.
  bool RunReturned(std::chrono::milliseconds timeout) {
    return run_.wait_for(timeout) == std::future_status::ready;
  }

  std::atomic<int> calls{0};
  Gate gate;
  std::mutex mu;
  Request last_request;

 private:
  Response Handle(const Request& req) {
    calls.fetch_add(1);
    {
      std::lock_guard lock(mu);
      last_request = req;
    }
    if (req.path == "/throw") throw std::runtime_error("boom");
    if (req.path == "/block") gate.Enter();
    if (req.path == "/echo") return Response::Text(200, req.body);
    if (req.path == "/bad-status") return Response::Text(1200, "x");
    if (req.path == "/bad-header") {
      Response r = Response::Text(200, "ok");
      r.headers.push_back({"X-Injected", "a\r\nSet-Cookie: evil=1"});
      r.headers.push_back({"X-Fine", "yes"});
      r.headers.push_back({"Content-Length", "999"});
      return r;
    }
    return Response::Text(200, "hello");
  }

  std::unique_ptr<Server> server_;
  bool listening_ = false;
  std::future<void> run_;
};

TEST(ServerTest, PortZeroBindsEphemeralPort) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  EXPECT_NE(h.port(), 0);
}

TEST(ServerTest, GetRoundTrip) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  ASSERT_TRUE(c.connected());
  auto r = c.RoundTrip(bhttp::verb::get, "/hello?x=1");
  ASSERT_TRUE(r) << c.last_error().message();
  EXPECT_EQ(r->result_int(), 200);
  EXPECT_EQ(r->body(), "hello");
  EXPECT_EQ((*r)[bhttp::field::content_type], "text/plain; charset=utf-8");
  EXPECT_FALSE((*r)["X-Request-Id"].empty());
  EXPECT_TRUE(r->keep_alive());
  std::lock_guard lock(h.mu);
  EXPECT_EQ(h.last_request.method, Method::kGet);
  EXPECT_EQ(h.last_request.path, "/hello");
  EXPECT_EQ(h.last_request.query, "x=1");
  EXPECT_EQ(h.last_request.remote_address, "127.0.0.1");
  EXPECT_EQ(h.last_request.request_id, (*r)["X-Request-Id"]);
}

TEST(ServerTest, PathReachesHandlerRaw) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::get, "/v1/ns/a%1Fb/tables/tab%2Fle+x");
  ASSERT_TRUE(r);
  std::lock_guard lock(h.mu);
  EXPECT_EQ(h.last_request.path, "/v1/ns/a%1Fb/tables/tab%2Fle+x");
}

TEST(ServerTest, KeepAliveServesTwoRequestsOnOneConnection) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r1 = c.RoundTrip(bhttp::verb::post, "/echo", "first");
  ASSERT_TRUE(r1);
  EXPECT_EQ(r1->body(), "first");
  auto r2 = c.RoundTrip(bhttp::verb::post, "/echo", "second");
  ASSERT_TRUE(r2) << c.last_error().message();
  EXPECT_EQ(r2->body(), "second");
  EXPECT_NE((*r1)["X-Request-Id"], (*r2)["X-Request-Id"]);
  EXPECT_EQ(h.calls.load(), 2);
}

TEST(ServerTest, OversizeBodyGets413AndHandlerNotCalled) {
  ServerOptions o;
  o.max_body_bytes = 16;
  ServerHarness h(o);
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::post, "/echo", std::string(100, 'x'));
  ASSERT_TRUE(r) << c.last_error().message();
  EXPECT_EQ(r->result_int(), 413);
  EXPECT_EQ(r->body(), R"({"error":"big"})");
  EXPECT_FALSE(r->keep_alive());
  EXPECT_TRUE(c.WaitClosed(3s));
  EXPECT_EQ(h.calls.load(), 0);
}

TEST(ServerTest, BodyAtLimitIsAccepted) {
  ServerOptions o;
  o.max_body_bytes = 16;
  ServerHarness h(o);
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::post, "/echo", std::string(16, 'x'));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 200);
  EXPECT_EQ(r->body(), std::string(16, 'x'));
}

TEST(ServerTest, ExpectContinueIsAnsweredBeforeTheBody) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  ASSERT_TRUE(c.SendRaw(
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n"));
  auto cont = c.ReadHeader();
  ASSERT_TRUE(cont);
  EXPECT_EQ(cont->result_int(), 100);
  ASSERT_TRUE(c.SendRaw("ping"));
  auto r = c.Read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 200);
  EXPECT_EQ(r->body(), "ping");
}

TEST(ServerTest, ExpectContinueWithOversizeBodyGets413WithoutContinue) {
  ServerOptions o;
  o.max_body_bytes = 16;
  ServerHarness h(o);
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  ASSERT_TRUE(c.SendRaw(
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n"));
  auto r = c.Read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 413);
  EXPECT_EQ(h.calls.load(), 0);
}

TEST(ServerTest, QueueFullGets503WithRetryAfter) {
  ServerOptions o;
  o.worker_threads = 1;
  o.max_queued = 1;
  ServerHarness h(o);
  ASSERT_TRUE(h.listening());
  TestClient a(h.port()), b(h.port()), c(h.port());
  ASSERT_TRUE(a.Send(bhttp::verb::get, "/block"));
  ASSERT_TRUE(h.gate.WaitEntered(1));  // the only worker is busy
  // One of b, c waits in the queue (1 of 1); the other finds it full and is answered at once.
  ASSERT_TRUE(b.Send(bhttp::verb::get, "/block"));
  ASSERT_TRUE(c.Send(bhttp::verb::get, "/block"));
  TestClient* rejected = nullptr;
  TestClient* queued = nullptr;
  for (int i = 0; i < 500 && rejected == nullptr; ++i) {
    if (b.Available() > 0) rejected = &b, queued = &c;
    else if (c.Available() > 0) rejected = &c, queued = &b;
    else std::this_thread::sleep_for(10ms);
  }
  ASSERT_NE(rejected, nullptr) << "no immediate 503";
  auto r = rejected->Read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 503);
  EXPECT_EQ((*r)[bhttp::field::retry_after], "1");
  EXPECT_EQ(r->body(), R"({"error":"busy"})");
  EXPECT_EQ(h.calls.load(), 1);  // the rejected request never reached the handler
  h.gate.Open();
  auto ra = a.Read();
  auto rq = queued->Read();
  ASSERT_TRUE(ra);
  ASSERT_TRUE(rq);
  EXPECT_EQ(ra->result_int(), 200);
  EXPECT_EQ(rq->result_int(), 200);
  EXPECT_EQ(h.calls.load(), 2);
  // The rejected connection stays usable.
  auto again = rejected->RoundTrip(bhttp::verb::get, "/hello");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->result_int(), 200);
}

TEST(ServerTest, HandlerExceptionGets500AndConnectionSurvives) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::get, "/throw");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 500);
  EXPECT_EQ(r->body(), R"({"error":"oops"})");
  EXPECT_EQ(r->body().find("boom"), std::string::npos);
  auto r2 = c.RoundTrip(bhttp::verb::get, "/hello");
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->result_int(), 200);
}

TEST(ServerTest, InvalidStatusFromHandlerBecomes500) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::get, "/bad-status");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 500);
}

TEST(ServerTest, UnsafeAndServerOwnedHeadersFromHandlerAreDropped) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::get, "/bad-header");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 200);
  EXPECT_EQ(r->body(), "ok");
  EXPECT_EQ((*r)["X-Fine"], "yes");
  EXPECT_EQ(r->count("X-Injected"), 0u);
  EXPECT_EQ(r->count(bhttp::field::set_cookie), 0u);
  EXPECT_EQ((*r)[bhttp::field::content_length], "2");
}

TEST(ServerTest, HeadResponseHasNoBody) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::head, "/hello");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 200);
  EXPECT_EQ((*r)[bhttp::field::content_length], "5");  // what GET would send
  // If a body had been sent, it would be read as the start of the next response.
  auto next = c.RoundTrip(bhttp::verb::get, "/echo");
  ASSERT_TRUE(next) << c.last_error().message();
  EXPECT_EQ(next->result_int(), 200);
  EXPECT_EQ(next->body(), "");
}

TEST(ServerTest, IncomingRequestIdIsHonouredWhenSafe) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::get, "/hello", "", {{"X-Request-Id", "abc-123.X_y"}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["X-Request-Id"], "abc-123.X_y");
  auto r2 = c.RoundTrip(bhttp::verb::get, "/hello", "", {{"X-Request-Id", "bad id<script>"}});
  ASSERT_TRUE(r2);
  EXPECT_NE((*r2)["X-Request-Id"], "bad id<script>");
  EXPECT_FALSE((*r2)["X-Request-Id"].empty());
  auto r3 = c.RoundTrip(bhttp::verb::get, "/hello", "", {{"X-Request-Id", std::string(65, 'a')}});
  ASSERT_TRUE(r3);
  EXPECT_NE((*r3)["X-Request-Id"], std::string(65, 'a'));
}

TEST(ServerTest, MalformedRequestGets400AndClose) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  ASSERT_TRUE(c.SendRaw("GET /x HTTP/1.1\r\nBad Header Line\r\n\r\n"));
  auto r = c.Read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 400);
  EXPECT_TRUE(c.WaitClosed(3s));
  EXPECT_EQ(h.calls.load(), 0);
}

TEST(ServerTest, OversizeHeaderGets431) {
  ServerOptions o;
  o.max_header_bytes = 1024;
  ServerHarness h(o);
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::get, "/hello", "", {{"X-Big", std::string(4096, 'a')}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 431);
  EXPECT_EQ(h.calls.load(), 0);
}

TEST(ServerTest, IdleTimeoutClosesSilentConnection) {
  ServerOptions o;
  o.idle_timeout = 200ms;
  ServerHarness h(o);
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  ASSERT_TRUE(c.connected());
  auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(c.WaitClosed(5s));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
}

TEST(ServerTest, ReadTimeoutClosesStalledRequest) {
  ServerOptions o;
  o.read_timeout = 200ms;
  o.idle_timeout = 60s;
  ServerHarness h(o);
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  ASSERT_TRUE(c.SendRaw("GET /hello HTTP/1.1\r\nHost: x\r\n"));  // never finishes the headers
  auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(c.WaitClosed(5s));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  EXPECT_EQ(h.calls.load(), 0);
}

TEST(ServerTest, StopDrainsInFlightRequestAndRunReturns) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient idle(h.port());
  ASSERT_TRUE(idle.RoundTrip(bhttp::verb::get, "/hello"));  // now an idle keep-alive connection
  TestClient busy(h.port());
  ASSERT_TRUE(busy.Send(bhttp::verb::get, "/block"));
  ASSERT_TRUE(h.gate.WaitEntered(1));

  h.server().Stop();
  // The idle connection is closed, the listener stops accepting, the in-flight request waits.
  EXPECT_TRUE(idle.WaitClosed(3s));
  bool refused = false;
  for (int i = 0; i < 100 && !refused; ++i) {
    TestClient probe(h.port());
    refused = !probe.connected();
    if (!refused) std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(refused);
  EXPECT_FALSE(h.RunReturned(100ms));

  h.gate.Open();
  auto r = busy.Read();
  ASSERT_TRUE(r) << busy.last_error().message();
  EXPECT_EQ(r->result_int(), 200);
  EXPECT_EQ(r->body(), "hello");
  EXPECT_FALSE(r->keep_alive());
  EXPECT_TRUE(h.RunReturned(5s));
}

TEST(ServerTest, DrainTimeoutClosesRemainingConnections) {
  ServerOptions o;
  o.drain_timeout = 200ms;
  ServerHarness h(o);
  ASSERT_TRUE(h.listening());
  TestClient busy(h.port());
  ASSERT_TRUE(busy.Send(bhttp::verb::get, "/block"));
  ASSERT_TRUE(h.gate.WaitEntered(1));
  h.server().Stop();
  // The handler is still blocked, yet after the drain timeout its connection is dropped.
  EXPECT_TRUE(busy.WaitClosed(3s));
  // Run() joins the workers, so it returns once the handler does.
  EXPECT_FALSE(h.RunReturned(50ms));
  h.gate.Open();
  EXPECT_TRUE(h.RunReturned(5s));
}

TEST(ServerTest, StopWithNoConnectionsReturnsRun) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  h.server().Stop();
  EXPECT_TRUE(h.RunReturned(5s));
}

TEST(ServerTest, ListenFailsWhenPortIsTaken) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  ServerOptions o;
  o.port = h.port();
  Server s(o, ServerCallbacks{});
  EXPECT_FALSE(s.Listen());
  EXPECT_EQ(s.BoundPort(), 0);
}

}  // namespace
}  // namespace firn::http
