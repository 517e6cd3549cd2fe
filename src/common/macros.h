// Propagation macros for Result/Status (g++ 12's std::expected has no and_then).
#pragma once

#include <utility>

#define FIRN_CONCAT_INNER(a, b) a##b
#define FIRN_CONCAT(a, b) FIRN_CONCAT_INNER(a, b)

// Returns the error of `expr` (a Status or Result) from the enclosing function.
#define FIRN_RETURN_IF_ERROR(expr)                                      \
  do {                                                                  \
    auto&& firn_status_ = (expr);                                       \
    if (!firn_status_) return std::unexpected(std::move(firn_status_).error()); \
  } while (0)

#define FIRN_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)         \
  auto tmp = (expr);                                       \
  if (!tmp) return std::unexpected(std::move(tmp).error()); \
  lhs = std::move(*tmp)

// `FIRN_ASSIGN_OR_RETURN(auto x, Compute());` binds the value or returns the error.
#define FIRN_ASSIGN_OR_RETURN(lhs, expr) \
  FIRN_ASSIGN_OR_RETURN_IMPL(FIRN_CONCAT(firn_result_, __LINE__), lhs, expr)
