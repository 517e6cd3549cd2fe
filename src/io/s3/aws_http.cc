#include "io/s3/aws_http.h"

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "common/macros.h"

namespace firn::io::s3 {
namespace {

constexpr size_t kMaxIdleHandles = 32;

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

TransportError ClassifyCurl(CURLcode code) {
  switch (code) {
    case CURLE_OK:
      return TransportError::kNone;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
      return TransportError::kConnect;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportError::kTimeout;
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
      return TransportError::kIo;
    default:
      return TransportError::kOther;
  }
}

size_t AppendBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

struct UploadCursor {
  std::string_view data;
  size_t offset = 0;
};

size_t ReadUpload(char* buffer, size_t size, size_t count, void* user) {
  auto* cursor = static_cast<UploadCursor*>(user);
  size_t n = std::min(size * count, cursor->data.size() - cursor->offset);
  std::copy_n(cursor->data.data() + cursor->offset, n, buffer);
  cursor->offset += n;
  return n;
}

struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

}  // namespace

// Idle easy handles; each keeps its own connection cache, so reuse keeps connections warm.
class AwsHttpClient::HandlePool {
 public:
  ~HandlePool() {
    for (CURL* h : idle_) curl_easy_cleanup(h);
  }
  CURL* Acquire() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!idle_.empty()) {
        CURL* h = idle_.back();
        idle_.pop_back();
        return h;
      }
    }
    return curl_easy_init();
  }
  void Release(CURL* h) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (idle_.size() < kMaxIdleHandles) {
        idle_.push_back(h);
        return;
      }
    }
    curl_easy_cleanup(h);
  }

 private:
  std::mutex mu_;
  std::vector<CURL*> idle_;
};

AwsHttpClient::AwsHttpClient(S3Config config, Endpoint endpoint, std::string service)
    : config_(std::move(config)),
      endpoint_(std::move(endpoint)),
      service_(std::move(service)),
      pool_(std::make_unique<HandlePool>()) {}

AwsHttpClient::~AwsHttpClient() = default;

Result<std::unique_ptr<AwsHttpClient>> AwsHttpClient::Create(S3Config config,
                                                             std::string service) {
  FIRN_ASSIGN_OR_RETURN(Endpoint endpoint, ParseEndpoint(config.endpoint, config.region));
  if (config.region.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "S3 configuration needs a region");
  }
  if (config.access_key_id.empty() || config.secret_access_key.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "S3 configuration needs an access key and secret");
  }
  GlobalInitOnce();
  return std::unique_ptr<AwsHttpClient>(
      new AwsHttpClient(std::move(config), std::move(endpoint), std::move(service)));
}

S3Outcome AwsHttpClient::Perform(const AwsRequest& r) {
  std::string amz_date = FormatAmzDate(std::chrono::system_clock::now());
  const bool has_body = r.method == "PUT" || r.method == "POST";
  std::string payload_hash = has_body ? Sha256Hex(r.body) : std::string(kEmptyPayloadSha256);
  SigningRequest signing;
  signing.method = r.method;
  signing.canonical_uri = r.target.canonical_uri;
  signing.query = r.target.query;
  signing.payload_hash = payload_hash;
  signing.headers = {{"host", r.target.host},
                     {"x-amz-content-sha256", payload_hash},
                     {"x-amz-date", amz_date}};
  Credentials credentials{config_.access_key_id, config_.secret_access_key,
                          config_.session_token};
  if (!config_.session_token.empty()) {
    signing.headers.push_back({"x-amz-security-token", config_.session_token.Reveal()});
  }
  for (const HttpHeader& h : r.extra_headers) signing.headers.push_back(h);
  SignedRequest signed_request =
      SignRequest(signing, credentials, SigningScope{config_.region, service_}, amz_date);

  curl_slist* raw_headers = nullptr;
  auto add = [&](const std::string& line) {
    raw_headers = curl_slist_append(raw_headers, line.c_str());
  };
  for (const HttpHeader& h : signing.headers) add(h.name + ": " + h.value);
  add("Authorization: " + signed_request.authorization);
  add("Expect:");  // no 100-continue round trip on PUT
  std::unique_ptr<curl_slist, SlistDeleter> headers(raw_headers);

  S3Outcome outcome;
  CURL* h = pool_->Acquire();
  if (h == nullptr) {
    outcome.transport = TransportError::kOther;
    outcome.transport_detail = "curl_easy_init failed";
    return outcome;
  }
  curl_easy_reset(h);  // keeps the connection cache
  char error_buffer[CURL_ERROR_SIZE] = {0};
  UploadCursor cursor{r.body, 0};
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(h, CURLOPT_URL, r.target.url.c_str());
  curl_easy_setopt(h, CURLOPT_PATH_AS_IS, 1L);  // the signed path is the sent path
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(config_.connect_timeout.count()));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(config_.request_timeout.count()));
  // A transfer stalled below 1 byte/s for 30 s fails (and is retried) before the deadline.
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, 30L);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &AppendBody);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &outcome.body);
  if (r.method == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (r.method == "PUT") {
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_READFUNCTION, &ReadUpload);
    curl_easy_setopt(h, CURLOPT_READDATA, &cursor);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
  } else if (r.method == "POST") {
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, r.body.data());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
  } else if (r.method != "GET") {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, r.method.c_str());
  }
  CURLcode code = curl_easy_perform(h);
  outcome.transport = ClassifyCurl(code);
  if (code != CURLE_OK) {
    outcome.transport_detail = std::string(curl_easy_strerror(code)) +
                               (error_buffer[0] != 0 ? std::string(": ") + error_buffer : "");
  } else {
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &outcome.status);
  }
  pool_->Release(h);
  return outcome;
}

std::chrono::milliseconds AwsHttpClient::Backoff(int attempt) const {
  thread_local std::minstd_rand rng(std::random_device{}());
  int64_t doubled = config_.retry_base_delay.count() << std::min(attempt, 20);
  std::chrono::milliseconds ceiling =
      std::min(config_.retry_max_delay, std::chrono::milliseconds(doubled));
  std::uniform_int_distribution<int64_t> jitter(ceiling.count() / 2, ceiling.count());
  return std::chrono::milliseconds(jitter(rng));
}

S3Outcome AwsHttpClient::PerformWithRetry(const AwsRequest& r, FunctionRef<bool(long)> accept,
                                          int* attempts_made) {
  int max_attempts = std::max(1, config_.max_attempts);
  S3Outcome outcome;
  for (int attempt = 0; attempt < max_attempts; ++attempt) {
    if (attempts_made != nullptr) *attempts_made = attempt + 1;
    outcome = Perform(r);
    bool ok = outcome.transport == TransportError::kNone &&
              ((outcome.status >= 200 && outcome.status < 300) || accept(outcome.status));
    if (ok || !IsRetryable(outcome) || attempt + 1 == max_attempts) break;
    auto delay = Backoff(attempt);
    SPDLOG_DEBUG("{} retry {} after {} ms: {} {}", service_, attempt + 1, delay.count(), r.method,
                 r.target.url);
    std::this_thread::sleep_for(delay);
  }
  return outcome;
}

}  // namespace firn::io::s3
