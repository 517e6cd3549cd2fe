#include "http/session.h"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "common/log.h"
#include "http/content_coding.h"
#include "http/request_id.h"

namespace firn::http {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kIdleReadChunk = 2048;
constexpr std::chrono::seconds kLingerTimeout{1};
// Most a closing connection reads and drops while it lingers (a refused upload keeps coming).
constexpr size_t kLingerMaxBytes = 1u << 20;
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

Method ToMethod(bhttp::verb v) {
  switch (v) {
    case bhttp::verb::get: return Method::kGet;
    case bhttp::verb::head: return Method::kHead;
    case bhttp::verb::post: return Method::kPost;
    case bhttp::verb::put: return Method::kPut;
    case bhttp::verb::delete_: return Method::kDelete;
    case bhttp::verb::patch: return Method::kPatch;
    case bhttp::verb::options: return Method::kOptions;
    default: return Method::kOther;
  }
}

// Headers the server writes itself; a handler's values for them are ignored.
bool IsServerOwnedHeader(std::string_view name) {
  return EqualsIgnoreCase(name, "Content-Length") || EqualsIgnoreCase(name, "Connection") ||
         EqualsIgnoreCase(name, "Transfer-Encoding") || EqualsIgnoreCase(name, "X-Request-Id");
}

// Beast does not validate outgoing fields; refuse anything that could split the header.
bool IsSafeHeader(const Header& h) {
  if (h.name.empty()) return false;
  for (char c : h.name) {
    if (c == '\r' || c == '\n' || c == ':' || c == ' ' || c == '\0') return false;
  }
  return h.value.find_first_of(std::string_view("\r\n\0", 3)) == std::string::npos;
}

// Runs `fn`; an exception is logged as "<what> threw" (with the request id) and gives nullopt.
template <typename Fn>
auto Guarded(std::string_view what, const std::string& request_id, Fn&& fn)
    -> std::optional<decltype(fn())> {
  try {
    return fn();
  } catch (const std::exception& e) {
    spdlog::error(R"("msg":"{} threw","request_id":"{}","what":"{}")", what, request_id,
                  log::Escape(e.what()));
  } catch (...) {
    spdlog::error(R"("msg":"{} threw a non-exception","request_id":"{}")", what, request_id);
  }
  return std::nullopt;
}

// Runs a response-building callback; never throws. `fallback_status` is used when the callback
// is missing or throws.
Response CallSafely(const std::function<Response(const Request&)>& fn, const Request& req,
                    int fallback_status, std::string_view fallback_text) {
  if (fn) {
    if (auto r = Guarded("response callback", req.request_id, [&] { return fn(req); })) {
      return std::move(*r);
    }
  }
  return Response::Text(fallback_status, std::string(fallback_text));
}

bool IsQuietCloseError(const beast::error_code& ec) {
  return ec == bhttp::error::end_of_stream || ec == bhttp::error::partial_message ||
         ec == beast::error::timeout || ec == net::error::operation_aborted ||
         ec == net::error::eof || ec == net::error::connection_reset ||
         ec == net::error::broken_pipe || ec == net::error::bad_descriptor;
}

}  // namespace

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(ServerState& state, tcp::socket socket)
      : state_(state), strand_(socket.get_executor()), stream_(std::move(socket)) {
    beast::error_code ec;
    auto ep = stream_.socket().remote_endpoint(ec);
    if (!ec) remote_ = ep.address().to_string();
    std::lock_guard lock(state_.mu);
    state_.sessions.insert(this);
  }

  ~Session() {
    body_reservation_.Release();
    bool drained = false;
    {
      std::lock_guard lock(state_.mu);
      state_.sessions.erase(this);
      drained = state_.sessions.empty() && state_.stopping.load() && !state_.io_finished.load();
    }
    if (drained && state_.on_drained) state_.on_drained();
  }

  void Start() {
    net::dispatch(strand_, [self = shared_from_this()] { self->ReadNext(); });
  }

  const net::any_io_executor& strand() const { return strand_; }

  // On the strand: close now if waiting for a request that has not started.
  void OnServerStop() {
    if (phase_ == Phase::kIdle) stream_.cancel();
  }

  // Only while no thread runs the io_context.
  void ForceClose() {
    beast::error_code ec;
    stream_.socket().close(ec);
  }

 private:
  enum class Phase { kIdle, kReading, kHandling, kWriting, kClosed };

  // ---- reading ----------------------------------------------------------------------------

  void ReadNext() {
    if (state_.stopping.load()) return Close(false);
    parser_.emplace();
    parser_->header_limit(state_.options.max_header_bytes);
    // The body limit is decided once the request is admitted (OnAdmitted); until then no body
    // byte is parsed.
    parser_->body_limit(boost::none);
    if (buffer_.size() > 0) return ReadHeader();  // a pipelined request is already here
    // An idle connection keeps no more than one small read buffer.
    if (buffer_.capacity() > kIdleReadChunk) buffer_.shrink_to_fit();
    // Wait for the first byte under the idle timeout, then read the request under the read
    // timeout, so a slow sender cannot hold a connection for the (long) idle period.
    phase_ = Phase::kIdle;
    stream_.expires_after(state_.options.idle_timeout);
    stream_.async_read_some(buffer_.prepare(kIdleReadChunk),
                            [self = shared_from_this()](beast::error_code ec, size_t n) {
                              self->buffer_.commit(n);
                              if (ec) return self->Close(false);
                              self->ReadHeader();
                            });
  }

  void ReadHeader() {
    phase_ = Phase::kReading;
    stream_.expires_after(state_.options.read_timeout);
    bhttp::async_read_header(stream_, buffer_, *parser_,
                             [self = shared_from_this()](beast::error_code ec, size_t) {
                               self->OnHeader(ec);
                             });
  }

  // The header is in: admit the request on a worker before any of its body is read. Without
  // a body, admission and handling are one worker task.
  void OnHeader(beast::error_code ec) {
    if (ec) return OnReadError(ec);
    BuildRequest();
    started_ = Clock::now();
    phase_ = Phase::kHandling;
    const bool has_body = !parser_->is_done();
    auto self = shared_from_this();
    bool queued = state_.pool && state_.pool->TrySubmit([self, has_body] {
      if (has_body) return self->RunAdmission();
      self->RunAdmissionAndHandler();
    });
    if (!queued) Respond(Overloaded(), /*close=*/has_body);
  }

  // On a worker thread; the session touches nothing else until the result is posted back.
  void RunAdmission() {
    Admission a = Admit();
    net::post(strand_, [self = shared_from_this(), a = std::move(a)]() mutable {
      self->OnAdmitted(std::move(a));
    });
  }

  // On a worker thread: a request without a body.
  void RunAdmissionAndHandler() {
    Admission a = Admit();
    Response r = a.refusal ? std::move(*a.refusal) : CallHandler();
    net::post(strand_, [self = shared_from_this(), r = std::move(r)]() mutable {
      self->Respond(std::move(r), /*close=*/false);
    });
  }

  // On the strand: reserve the body's share of the budget, then read it.
  void OnAdmitted(Admission a) {
    if (a.refusal) return Respond(std::move(*a.refusal), /*close=*/true);
    const uint64_t limit = std::min(a.max_body_bytes, state_.options.max_body_bytes);
    const boost::optional<uint64_t> length = parser_->content_length();
    if (length && *length > limit) return Respond(TooLarge(), /*close=*/true);
    // A chunked body's size is unknown until its end: it reserves the whole limit.
    if (!body_reservation_.Acquire(state_, length ? *length : limit)) {
      return Respond(Overloaded(), /*close=*/true);
    }
    parser_->body_limit(limit);
    phase_ = Phase::kReading;
    auto& msg = parser_->get();
    if (msg.version() >= 11 && EqualsIgnoreCase(msg[bhttp::field::expect], "100-continue")) {
      stream_.expires_after(state_.options.write_timeout);
      net::async_write(stream_, net::buffer(kContinue.data(), kContinue.size()),
                       [self = shared_from_this()](beast::error_code ec, size_t) {
                         if (ec) return self->Close(false);
                         self->stream_.expires_after(self->state_.options.read_timeout);
                         self->ReadBody();
                       });
      return;
    }
    ReadBody();  // the read deadline set for the header also covers the body
  }

  void ReadBody() {
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = shared_from_this()](beast::error_code ec, size_t) {
                        if (ec) return self->OnReadError(ec);
                        self->OnBody();
                      });
  }

  void OnReadError(beast::error_code ec) {
    // Only an admitted body has a limit (a chunked one found too long): req_ is built.
    if (ec == bhttp::error::body_limit) return Respond(TooLarge(), /*close=*/true);
    if (IsQuietCloseError(ec)) return Close(false);
    BuildRequest();
    started_ = Clock::now();
    if (ec == bhttp::error::header_limit) {
      return Respond(Response::Text(431, "request header fields too large"), /*close=*/true);
    }
    return Respond(Response::Text(400, "malformed HTTP request"), /*close=*/true);
  }

  // The request line and headers (the body comes later, in OnBody).
  void BuildRequest() {
    auto& msg = parser_->get();
    req_.method = ToMethod(msg.method());
    std::string_view target = msg.target();
    req_.target.assign(target.data(), target.size());
    size_t q = target.find('?');
    if (q == std::string_view::npos) {
      req_.path = req_.target;
      req_.query.clear();
    } else {
      req_.path.assign(target.data(), q);
      req_.query.assign(target.data() + q + 1, target.size() - q - 1);
    }
    req_.headers.clear();
    for (const auto& f : msg) {
      std::string_view n = f.name_string(), v = f.value();
      req_.headers.push_back(Header{std::string(n), std::string(v)});
    }
    req_.body.clear();
    req_.context.reset();
    req_.remote_address = remote_;
    std::string_view incoming = msg["X-Request-Id"];
    req_.request_id = IsAcceptableRequestId(incoming) ? std::string(incoming) : NewRequestId();
    head_ = msg.method() == bhttp::verb::head;
    keep_alive_ = msg.keep_alive();
    version_ = msg.version();
  }

  // ---- handling ---------------------------------------------------------------------------

  void OnBody() {
    req_.body = std::move(parser_->get().body());
    phase_ = Phase::kHandling;
    auto self = shared_from_this();
    bool queued = state_.pool && state_.pool->TrySubmit([self] { self->RunHandler(); });
    if (!queued) {
      ReleaseBody();
      Respond(Overloaded(), /*close=*/false);
    }
  }

  // On a worker thread. The session touches nothing else until the response is posted back.
  void RunHandler() {
    Response r = CallHandler();
    ReleaseBody();
    net::post(strand_, [self = shared_from_this(), r = std::move(r)]() mutable {
      self->Respond(std::move(r), /*close=*/false);
    });
  }

  // On a worker thread.
  Admission Admit() {
    const auto& admit = state_.callbacks.admit;
    if (!admit) return Admission{};
    if (auto a = Guarded("admission", req_.request_id, [&] { return admit(req_); })) {
      return std::move(*a);
    }
    Admission refused;
    refused.refusal = CallSafely(state_.callbacks.internal_error, req_, 500,
                                 "internal server error");
    return refused;
  }

  Response CallHandler() {
    const auto& handler = state_.callbacks.handler;
    if (!handler) return Response::Text(404, "no handler");
    // Compressed here, on the worker, so the I/O threads only ever write bytes.
    if (auto r = Guarded("handler", req_.request_id, [&] {
          Response response = handler(req_);
          EncodeContent(req_, response);
          return response;
        })) {
      return std::move(*r);
    }
    return CallSafely(state_.callbacks.internal_error, req_, 500, "internal server error");
  }

  // Frees the request body and its share of the in-flight budget.
  void ReleaseBody() {
    std::string().swap(req_.body);
    body_reservation_.Release();
  }

  Response Overloaded() {
    Response r = CallSafely(state_.callbacks.overloaded, req_, 503, "server overloaded");
    r.SetHeader("Retry-After", "1");
    return r;
  }

  Response TooLarge() {
    return CallSafely(state_.callbacks.too_large, req_, 413, "request body too large");
  }

  // ---- writing ----------------------------------------------------------------------------

  void Respond(Response r, bool close) {
    phase_ = Phase::kWriting;
    resp_ = std::move(r);
    if (resp_.status < 100 || resp_.status > 599) {
      spdlog::error(R"("msg":"handler returned an invalid status","request_id":"{}","status":{})",
                    req_.request_id, resp_.status);
      resp_ = CallSafely(state_.callbacks.internal_error, req_, 500, "internal server error");
      if (resp_.status < 100 || resp_.status > 599) resp_.status = 500;
    }
    res_ = {};
    res_.version(version_ == 10 ? 10 : 11);
    res_.result(static_cast<unsigned>(resp_.status));
    for (const Header& h : resp_.headers) {
      if (!IsServerOwnedHeader(h.name) && IsSafeHeader(h)) res_.insert(h.name, h.value);
    }
    res_.set("X-Request-Id", req_.request_id);
    const int s = resp_.status;
    const bool no_body_status = (s >= 100 && s < 200) || s == 204 || s == 304;
    if (no_body_status) {
      resp_.body.clear();
    } else {
      res_.content_length(resp_.body.size());
      if (!head_) res_.body() = std::move(resp_.body);
    }
    if (head_) resp_.body.clear();
    const bool keep = !close && keep_alive_ && !state_.stopping.load();
    res_.keep_alive(keep);
    stream_.expires_after(state_.options.write_timeout);
    bhttp::async_write(stream_, res_,
                       [self = shared_from_this(), keep, close](beast::error_code ec, size_t) {
                         self->OnWrite(ec, keep, close);
                       });
  }

  void OnWrite(beast::error_code ec, bool keep, bool error_close) {
    if (!head_ && !res_.body().empty()) resp_.body = std::move(res_.body());
    if (state_.callbacks.on_complete) {
      auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started_);
      try {
        state_.callbacks.on_complete(req_, resp_, elapsed);
      } catch (...) {
        // Access logging must never take a connection down.
      }
    }
    // Nothing of this exchange stays with an idle connection.
    resp_ = Response{};
    res_ = {};
    req_.context.reset();
    if (ec) return Close(false);
    if (!keep) return Close(error_close);
    ReadNext();
  }

  // ---- closing ----------------------------------------------------------------------------

  // `linger`: the client may still be sending (e.g. an oversize body); read and discard for a
  // moment (at most kLingerTimeout and kLingerMaxBytes) after our response so closing with
  // unread data does not reset the connection before the client has read the response.
  void Close(bool linger) {
    phase_ = Phase::kClosed;
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    if (!linger) {
      stream_.socket().close(ec);
      return;
    }
    stream_.expires_after(kLingerTimeout);
    Discard(kLingerMaxBytes);
  }

  void Discard(size_t budget) {
    buffer_.clear();
    stream_.async_read_some(buffer_.prepare(kIdleReadChunk),
                            [self = shared_from_this(), budget](beast::error_code ec, size_t n) {
                              if (ec || n >= budget) {
                                beast::error_code ignored;
                                self->stream_.socket().close(ignored);
                                return;
                              }
                              self->Discard(budget - n);
                            });
  }

  ServerState& state_;
  net::any_io_executor strand_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  bhttp::response<bhttp::string_body> res_;
  Request req_;
  Response resp_;
  BodyReservation body_reservation_;
  std::string remote_;
  Phase phase_ = Phase::kIdle;
  bool head_ = false;
  bool keep_alive_ = false;
  unsigned version_ = 11;
  Clock::time_point started_;
};

void StartSession(ServerState& state, tcp::socket socket) {
  std::make_shared<Session>(state, std::move(socket))->Start();
}

void CloseIdleSessions(ServerState& state) {
  std::vector<std::shared_ptr<Session>> live;
  {
    std::lock_guard lock(state.mu);
    live.reserve(state.sessions.size());
    for (Session* s : state.sessions) {
      // A session whose last owner is releasing it is skipped; it unregisters itself.
      if (auto sp = s->weak_from_this().lock()) live.push_back(std::move(sp));
    }
  }
  // Posted and released outside the lock: a session's destructor takes it.
  for (auto& sp : live) net::post(sp->strand(), [sp] { sp->OnServerStop(); });
}

void ForceCloseSessions(ServerState& state) {
  std::lock_guard lock(state.mu);
  for (Session* s : state.sessions) s->ForceClose();
}

}  // namespace firn::http
