#include "access/jwks_fetch.h"

#include <curl/curl.h>

#include <fstream>
#include <sstream>

namespace firn::access {
namespace {

constexpr size_t kMaxJwksBytes = 1 << 20;

size_t Append(char* data, size_t size, size_t n, void* user) {
  auto* out = static_cast<std::string*>(user);
  if (out->size() + size * n > kMaxJwksBytes) return 0;  // aborts the transfer
  out->append(data, size * n);
  return size * n;
}

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
  CURL* h = curl_easy_init();
  if (h == nullptr) return Fail(ErrorKind::kServiceUnavailable, "JWKS fetch failed", "curl init");
  std::string body;
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &Append);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(h, CURLOPT_MAXREDIRS, 3L);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  CURLcode rc = curl_easy_perform(h);
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(h);
  if (rc != CURLE_OK) {
    return Fail(ErrorKind::kServiceUnavailable, "JWKS fetch failed",
                url + ": " + curl_easy_strerror(rc));
  }
  if (status < 200 || status >= 300) {
    return Fail(ErrorKind::kServiceUnavailable, "JWKS fetch failed",
                url + ": HTTP " + std::to_string(status));
  }
  return body;
}

}  // namespace firn::access
