#include "common/error.h"

namespace firn {

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kBadRequest: return "BadRequest";
    case ErrorKind::kIllegalArgument: return "IllegalArgument";
    case ErrorKind::kValidation: return "Validation";
    case ErrorKind::kNotAuthorized: return "NotAuthorized";
    case ErrorKind::kForbidden: return "Forbidden";
    case ErrorKind::kNoSuchNamespace: return "NoSuchNamespace";
    case ErrorKind::kNoSuchTable: return "NoSuchTable";
    case ErrorKind::kNoSuchView: return "NoSuchView";
    case ErrorKind::kNotFound: return "NotFound";
    case ErrorKind::kNoSuchWarehouse: return "NoSuchWarehouse";
    case ErrorKind::kNoRoute: return "NoRoute";
    case ErrorKind::kMethodNotAllowed: return "MethodNotAllowed";
    case ErrorKind::kUnsupportedOperation: return "UnsupportedOperation";
    case ErrorKind::kAlreadyExists: return "AlreadyExists";
    case ErrorKind::kNamespaceNotEmpty: return "NamespaceNotEmpty";
    case ErrorKind::kCommitFailed: return "CommitFailed";
    case ErrorKind::kLocationConflict: return "LocationConflict";
    case ErrorKind::kPayloadTooLarge: return "PayloadTooLarge";
    case ErrorKind::kUnprocessableEntity: return "UnprocessableEntity";
    case ErrorKind::kTooManyRequests: return "TooManyRequests";
    case ErrorKind::kInternal: return "Internal";
    case ErrorKind::kCommitStateUnknown: return "CommitStateUnknown";
    case ErrorKind::kServiceUnavailable: return "ServiceUnavailable";
  }
  return "Unknown";
}

}  // namespace firn
