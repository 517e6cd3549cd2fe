#include "http/server.h"

#include <gtest/gtest.h>

#include <any>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "common/gzip.h"
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

// A JSON body well over the gzip threshold (http/content_coding.h).
std::string BigBody() {
  std::string body = "[";
  for (int i = 0; i < 500; ++i) body += (i ? "," : "") + std::to_string(i * 7919);
  return body + "]";
}

// Runs a Server on 127.0.0.1:0 in a background thread with a small test handler and, when
// given, an admit callback.
class ServerHarness {
 public:
  explicit ServerHarness(ServerOptions options = {},
                         std::function<Admission(Request&)> admit = nullptr) {
    options.host = "127.0.0.1";
    options.port = 0;
    ServerCallbacks cb;
    if (admit) {
      cb.admit = [this, admit = std::move(admit)](Request& req) {
        admissions.fetch_add(1);
        return admit(req);
      };
    }
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
  std::atomic<int> admissions{0};
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
    if (req.path == "/context") {
      const std::string* ctx = std::any_cast<std::string>(&req.context);
      return Response::Text(200, (ctx ? *ctx : "none") + "|" + req.body);
    }
    if (req.path == "/bad-status") return Response::Text(1200, "x");
    if (req.path == "/big") return Response::Json(200, BigBody());
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

TEST(ServerTest, ResponsesAreGzipEncodedForClientsThatAcceptIt) {
  ServerHarness h;
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto plain = c.RoundTrip(bhttp::verb::get, "/big");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->body(), BigBody());
  EXPECT_EQ((*plain)[bhttp::field::content_encoding], "");
  EXPECT_EQ((*plain)[bhttp::field::vary], "Accept-Encoding");

  auto gz = c.RoundTrip(bhttp::verb::get, "/big", {}, {{"Accept-Encoding", "gzip"}});
  ASSERT_TRUE(gz) << c.last_error().message();
  EXPECT_EQ(gz->result_int(), 200);
  EXPECT_EQ((*gz)[bhttp::field::content_encoding], "gzip");
  EXPECT_EQ((*gz)[bhttp::field::vary], "Accept-Encoding");
  EXPECT_EQ((*gz)[bhttp::field::content_length], std::to_string(gz->body().size()));
  EXPECT_LT(gz->body().size(), BigBody().size() / 2);
  Result<std::string> inflated = Gunzip(gz->body(), 1 << 20);
  ASSERT_TRUE(inflated) << inflated.error().message;
  EXPECT_EQ(*inflated, BigBody());

  // HEAD: no coding, the identity length; small bodies: as they are.
  auto head = c.RoundTrip(bhttp::verb::head, "/big", {}, {{"Accept-Encoding", "gzip"}});
  ASSERT_TRUE(head);
  EXPECT_EQ((*head)[bhttp::field::content_encoding], "");
  EXPECT_EQ((*head)[bhttp::field::content_length], std::to_string(BigBody().size()));
  auto small = c.RoundTrip(bhttp::verb::get, "/hello", {}, {{"Accept-Encoding", "gzip"}});
  ASSERT_TRUE(small) << c.last_error().message();
  EXPECT_EQ(small->body(), "hello");
  EXPECT_EQ((*small)[bhttp::field::content_encoding], "");
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

// ---- admission, body budget, connection cap ----------------------------------------------

// Refuses requests carrying "X-Deny", with a 401 the test recognises; limits /small bodies to
// 8 bytes; attaches "admitted:<path>" for the handler.
Admission TestAdmit(Request& req) {
  Admission a;
  if (req.HasHeader("X-Deny")) {
    a.refusal = Response::Json(401, R"({"error":"who"})");
    return a;
  }
  if (req.path == "/small") a.max_body_bytes = 8;
  EXPECT_TRUE(req.body.empty());  // nothing of the body is read before admission
  req.context = std::string("admitted:") + req.path;
  return a;
}

TEST(ServerTest, RefusedRequestIsAnsweredWithoutReadingItsBody) {
  ServerHarness h({}, TestAdmit);
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  // Only the header of a 15 MiB body is sent: the answer must come without waiting for it.
  ASSERT_TRUE(c.SendRaw("POST /echo HTTP/1.1\r\nHost: x\r\nX-Deny: 1\r\n"
                        "Content-Length: 15728640\r\n\r\n"));
  auto r = c.Read();
  ASSERT_TRUE(r) << c.last_error().message();
  EXPECT_EQ(r->result_int(), 401);
  EXPECT_EQ(r->body(), R"({"error":"who"})");
  EXPECT_FALSE(r->keep_alive());
  EXPECT_TRUE(c.WaitClosed(3s));
  EXPECT_EQ(h.calls.load(), 0);
  EXPECT_EQ(h.admissions.load(), 1);
}

TEST(ServerTest, RefusedRequestWithoutBodyKeepsTheConnection) {
  ServerHarness h({}, TestAdmit);
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::get, "/hello", "", {{"X-Deny", "1"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 401);
  EXPECT_TRUE(r->keep_alive());
  auto again = c.RoundTrip(bhttp::verb::get, "/hello");
  ASSERT_TRUE(again) << c.last_error().message();
  EXPECT_EQ(again->result_int(), 200);
  EXPECT_EQ(h.calls.load(), 1);
}

TEST(ServerTest, AdmissionContextReachesTheHandlerOncePerRequest) {
  ServerHarness h({}, TestAdmit);
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto get = c.RoundTrip(bhttp::verb::get, "/context");
  ASSERT_TRUE(get);
  EXPECT_EQ(get->body(), "admitted:/context|");
  auto post = c.RoundTrip(bhttp::verb::post, "/context", "payload");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->body(), "admitted:/context|payload");
  EXPECT_EQ(h.admissions.load(), 2);
  EXPECT_EQ(h.calls.load(), 2);
}

TEST(ServerTest, AdmissionBodyLimitRefusesBeforeReading) {
  ServerHarness h({}, TestAdmit);
  ASSERT_TRUE(h.listening());
  {
    TestClient c(h.port());
    ASSERT_TRUE(c.SendRaw("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"));
    auto r = c.Read();  // no body sent: the 413 comes from the header alone
    ASSERT_TRUE(r) << c.last_error().message();
    EXPECT_EQ(r->result_int(), 413);
    EXPECT_TRUE(c.WaitClosed(3s));
  }
  {
    TestClient c(h.port());  // chunked: refused once the body passes the limit
    ASSERT_TRUE(c.SendRaw("POST /small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                          "\r\n10\r\n0123456789abcdef\r\n0\r\n\r\n"));
    auto r = c.Read();
    ASSERT_TRUE(r) << c.last_error().message();
    EXPECT_EQ(r->result_int(), 413);
  }
  TestClient ok(h.port());
  auto r = ok.RoundTrip(bhttp::verb::post, "/small", "12345678");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 200);
  EXPECT_EQ(h.calls.load(), 1);
}

TEST(ServerTest, ExpectContinueIsNotSentToARefusedRequest) {
  ServerHarness h({}, TestAdmit);
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  ASSERT_TRUE(c.SendRaw("POST /echo HTTP/1.1\r\nHost: x\r\nX-Deny: 1\r\nContent-Length: 4\r\n"
                        "Expect: 100-continue\r\n\r\n"));
  auto r = c.Read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 401);
  EXPECT_EQ(h.calls.load(), 0);
}

TEST(ServerTest, ThrowingAdmissionIs500) {
  ServerHarness h({}, [](Request&) -> Admission { throw std::runtime_error("secret detail"); });
  ASSERT_TRUE(h.listening());
  TestClient c(h.port());
  auto r = c.RoundTrip(bhttp::verb::get, "/hello");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result_int(), 500);
  EXPECT_EQ(r->body(), R"({"error":"oops"})");
  EXPECT_EQ(h.calls.load(), 0);
}

TEST(ServerTest, InflightBodyBudgetRefusesWithoutReadingAndIsReleased) {
  ServerOptions o;
  o.max_inflight_body_bytes = 100;
  ServerHarness h(o);
  ASSERT_TRUE(h.listening());
  // A holds 80 bytes of the budget while its handler is blocked.
  TestClient a(h.port());
  ASSERT_TRUE(a.Send(bhttp::verb::post, "/block", std::string(80, 'a')));
  ASSERT_TRUE(h.gate.WaitEntered(1));
  // B announces 50 more: refused at once from its header, body never read.
  TestClient b(h.port());
  ASSERT_TRUE(b.SendRaw("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n"));
  auto refused = b.Read();
  ASSERT_TRUE(refused) << b.last_error().message();
  EXPECT_EQ(refused->result_int(), 503);
  EXPECT_EQ((*refused)[bhttp::field::retry_after], "1");
  EXPECT_EQ(refused->body(), R"({"error":"busy"})");
  EXPECT_TRUE(b.WaitClosed(3s));
  // A body that fits in what is left is served meanwhile.
  TestClient small(h.port());
  auto fits = small.RoundTrip(bhttp::verb::post, "/echo", std::string(20, 's'));
  ASSERT_TRUE(fits);
  EXPECT_EQ(fits->result_int(), 200);
  h.gate.Open();
  auto ra = a.Read();
  ASSERT_TRUE(ra);
  EXPECT_EQ(ra->result_int(), 200);
  // A's share came back: the same 50-byte body now fits.
  TestClient again(h.port());
  auto later = again.RoundTrip(bhttp::verb::post, "/echo", std::string(50, 'b'));
  ASSERT_TRUE(later);
  EXPECT_EQ(later->result_int(), 200);
  EXPECT_EQ(later->body(), std::string(50, 'b'));
  EXPECT_EQ(h.calls.load(), 3);  // a, small, again; never b
}

TEST(ServerTest, ConnectionOverTheCapIsRefusedWith503) {
  ServerOptions o;
  o.max_connections = 2;
  ServerHarness h(o);
  ASSERT_TRUE(h.listening());
  auto a = std::make_unique<TestClient>(h.port());
  TestClient b(h.port());
  ASSERT_TRUE(a->RoundTrip(bhttp::verb::get, "/hello"));  // both are sessions now
  ASSERT_TRUE(b.RoundTrip(bhttp::verb::get, "/hello"));
  TestClient c(h.port());
  ASSERT_TRUE(c.connected());
  auto r = c.Read();  // answered at accept, before it sends anything
  ASSERT_TRUE(r) << c.last_error().message();
  EXPECT_EQ(r->result_int(), 503);
  EXPECT_EQ((*r)[bhttp::field::retry_after], "1");
  EXPECT_EQ(r->body(), R"({"error":"busy"})");
  EXPECT_FALSE(r->keep_alive());
  EXPECT_TRUE(c.WaitClosed(3s));
  EXPECT_EQ(h.calls.load(), 2);
  // Closing one frees a place.
  a.reset();
  bool served = false;
  for (int i = 0; i < 100 && !served; ++i) {
    TestClient d(h.port());
    auto rd = d.RoundTrip(bhttp::verb::get, "/hello");
    served = rd && rd->result_int() == 200;
    if (!served) std::this_thread::sleep_for(20ms);
  }
  EXPECT_TRUE(served);
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
