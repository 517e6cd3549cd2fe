// S3Client against a scripted loopback HTTP server: retries on 503, no retry on 404/403, the
// conditional PUT's read-back after a retried 412, and the headers every request carries.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/s3/s3_client.h"
#include "io/s3/sigv4.h"

namespace firn::io::s3 {
namespace {

// Answers the i-th request with responses[i] (the last one repeats), one request per
// connection, and records each request's head and body.
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

std::string Response(int status, const std::string& reason, const std::string& body = "") {
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
         body;
}

std::unique_ptr<S3Client> ClientFor(const ScriptedServer& server, bool with_token = false) {
  S3Config c;
  c.endpoint = "http://127.0.0.1:" + std::to_string(server.port());
  c.access_key_id = "AKIDEXAMPLE";
  c.secret_access_key = Secret("the-secret-value");
  if (with_token) c.session_token = Secret("the-session-token");
  c.path_style_access = true;
  c.max_attempts = 3;
  c.retry_base_delay = std::chrono::milliseconds(1);
  auto client = S3Client::Create(c);
  EXPECT_TRUE(client);
  return std::move(*client);
}

TEST(S3ClientRetryTest, RetriesServerErrorsThenSucceeds) {
  ScriptedServer server({Response(503, "Slow Down", "<Error><Code>SlowDown</Code></Error>"),
                         Response(500, "Internal"), Response(200, "OK", "hello")});
  auto client = ClientFor(server);
  auto got = client->GetObject("b", "k", "s3://b/k");
  ASSERT_TRUE(got) << got.error().detail;
  EXPECT_EQ(*got, "hello");
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(S3ClientRetryTest, GivesUpAfterMaxAttemptsAsServiceUnavailable) {
  ScriptedServer server({Response(503, "Service Unavailable")});
  auto client = ClientFor(server);
  auto got = client->GetObject("b", "k", "s3://b/k");
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().kind, ErrorKind::kServiceUnavailable);
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(S3ClientRetryTest, DoesNotRetryNotFoundOrForbidden) {
  ScriptedServer server({Response(404, "Not Found", "<Error><Code>NoSuchKey</Code></Error>")});
  auto client = ClientFor(server);
  auto got = client->GetObject("b", "k", "s3://b/k");
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(server.requests().size(), 1u);

  ScriptedServer denied({Response(403, "Forbidden", "<Error><Code>AccessDenied</Code></Error>")});
  auto client2 = ClientFor(denied);
  EXPECT_FALSE(client2->HeadObject("b", "k", "s3://b/k"));
  EXPECT_EQ(denied.requests().size(), 1u);
}

TEST(S3ClientRetryTest, RetriedPutThatMeets412SucceedsWhenTheObjectIsOurs) {
  // Attempt 1 is "lost" (503), attempt 2 sees the object: 412; the read-back matches.
  ScriptedServer server({Response(503, "Service Unavailable"), Response(412, "Precondition Failed"),
                         Response(200, "OK", "payload")});
  auto client = ClientFor(server);
  EXPECT_TRUE(client->PutObjectIfAbsent("b", "k", "payload", "s3://b/k"));
  ASSERT_EQ(server.requests().size(), 3u);
  EXPECT_TRUE(server.requests()[2].starts_with("GET /b/k "));
}

TEST(S3ClientRetryTest, RetriedPutThatMeets412OfSomeoneElsesObjectIsAlreadyExists) {
  ScriptedServer server({Response(503, "Service Unavailable"), Response(412, "Precondition Failed"),
                         Response(200, "OK", "other writer's bytes")});
  auto client = ClientFor(server);
  auto put = client->PutObjectIfAbsent("b", "k", "payload", "s3://b/k");
  ASSERT_FALSE(put);
  EXPECT_EQ(put.error().kind, ErrorKind::kAlreadyExists);
}

TEST(S3ClientRetryTest, FirstTry412IsAlreadyExistsWithoutReadBack) {
  ScriptedServer server({Response(412, "Precondition Failed")});
  auto client = ClientFor(server);
  auto put = client->PutObjectIfAbsent("b", "k", "payload", "s3://b/k");
  ASSERT_FALSE(put);
  EXPECT_EQ(put.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(S3ClientRetryTest, PutCarriesSignedConditionalHeadersAndPayloadHash) {
  ScriptedServer server({Response(200, "OK")});
  auto client = ClientFor(server, /*with_token=*/true);
  ASSERT_TRUE(client->PutObjectIfAbsent("b", "dir/a b.json", "payload", "s3://b/dir/a b.json"));
  ASSERT_EQ(server.requests().size(), 1u);
  const std::string req = server.requests()[0];
  EXPECT_TRUE(req.starts_with("PUT /b/dir/a%20b.json HTTP/1.1\r\n")) << req;
  EXPECT_NE(req.find("if-none-match: *\r\n"), std::string::npos) << req;
  EXPECT_NE(req.find("x-amz-content-sha256: " + Sha256Hex("payload") + "\r\n"),
            std::string::npos);
  EXPECT_NE(req.find("x-amz-security-token: the-session-token\r\n"), std::string::npos);
  EXPECT_NE(req.find("SignedHeaders=host;if-none-match;x-amz-content-sha256;x-amz-date;"
                     "x-amz-security-token, Signature="),
            std::string::npos)
      << req;
  EXPECT_EQ(req.find("the-secret-value"), std::string::npos);
  EXPECT_EQ(req.find("Expect:"), std::string::npos);
  EXPECT_TRUE(req.ends_with("\r\n\r\npayload"));
}

}  // namespace
}  // namespace firn::io::s3
