// ScriptedServer: a loopback HTTP server that answers the i-th request with responses[i] (the
// last one repeats), one request per connection, and records each request (head and body), for
// the S3 and STS client tests. Response() builds one answer.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/s3/s3_config.h"

namespace firn::io::s3::testing {

class ScriptedServer {
 public:
  explicit ScriptedServer(std::vector<std::string> responses) : responses_(std::move(responses)) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    socklen_t len = sizeof(addr);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    listen(fd_, 16);
    thread_ = std::thread([this] { Serve(); });
  }
  ~ScriptedServer() {
    stop_ = true;
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }
  int port() const { return port_; }
  std::vector<std::string> requests() {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  void Serve() {
    for (size_t i = 0; !stop_; ++i) {
      int c = accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      std::string request;
      char buf[65536];
      size_t body_needed = std::string::npos;
      while (true) {
        ssize_t n = read(c, buf, sizeof(buf));
        if (n <= 0) break;
        request.append(buf, n);
        size_t head_end = request.find("\r\n\r\n");
        if (head_end == std::string::npos) continue;
        if (body_needed == std::string::npos) {
          size_t cl = request.find("Content-Length: ");
          body_needed = cl == std::string::npos || cl > head_end
                            ? 0
                            : std::stoul(request.substr(cl + 16));
        }
        if (request.size() >= head_end + 4 + body_needed) break;
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back(request);
      }
      const std::string& response = responses_[std::min(i, responses_.size() - 1)];
      (void)!write(c, response.data(), response.size());
      close(c);
    }
  }

  std::vector<std::string> responses_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mu_;
  std::vector<std::string> requests_;
};

inline std::string Response(int status, const std::string& reason, const std::string& body = "") {
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
         body;
}

// A client configuration for `server`: loopback endpoint, fixed test keys, path style, three
// attempts with a 1 ms backoff.
inline S3Config LoopbackS3Config(const ScriptedServer& server) {
  S3Config c;
  c.endpoint = "http://127.0.0.1:" + std::to_string(server.port());
  c.access_key_id = "AKIDEXAMPLE";
  c.secret_access_key = Secret("the-secret-value");
  c.path_style_access = true;
  c.max_attempts = 3;
  c.retry_base_delay = std::chrono::milliseconds(1);
  return c;
}

}  // namespace firn::io::s3::testing
