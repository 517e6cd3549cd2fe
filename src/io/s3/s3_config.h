// S3Config: how to reach one S3-compatible service. Plain data; copy freely.
//
// Secrets are firn::Secret so that logging a config never prints them.
#pragma once

#include <chrono>
#include <string>

#include "common/secret.h"

namespace firn::io::s3 {

struct S3Config {
  // "http(s)://host[:port]" of the service, no path. Empty means AWS:
  // "https://s3.<region>.amazonaws.com".
  std::string endpoint;
  std::string region = "us-east-1";
  std::string access_key_id;
  Secret secret_access_key;
  Secret session_token;  // empty for long-term keys
  // true: http://host:port/bucket/key (SeaweedFS, moto, MinIO). false: virtual-hosted,
  // http://bucket.host:port/key (AWS's default). Iceberg's `s3.path-style-access`.
  bool path_style_access = false;

  std::chrono::milliseconds connect_timeout{5000};
  // Whole-request limit; a stalled transfer fails sooner (low-speed limit in the client).
  std::chrono::milliseconds request_timeout{60000};
  // Attempts per idempotent request (1 = no retry); backoff doubles from base up to max,
  // with jitter.
  int max_attempts = 4;
  std::chrono::milliseconds retry_base_delay{100};
  std::chrono::milliseconds retry_max_delay{2000};
  // Keys per ListObjectsV2 page (S3's max-keys; 1000 is S3's own cap).
  int list_page_size = 1000;
};

}  // namespace firn::io::s3
