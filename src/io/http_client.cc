#include "io/http_client.h"

#include <curl/curl.h>

#include <memory>

namespace firn::io {
namespace {

struct Sink {
  std::string* out;
  size_t max;
};

size_t Append(char* data, size_t size, size_t n, void* user) {
  auto* sink = static_cast<Sink*>(user);
  if (sink->out->size() + size * n > sink->max) return 0;  // aborts the transfer
  sink->out->append(data, size * n);
  return size * n;
}

}  // namespace

Result<HttpResponse> PerformHttp(const HttpRequest& request) {
  std::unique_ptr<CURL, void (*)(CURL*)> h(curl_easy_init(), curl_easy_cleanup);
  if (!h) return Fail(ErrorKind::kServiceUnavailable, "HTTP request failed", "curl init");
  HttpResponse response;
  Sink sink{&response.body, request.max_bytes};
  curl_slist* headers = nullptr;
  for (const auto& [name, value] : request.headers) {
    // "Name:" with nothing after it removes a header curl would add (e.g. Expect).
    headers = curl_slist_append(headers, (value.empty() ? name + ":" : name + ": " + value).c_str());
  }
  std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_guard(headers, curl_slist_free_all);
  curl_easy_setopt(h.get(), CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h.get(), CURLOPT_CUSTOMREQUEST, request.method.c_str());
  if (request.method == "HEAD") curl_easy_setopt(h.get(), CURLOPT_NOBODY, 1L);
  if (!request.body.empty() || request.method == "POST" || request.method == "PUT") {
    curl_easy_setopt(h.get(), CURLOPT_POSTFIELDS, request.body.c_str());
    curl_easy_setopt(h.get(), CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
  }
  curl_easy_setopt(h.get(), CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(h.get(), CURLOPT_WRITEFUNCTION, &Append);
  curl_easy_setopt(h.get(), CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(h.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  curl_easy_setopt(h.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h.get(), CURLOPT_FOLLOWLOCATION, request.follow_redirects ? 1L : 0L);
  curl_easy_setopt(h.get(), CURLOPT_MAXREDIRS, 3L);
  curl_easy_setopt(h.get(), CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h.get(), CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  const CURLcode rc = curl_easy_perform(h.get());
  curl_easy_getinfo(h.get(), CURLINFO_RESPONSE_CODE, &response.status);
  if (rc != CURLE_OK) {
    return Fail(ErrorKind::kServiceUnavailable, "HTTP request failed",
                request.method + " " + request.url + ": " + curl_easy_strerror(rc));
  }
  return response;
}

}  // namespace firn::io
