#include "io/s3/s3_errors.h"

#include "io/s3/s3_xml.h"

namespace firn::io::s3 {
namespace {

std::string_view OpVerb(S3Op op) {
  switch (op) {
    case S3Op::kRead:
      return "read";
    case S3Op::kWriteNew:
      return "write";
    case S3Op::kDelete:
      return "delete";
    case S3Op::kExists:
      return "check";
    case S3Op::kList:
      return "list";
  }
  return "access";
}

bool IsThrottleCode(std::string_view code) {
  return code == "SlowDown" || code == "Throttling" || code == "ThrottlingException" ||
         code == "RequestThrottled" || code == "RequestLimitExceeded" ||
         code == "RequestTimeout" || code == "InternalError" || code == "ServiceUnavailable";
}

}  // namespace

bool IsRetryable(const S3Outcome& outcome) {
  switch (outcome.transport) {
    case TransportError::kConnect:
    case TransportError::kTimeout:
    case TransportError::kIo:
      return true;
    case TransportError::kOther:
      return false;
    case TransportError::kNone:
      break;
  }
  if (outcome.status >= 500 || outcome.status == 429) return true;
  // S3 answers a conflicting concurrent conditional write with 409; the retry then sees the
  // winner (412) or succeeds.
  if (outcome.status == 409) {
    return ParseS3Error(outcome.body).code == "ConditionalRequestConflict";
  }
  if (outcome.status == 400) return IsThrottleCode(ParseS3Error(outcome.body).code);
  return false;
}

Error MapS3Failure(S3Op op, std::string_view uri, const S3Outcome& outcome,
                   std::string_view method_and_url) {
  std::string where(method_and_url);
  std::string u(uri);
  if (outcome.transport != TransportError::kNone) {
    std::string detail = where + ": " + outcome.transport_detail;
    if (outcome.transport == TransportError::kOther) {
      return Error(ErrorKind::kInternal,
                   "Failed to " + std::string(OpVerb(op)) + " object: " + u, std::move(detail));
    }
    return Error(ErrorKind::kServiceUnavailable, "Storage is unavailable", std::move(detail));
  }
  S3ErrorBody body = ParseS3Error(outcome.body);
  std::string detail = where + " -> HTTP " + std::to_string(outcome.status);
  if (!body.code.empty()) detail += " " + body.code;
  if (!body.message.empty()) detail += ": " + body.message;

  if (outcome.status == 404) {
    if (op == S3Op::kRead) {
      return Error(ErrorKind::kNotFound, "Failed to open input stream for file: " + u,
                   std::move(detail));
    }
    if (body.code == "NoSuchBucket" || op == S3Op::kList) {
      return Error(ErrorKind::kNotFound, "Bucket does not exist: " + u, std::move(detail));
    }
  }
  if (outcome.status == 412 && op == S3Op::kWriteNew) {
    return Error(ErrorKind::kAlreadyExists, "Object already exists: " + u, std::move(detail));
  }
  if (outcome.status >= 500 || outcome.status == 429 || IsThrottleCode(body.code)) {
    return Error(ErrorKind::kServiceUnavailable, "Storage is unavailable", std::move(detail));
  }
  if (outcome.status == 401 || outcome.status == 403) {
    return Error(ErrorKind::kInternal, "Object storage refused access to: " + u,
                 std::move(detail));
  }
  return Error(ErrorKind::kInternal, "Failed to " + std::string(OpVerb(op)) + " object: " + u,
               std::move(detail));
}

}  // namespace firn::io::s3
