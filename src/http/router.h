// Router: routes are data — (method, pattern) → handler. Patterns use "{name}" segments that
// match exactly one raw path segment (never decoded, so "%2F", "%1F" and "+" stay as sent).
//
// Matching rules (strict on purpose, so there is exactly one way to spell each URL):
// - The path is split on '/'; a pattern matches only paths with the same number of segments.
//   "/v1/config/" therefore does NOT match "/v1/config" (its last segment is empty).
// - A literal segment matches byte-for-byte (case-sensitive). A "{name}" segment matches one
//   non-empty raw segment.
// - Among patterns that match the path, the one with a literal earliest wins (compared
//   segment by segment); the first such pattern that has a handler for the method is used.
// - No implicit HEAD→GET: register HEAD routes explicitly.
// - Unknown path → `not_found`. Path known under other methods only → `method_not_allowed`,
//   and the router sets `Allow` (e.g. "GET, HEAD") on its response.
// - Adding the same (method, pattern) twice replaces the handler (and its tag).
// - Each (method, pattern) carries a caller-defined `tag` (0 unless given) that Find reports
//   without calling the handler, so a caller can decide how to treat a request (e.g. before
//   reading its body) from the route it will reach.
//
// Thread-safety: Add before serving; Dispatch is then safe from any number of threads.
// Errors: Dispatch does not catch exceptions from handlers (the server's last-resort catch
// does). Both fallbacks are supplied by the caller, so error bodies stay in the caller's format
// (the Iceberg ErrorModel in rest/); when a fallback is empty a bare 404/405 is returned.
// Ownership: PathParams views point into the router's patterns and request.path; they are valid
// for the duration of the handler call.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "http/http_types.h"

namespace firn::http {

using Handler = std::function<Response(const Request&, const PathParams&)>;

class Router {
 public:
  struct Fallbacks {
    std::function<Response(const Request&)> not_found;
    std::function<Response(const Request&)> method_not_allowed;
  };

  // Longest pattern accepted by Add, in segments; longer paths are always 404.
  static constexpr size_t kMaxSegments = 32;

  explicit Router(Fallbacks fallbacks);
  ~Router();
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // `pattern` like "/v1/{prefix}/namespaces/{namespace}" (must start with '/', at most
  // kMaxSegments segments; a violating pattern is ignored and logged).
  void Add(Method method, std::string pattern, Handler handler, uint32_t tag = 0);

  // The route Dispatch would call for `request`, without calling it.
  struct Found {
    bool found = false;  // false: Dispatch answers with a fallback (404 or 405)
    uint32_t tag = 0;
    std::string_view pattern;  // the route's pattern as added (valid while the router lives)
  };
  Found Find(const Request& request) const;

  Response Dispatch(const Request& request) const;

  // Every (method, pattern) registered, in registration order of the patterns (methods in
  // Method order). For describing the served API (rest/openapi.h); not for dispatching.
  struct RouteEntry {
    Method method;
    std::string pattern;
  };
  std::vector<RouteEntry> Routes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace firn::http
