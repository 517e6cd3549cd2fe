// Error: what went wrong, said twice — once for the client, once for the log.
//
// Contract: `message` is safe to send to a client (never a request body, a secret or a
// stack trace); `detail` is for the server log only. `kind` alone decides the HTTP status
// and the Iceberg ErrorModel `type` (see rest/error_model.cc, the single mapping table).
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace firn {

enum class ErrorKind {
  kBadRequest,            // 400 BadRequestException: malformed request
  kIllegalArgument,       // 400 IllegalArgumentException: semantically invalid request
  kValidation,            // 400 ValidationException: metadata rule violated
  kNotAuthorized,         // 401 NotAuthorizedException
  kForbidden,             // 403 ForbiddenException
  kNoSuchNamespace,       // 404 NoSuchNamespaceException
  kNoSuchTable,           // 404 NoSuchTableException
  kNoSuchView,            // 404 NoSuchViewException
  kNotFound,              // 404 NotFoundException (e.g. a metadata file is missing)
  kNoSuchWarehouse,       // 404 NoSuchWarehouseException
  kNoRoute,               // 404 NotFoundException: no such route
  kMethodNotAllowed,      // 405 BadRequestException
  kUnsupportedOperation,  // 406 UnsupportedOperationException
  kAlreadyExists,         // 409 AlreadyExistsException
  kNamespaceNotEmpty,     // 409 NamespaceNotEmptyException
  kCommitFailed,          // 409 CommitFailedException: certainly not committed
  kLocationConflict,      // 409 AlreadyExistsException: a location another object owns
  kPayloadTooLarge,       // 413 BadRequestException
  kUnprocessableEntity,   // 422 UnprocessableEntityException
  kTooManyRequests,       // 429 SlowDownException
  kInternal,              // 500 InternalServerError
  kCommitStateUnknown,    // 500 CommitStateUnknownException: outcome truly unknown
  kServiceUnavailable,    // 503 ServiceUnavailableException (with Retry-After)
};

struct Error {
  ErrorKind kind = ErrorKind::kInternal;
  std::string message;  // for the client
  std::string detail;   // for the log only

  Error() = default;
  Error(ErrorKind k, std::string msg, std::string det = {})
      : kind(k), message(std::move(msg)), detail(std::move(det)) {}
};

std::string_view ErrorKindName(ErrorKind kind);

}  // namespace firn
