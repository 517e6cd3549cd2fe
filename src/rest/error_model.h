// The one table from ErrorKind to HTTP status and Iceberg ErrorModel `type`, and the response
// that carries it: {"error":{"message":..,"type":..,"code":..}}. The message is the Error's
// client message with ill-formed UTF-8 replaced by U+FFFD, so the body is always valid JSON
// whatever client bytes the message quotes; its detail is never sent.
#pragma once

#include <string_view>

#include "common/error.h"
#include "http/http_types.h"

namespace firn::rest {

struct ErrorMapping {
  int status;
  std::string_view type;
};

ErrorMapping MapError(ErrorKind kind);
http::Response ErrorResponse(const Error& error);

}  // namespace firn::rest
