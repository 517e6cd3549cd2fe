// Router: routes are data — (method, pattern) → handler. Patterns use "{name}" segments that
// match exactly one raw path segment (never decoded, so "%2F" and "%1F" stay intact).
//
// Thread-safety: Add* before serving; Dispatch is then safe from any thread.
// Unknown path → 404 via the `not_found` handler; known path, other method → 405 via
// `method_not_allowed`. Both fallbacks are supplied by the caller, so error bodies stay in
// the caller's format (the Iceberg ErrorModel in rest/).
#pragma once

#include <functional>
#include <memory>
#include <string>
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

  explicit Router(Fallbacks fallbacks);
  ~Router();
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // `pattern` like "/v1/{prefix}/namespaces/{namespace}". Literal segments match exactly.
  // When two patterns match, the one with more literal segments earlier wins.
  void Add(Method method, std::string pattern, Handler handler);

  Response Dispatch(const Request& request) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace firn::http
