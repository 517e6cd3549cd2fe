#include "rest/error_model.h"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "common/utf8.h"

namespace firn::rest {

ErrorMapping MapError(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kBadRequest: return {400, "BadRequestException"};
    case ErrorKind::kIllegalArgument: return {400, "IllegalArgumentException"};
    case ErrorKind::kValidation: return {400, "ValidationException"};
    case ErrorKind::kNotAuthorized: return {401, "NotAuthorizedException"};
    case ErrorKind::kForbidden: return {403, "ForbiddenException"};
    case ErrorKind::kNoSuchNamespace: return {404, "NoSuchNamespaceException"};
    case ErrorKind::kNoSuchTable: return {404, "NoSuchTableException"};
    case ErrorKind::kNoSuchView: return {404, "NoSuchViewException"};
    case ErrorKind::kNotFound: return {404, "NotFoundException"};
    case ErrorKind::kNoSuchWarehouse: return {404, "NoSuchWarehouseException"};
    case ErrorKind::kNoRoute: return {404, "NotFoundException"};
    case ErrorKind::kMethodNotAllowed: return {405, "BadRequestException"};
    case ErrorKind::kUnsupportedOperation: return {406, "UnsupportedOperationException"};
    case ErrorKind::kAlreadyExists: return {409, "AlreadyExistsException"};
    case ErrorKind::kNamespaceNotEmpty: return {409, "NamespaceNotEmptyException"};
    case ErrorKind::kCommitFailed: return {409, "CommitFailedException"};
    case ErrorKind::kLocationConflict: return {409, "AlreadyExistsException"};
    case ErrorKind::kPayloadTooLarge: return {413, "BadRequestException"};
    case ErrorKind::kUnprocessableEntity: return {422, "UnprocessableEntityException"};
    case ErrorKind::kTooManyRequests: return {429, "SlowDownException"};
    case ErrorKind::kInternal: return {500, "InternalServerError"};
    case ErrorKind::kCommitStateUnknown: return {500, "CommitStateUnknownException"};
    case ErrorKind::kServiceUnavailable: return {503, "ServiceUnavailableException"};
  }
  return {500, "InternalServerError"};
}

http::Response ErrorResponse(const Error& error) {
  const ErrorMapping m = MapError(error.kind);
  boost::json::object inner;
  // Messages may quote client bytes (a prefix, a warehouse, a location): Boost.JSON copies
  // strings byte for byte, so ill-formed UTF-8 would make the body invalid JSON.
  inner["message"] = utf8::Sanitize(error.message);
  inner["type"] = m.type;
  inner["code"] = m.status;
  boost::json::object outer;
  outer["error"] = std::move(inner);
  http::Response r = http::Response::Json(m.status, boost::json::serialize(outer));
  if (m.status == 503 || m.status == 429) r.SetHeader("Retry-After", "1");
  return r;
}

}  // namespace firn::rest
