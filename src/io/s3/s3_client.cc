#include "io/s3/s3_client.h"

#include <utility>
#include <vector>

#include "common/macros.h"
#include "io/object_store.h"
#include "io/s3/aws_http.h"
#include "io/s3/s3_errors.h"
#include "io/s3/s3_location.h"

namespace firn::io::s3 {

struct S3Client::Impl {
  std::unique_ptr<AwsHttpClient> http;

  AwsRequest MakeRequest(std::string method, std::string_view bucket, std::string_view key,
                         std::vector<QueryParam> query = {}) const {
    AwsRequest r;
    r.method = std::move(method);
    r.target = MakeTarget(http->endpoint(), http->config().path_style_access, bucket, key,
                          std::move(query));
    return r;
  }
};

S3Client::S3Client(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
S3Client::~S3Client() = default;

Result<std::unique_ptr<S3Client>> S3Client::Create(S3Config config) {
  auto impl = std::make_unique<Impl>();
  FIRN_ASSIGN_OR_RETURN(impl->http, AwsHttpClient::Create(std::move(config), "s3"));
  return std::unique_ptr<S3Client>(new S3Client(std::move(impl)));
}

Result<std::string> S3Client::GetObject(std::string_view bucket, std::string_view key,
                                        std::string_view uri, std::optional<size_t> max_bytes) {
  AwsRequest r = impl_->MakeRequest("GET", bucket, key);
  if (max_bytes) r.extra_headers.push_back({"range", "bytes=0-" + std::to_string(*max_bytes)});
  // 416: the range starts past the end, i.e. the object is empty.
  auto empty_object = [ranged = max_bytes.has_value()](long status) {
    return ranged && status == 416;
  };
  S3Outcome o = impl_->http->PerformWithRetry(r, empty_object);
  if (o.transport == TransportError::kNone && empty_object(o.status)) return std::string();
  if (!AwsHttpClient::Succeeded(o)) {
    return Fail(MapS3Failure(S3Op::kRead, uri, o, AwsHttpClient::MethodAndUrl(r)));
  }
  if (max_bytes && o.body.size() > *max_bytes) return Fail(ObjectTooLargeError(uri, *max_bytes));
  return std::move(o.body);
}

Status S3Client::PutObjectIfAbsent(std::string_view bucket, std::string_view key,
                                   std::string_view data, std::string_view uri) {
  AwsRequest r = impl_->MakeRequest("PUT", bucket, key);
  r.extra_headers.push_back({"if-none-match", "*"});
  r.body = data;
  int attempts = 0;
  S3Outcome o = impl_->http->PerformWithRetry(r, [](long) { return false; }, &attempts);
  if (AwsHttpClient::Succeeded(o)) return Ok();
  if (o.transport == TransportError::kNone && o.status == 412 && attempts > 1) {
    // An earlier attempt may have written the object before its reply was lost.
    auto existing = GetObject(bucket, key, uri);
    if (existing && *existing == data) return Ok();
  }
  return Fail(MapS3Failure(S3Op::kWriteNew, uri, o, AwsHttpClient::MethodAndUrl(r)));
}

Status S3Client::DeleteObject(std::string_view bucket, std::string_view key,
                              std::string_view uri) {
  AwsRequest r = impl_->MakeRequest("DELETE", bucket, key);
  S3Outcome o = impl_->http->PerformWithRetry(r, [](long status) { return status == 404; });
  bool ok = o.transport == TransportError::kNone &&
            ((o.status >= 200 && o.status < 300) || o.status == 404);
  // 404 NoSuchBucket is a configuration error, not a missing object.
  if (ok && o.status == 404 && ParseS3Error(o.body).code == "NoSuchBucket") ok = false;
  if (!ok) return Fail(MapS3Failure(S3Op::kDelete, uri, o, AwsHttpClient::MethodAndUrl(r)));
  return Ok();
}

Result<bool> S3Client::HeadObject(std::string_view bucket, std::string_view key,
                                  std::string_view uri) {
  AwsRequest r = impl_->MakeRequest("HEAD", bucket, key);
  S3Outcome o = impl_->http->PerformWithRetry(r, [](long status) { return status == 404; });
  if (AwsHttpClient::Succeeded(o)) return true;
  if (o.transport == TransportError::kNone && o.status == 404) return false;
  return Fail(MapS3Failure(S3Op::kExists, uri, o, AwsHttpClient::MethodAndUrl(r)));
}

Result<ListPage> S3Client::ListObjectsV2(std::string_view bucket, std::string_view prefix,
                                         std::string_view continuation_token,
                                         std::string_view uri, std::string_view delimiter) {
  std::vector<QueryParam> query = {{"list-type", "2"}};
  if (impl_->http->config().list_page_size > 0 && impl_->http->config().list_page_size != 1000) {
    query.push_back({"max-keys", std::to_string(impl_->http->config().list_page_size)});
  }
  if (!prefix.empty()) query.push_back({"prefix", std::string(prefix)});
  if (!delimiter.empty()) query.push_back({"delimiter", std::string(delimiter)});
  if (!continuation_token.empty()) {
    query.push_back({"continuation-token", std::string(continuation_token)});
  }
  AwsRequest r = impl_->MakeRequest("GET", bucket, "", std::move(query));
  S3Outcome o = impl_->http->PerformWithRetry(r, [](long) { return false; });
  if (!AwsHttpClient::Succeeded(o)) {
    return Fail(MapS3Failure(S3Op::kList, uri, o, AwsHttpClient::MethodAndUrl(r)));
  }
  return ParseListObjectsV2(o.body);
}

}  // namespace firn::io::s3
