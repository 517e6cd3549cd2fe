// How an S3 exchange failed, whether to retry it, and which ObjectStore error it becomes.
// Pure functions; the client fills S3Outcome from curl.
//
// Mapping (the ObjectStore contract, io/object_store.h):
//   transport failure (connect, DNS, timeout, reset), 5xx, 429, SlowDown  → kServiceUnavailable
//   404 on Read                                   → kNotFound "Failed to open input stream
//                                                   for file: <uri>"
//   404 NoSuchBucket elsewhere                    → kNotFound "Bucket does not exist: <uri>"
//   412 on WriteNew                               → kAlreadyExists
//   401/403 and anything else                     → kInternal (the catalog's own storage
//                                                   credentials or setup are wrong; a 403 here
//                                                   is not the REST caller's fault)
// Messages carry the object URI only; status, S3 error code and message go to `detail`.
// Nothing here sees a credential.
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"

namespace firn::io::s3 {

enum class S3Op { kRead, kWriteNew, kDelete, kExists, kList };

enum class TransportError {
  kNone,     // an HTTP response arrived
  kConnect,  // DNS failure, connection refused or unreachable
  kTimeout,  // connect or transfer timed out
  kIo,       // connection reset, empty reply, send/receive failure
  kOther,    // TLS verification, bad URL, out of memory: retrying will not help
};

struct S3Outcome {
  TransportError transport = TransportError::kNone;
  std::string transport_detail;  // curl's message
  long status = 0;               // HTTP status when transport == kNone
  std::string body;
};

// True when the same request may succeed if sent again (only used for idempotent requests).
bool IsRetryable(const S3Outcome& outcome);

// The ObjectStore error for a failed `op` on `uri`. `method_and_url` goes into `detail` only.
Error MapS3Failure(S3Op op, std::string_view uri, const S3Outcome& outcome,
                   std::string_view method_and_url);

}  // namespace firn::io::s3
