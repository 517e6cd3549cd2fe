// Result<T> and Status: values or an Error, never exceptions across library boundaries.
#pragma once

#include <expected>
#include <utility>

#include "common/error.h"

namespace firn {

template <typename T>
using Result = std::expected<T, Error>;

using Status = std::expected<void, Error>;

inline Status Ok() { return {}; }

inline std::unexpected<Error> Fail(ErrorKind kind, std::string message, std::string detail = {}) {
  return std::unexpected<Error>(Error(kind, std::move(message), std::move(detail)));
}

inline std::unexpected<Error> Fail(Error error) { return std::unexpected<Error>(std::move(error)); }

}  // namespace firn
