// RequestPipeline: the one place that decides, for every route — catalog, root (/v1/config),
// management and the token endpoint — the realm, the caller, the client string, the clock,
// and how refusals are answered and failures logged.
//
// Per request, at the http::Server's admit step (header parsed, none of the body read):
//   1. route: Router::Find; no route → the router's 404/405 ErrorModel at once;
//   2. realm: the configured realm header (AuthConfig::realm_header), else the default realm;
//      no other header is consulted, whatever the route;
//   3. client: ClientDescription (User-Agent + X-Client-* headers, at most kMaxClientBytes);
//   4. now: common/clock.h;
//   5. caller: every route except the token endpoint authenticates the Authorization header
//      against AccessState::Current() — a missing or invalid token is 401 (503 before the
//      first access snapshot) before any body is read; the token endpoint has no bearer;
//   6. body limit: the token endpoint has its own small cap (kTokenMaxBodyBytes), every other
//      route the server's max_body_bytes.
// The RequestCall established there rides in Request::context to the route's handler, which
// takes realm, caller, client and clock from it and never authenticates again. A handler
// reached without admission (Router::Dispatch in unit tests) establishes its call the same way
// (CallOf), so there is one rule either way.
//
// Errors: the Iceberg ErrorModel everywhere, the OAuth shape {"error","error_description"} on
// the token endpoint (503, 413, 500). 5xx results of handlers are logged once, by Finish, with
// the request id; secrets never reach a message.
// Thread-safety: every method is const and safe from any thread. Ownership: the pipeline
// borrows the router and the objects AccessDeps refers to; they must outlive serving.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include <functional>

#include "access/access_snapshot.h"
#include "access/access_state.h"
#include "access/authenticator.h"
#include "auth/caller.h"
#include "common/result.h"
#include "http/router.h"
#include "http/server.h"
#include "rest/request_metrics.h"

namespace firn::rest {

// What the pipeline needs to know who is asking and where.
struct AccessDeps {
  access::AccessState& state;                  // Current() snapshot: keys, principals, catalogs
  const access::Authenticator& authenticator;  // its config() names the realm header
  std::string default_catalog;                 // the catalog of unprefixed routes
  // The catalogs a caller may list (ManagementService::VisibleCatalogs), named in the answer
  // to an unknown warehouse; empty: the answer names none.
  std::function<std::vector<std::string>(std::string_view realm,
                                         std::shared_ptr<const auth::Caller> caller)>
      visible_catalogs = {};
};

// Router tags: how a route is admitted. Untagged routes (0) require a bearer token.
enum class RouteKind : uint32_t {
  kAuthenticated = 0,
  kToken = 1,   // the OAuth token endpoint: no bearer, small body cap, OAuth error shape
  kPublic = 2,  // documents anyone may read (the OpenAPI documents): no bearer, no body
};

// Body cap of the token endpoint (a form with a client secret or a subject token).
inline constexpr uint64_t kTokenMaxBodyBytes = 64u << 10;
// Longest client description kept for the audit trail.
inline constexpr size_t kMaxClientBytes = 512;

// What one request was established with, once, from its header.
struct RequestCall {
  RouteKind kind = RouteKind::kAuthenticated;
  std::string realm;
  std::string client;      // ClientDescription
  std::string user_agent;
  int64_t now_seconds = 0;
  // Authenticated routes: the snapshot the caller was judged by, and the caller (with
  // authentication off, an anonymous caller whose checks all allow). Null on the token route.
  std::shared_ptr<const access::AccessSnapshot> snapshot;
  std::shared_ptr<const auth::Caller> caller;
};

// The request's realm: the configured realm header, else the default realm.
std::string RealmOf(const access::AuthConfig& config, const http::Request& req);

// User-Agent plus every X-Client-* header, "User-Agent; X-Client-Name=value; ...", cut to
// kMaxClientBytes, for audit.
std::string ClientDescription(const http::Request& req);

// Establishes the call of `req` for a route of `kind`. Errors: kServiceUnavailable before the
// first access snapshot, kNotAuthorized (401) from authentication; never for kToken.
Result<RequestCall> EstablishCall(const AccessDeps& access, const http::Request& req,
                                  RouteKind kind);

// The call admission attached to `req` when it is of `kind`; otherwise one established now
// into `storage` (same rules). The pointer is valid while `req` and `storage` are.
Result<const RequestCall*> CallOf(const AccessDeps& access, const http::Request& req,
                                  RouteKind kind, RequestCall& storage);

// A handler's result as a response: the value, or the error as an ErrorModel (logged when 5xx).
http::Response Finish(const http::Request& req, Result<http::Response> result);

class RequestPipeline {
 public:
  // `max_body_bytes` is the server's body limit (named in 413 answers). `metrics`: where
  // every completed request is counted (none when null); it must outlive serving.
  RequestPipeline(const http::Router& router, AccessDeps access, uint64_t max_body_bytes,
                  RequestMetrics* metrics = nullptr);

  // http::ServerCallbacks::admit.
  http::Admission Admit(http::Request& req) const;
  // http::ServerCallbacks::handler: dispatches to the admitted route.
  http::Response Handle(const http::Request& req) const { return router_.Dispatch(req); }
  // 503 (overload, connection cap, body budget), 413 and 500 in the route's error shape.
  http::Response Overloaded(const http::Request& req) const;
  http::Response TooLarge(const http::Request& req) const;
  http::Response InternalError(const http::Request& req) const;
  // The access log line of every request (request id, method, path, status, µs).
  static void LogCompletion(const http::Request& req, const http::Response& res,
                            std::chrono::microseconds elapsed);

  // Every callback above, for http::Server. The pipeline must outlive the server.
  http::ServerCallbacks Callbacks() const;

 private:
  RouteKind KindOf(const http::Request& req) const;

  const http::Router& router_;
  AccessDeps access_;
  uint64_t max_body_bytes_;
  RequestMetrics* metrics_;
};

}  // namespace firn::rest
