#include "access/jwks_fetch.h"

#include <fstream>
#include <sstream>

#include "io/http_client.h"

namespace firn::access {
namespace {

constexpr size_t kMaxJwksBytes = 1 << 20;

}  // namespace

Result<std::string> ReadJwksFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorKind::kNotFound, "JWKS file cannot be read", path);
  std::ostringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  if (text.size() > kMaxJwksBytes) return Fail(ErrorKind::kIllegalArgument, "JWKS too large");
  return text;
}

Result<std::string> FetchJwksUrl(const std::string& url, std::chrono::milliseconds timeout) {
  io::HttpRequest request;
  request.url = url;
  request.timeout = timeout;
  request.max_bytes = kMaxJwksBytes;
  auto response = io::PerformHttp(request);
  if (!response) {
    return Fail(ErrorKind::kServiceUnavailable, "JWKS fetch failed", response.error().detail);
  }
  if (response->status < 200 || response->status >= 300) {
    return Fail(ErrorKind::kServiceUnavailable, "JWKS fetch failed",
                url + ": HTTP " + std::to_string(response->status));
  }
  return std::move(response->body);
}

}  // namespace firn::access
