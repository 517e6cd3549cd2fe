// A small Beast HTTP client for the server tests: every operation has a deadline, so a server
// bug fails a test instead of hanging it.
#pragma once

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace firn::http::testing {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;

using ClientResponse = bhttp::response<bhttp::string_body>;

class TestClient {
 public:
  explicit TestClient(uint16_t port) : stream_(ioc_) {
    beast::error_code ec;
    stream_.socket().connect({net::ip::make_address("127.0.0.1"), port}, ec);
    connected_ = !ec;
  }

  bool connected() const { return connected_; }
  const beast::error_code& last_error() const { return ec_; }

  bool Send(bhttp::verb verb, std::string target, std::string body = {},
            std::vector<std::pair<std::string, std::string>> headers = {}) {
    bhttp::request<bhttp::string_body> req{verb, target, 11};
    req.set(bhttp::field::host, "127.0.0.1");
    for (auto& [k, v] : headers) req.set(k, v);
    if (!body.empty() || verb == bhttp::verb::post || verb == bhttp::verb::put) {
      req.body() = std::move(body);
      req.prepare_payload();
    }
    return Run([&](auto done) { bhttp::async_write(stream_, req, done); });
  }

  bool SendRaw(std::string bytes) {
    return Run([&](auto done) { net::async_write(stream_, net::buffer(bytes), done); });
  }

  std::optional<ClientResponse> Read(bool head = false,
                                     std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    bhttp::response_parser<bhttp::string_body> parser;
    parser.skip(head);
    if (!Run([&](auto done) { bhttp::async_read(stream_, buffer_, parser, done); }, timeout)) {
      return std::nullopt;
    }
    return parser.release();
  }

  // Reads only a response header (e.g. a "100 Continue").
  std::optional<ClientResponse> ReadHeader() {
    bhttp::response_parser<bhttp::string_body> parser;
    if (!Run([&](auto done) { bhttp::async_read_header(stream_, buffer_, parser, done); })) {
      return std::nullopt;
    }
    return parser.release();
  }

  std::optional<ClientResponse> RoundTrip(
      bhttp::verb verb, std::string target, std::string body = {},
      std::vector<std::pair<std::string, std::string>> headers = {}) {
    bool head = verb == bhttp::verb::head;
    if (!Send(verb, std::move(target), std::move(body), std::move(headers))) return std::nullopt;
    return Read(head);
  }

  // True if the server closes the connection (EOF or reset) within `timeout` without sending
  // anything more.
  bool WaitClosed(std::chrono::milliseconds timeout) {
    char byte;
    size_t got = 0;
    bool ok = Run(
        [&](auto done) {
          stream_.async_read_some(net::buffer(&byte, 1), [&, done](beast::error_code ec,
                                                                   size_t n) mutable {
            got = n;
            done(ec, n);
          });
        },
        timeout);
    return !ok && got == 0 && ec_ != beast::error::timeout && buffer_.size() == 0;
  }

  // Bytes the server has sent that nobody has read yet.
  size_t Available() {
    beast::error_code ec;
    return stream_.socket().available(ec) + buffer_.size();
  }

 private:
  template <typename Start>
  bool Run(Start start, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    ec_ = {};
    stream_.expires_after(timeout);
    start([this](beast::error_code ec, size_t) { ec_ = ec; });
    ioc_.restart();
    ioc_.run();
    return !ec_;
  }

  net::io_context ioc_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  beast::error_code ec_;
  bool connected_ = false;
};

}  // namespace firn::http::testing
