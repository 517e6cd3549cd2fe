// S3Client: the five S3 requests the ObjectStore needs, signed with SigV4, over libcurl.
//
// Thread-safety: every method may be called concurrently. Curl easy handles are pooled
// (one in use per calling thread at a time), so TCP/TLS connections are reused across calls.
// Retries: every request here is idempotent (PUT is conditional, see PutObjectIfAbsent) and is
// retried on transport errors, 5xx, 429 and throttling codes, with jittered exponential backoff,
// re-signed each time. Errors: see io/s3/s3_errors.h. Secrets: never logged; the Authorization
// header and the session token exist only in the outgoing request.
// Ownership: owns its curl handles; curl itself is hidden behind a pimpl.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "io/s3/s3_config.h"
#include "io/s3/s3_xml.h"

namespace firn::io::s3 {

class S3Client {
 public:
  // kIllegalArgument for a malformed endpoint or missing access key.
  static Result<std::unique_ptr<S3Client>> Create(S3Config config);
  ~S3Client();
  S3Client(const S3Client&) = delete;
  S3Client& operator=(const S3Client&) = delete;

  // `uri` names the object in error messages only. With `max_bytes`, asks for the first
  // max_bytes + 1 bytes only (a Range request) and answers ObjectTooLargeError when the object
  // has more.
  Result<std::string> GetObject(std::string_view bucket, std::string_view key,
                                std::string_view uri,
                                std::optional<size_t> max_bytes = std::nullopt);
  // PUT with `If-None-Match: *`: kAlreadyExists (412) when the key exists. When a retried PUT
  // meets 412, the object is read back: if it holds exactly `data`, our own earlier attempt
  // won and the call succeeds.
  Status PutObjectIfAbsent(std::string_view bucket, std::string_view key, std::string_view data,
                           std::string_view uri);
  // A missing key is success (S3 answers 204 either way).
  Status DeleteObject(std::string_view bucket, std::string_view key, std::string_view uri);
  Result<bool> HeadObject(std::string_view bucket, std::string_view key, std::string_view uri);
  // One ListObjectsV2 page (up to 1000 keys); pass the previous page's token to continue.
  // `delimiter` (e.g. "/"): keys past it are rolled up into the page's common prefixes.
  Result<ListPage> ListObjectsV2(std::string_view bucket, std::string_view prefix,
                                 std::string_view continuation_token, std::string_view uri,
                                 std::string_view delimiter = {});

 private:
  struct Impl;
  explicit S3Client(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace firn::io::s3
