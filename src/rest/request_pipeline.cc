#include "rest/request_pipeline.h"

#include <spdlog/spdlog.h>

#include <strings.h>

#include <utility>

#include "access/token_service.h"
#include "common/clock.h"
#include "common/log.h"
#include "rest/error_model.h"
#include "rest/oauth_routes.h"

namespace firn::rest {
namespace {

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && strncasecmp(s.data(), prefix.data(), prefix.size()) == 0;
}

const RequestCall* AttachedCall(const http::Request& req) {
  return std::any_cast<RequestCall>(&req.context);
}

// A refusal in the route's shape: OAuth on the token endpoint, the ErrorModel elsewhere.
http::Response Refusal(RouteKind kind, const Error& e, std::string_view oauth_error) {
  if (kind != RouteKind::kToken) return ErrorResponse(e);
  http::Response r = TokenHttpResponse(access::OAuthError(MapError(e.kind).status, oauth_error,
                                                          e.message));
  if (r.status == 503) r.SetHeader("Retry-After", "1");
  return r;
}

}  // namespace

std::string RealmOf(const access::AuthConfig& config, const http::Request& req) {
  std::string_view realm = req.GetHeader(config.realm_header);
  return std::string(realm.empty() ? std::string_view(config.default_realm) : realm);
}

std::string ClientDescription(const http::Request& req) {
  std::string out(req.GetHeader("User-Agent"));
  for (const http::Header& h : req.headers) {
    if (!StartsWithNoCase(h.name, "X-Client-")) continue;
    if (!out.empty()) out += "; ";
    out += h.name + "=" + h.value;
    if (out.size() >= kMaxClientBytes) break;
  }
  if (out.size() > kMaxClientBytes) out.resize(kMaxClientBytes);
  return out;
}

Result<RequestCall> EstablishCall(const AccessDeps& access, const http::Request& req,
                                  RouteKind kind) {
  const access::AuthConfig& config = access.authenticator.config();
  RequestCall call;
  call.kind = kind;
  call.realm = RealmOf(config, req);
  call.client = ClientDescription(req);
  call.user_agent = std::string(req.GetHeader("User-Agent"));
  call.now_seconds = NowMillis() / 1000;
  if (kind == RouteKind::kToken || kind == RouteKind::kPublic) return call;
  call.snapshot = access.state.Current();
  if (!call.snapshot) {
    // Before the first access snapshot loads there is nothing to judge a caller by.
    return Fail(ErrorKind::kServiceUnavailable, "Service is starting, retry later",
                "no access snapshot loaded");
  }
  auto caller = access.authenticator.Authenticate(call.realm, req.GetHeader("Authorization"),
                                                  *call.snapshot, call.now_seconds);
  if (!caller) return std::unexpected(caller.error());
  call.caller = std::move(*caller);
  return call;
}

Result<const RequestCall*> CallOf(const AccessDeps& access, const http::Request& req,
                                  RouteKind kind, RequestCall& storage) {
  if (const RequestCall* attached = AttachedCall(req); attached && attached->kind == kind) {
    return attached;
  }
  auto call = EstablishCall(access, req, kind);
  if (!call) return std::unexpected(call.error());
  storage = std::move(*call);
  return &storage;
}

http::Response Finish(const http::Request& req, Result<http::Response> result) {
  if (result) return std::move(*result);
  const Error& e = result.error();
  if (MapError(e.kind).status >= 500) {
    spdlog::error(R"("msg":"request failed","request_id":"{}","path":"{}","kind":"{}",)"
                  R"("message":"{}","detail":"{}")",
                  req.request_id, log::Escape(req.path), ErrorKindName(e.kind),
                  log::Escape(e.message), log::Escape(e.detail));
  }
  return ErrorResponse(e);
}

RequestPipeline::RequestPipeline(const http::Router& router, AccessDeps access,
                                 uint64_t max_body_bytes, RequestMetrics* metrics)
    : router_(router),
      access_(std::move(access)),
      max_body_bytes_(max_body_bytes),
      metrics_(metrics) {}

http::Admission RequestPipeline::Admit(http::Request& req) const {
  http::Admission admission;
  const http::Router::Found route = router_.Find(req);
  if (!route.found) {
    admission.refusal = router_.Dispatch(req);  // the 404 / 405 fallback; calls no handler
    return admission;
  }
  req.route = route.pattern;
  const auto kind = static_cast<RouteKind>(route.tag);
  const RouteKind admitted =
      kind == RouteKind::kToken || kind == RouteKind::kPublic ? kind : RouteKind::kAuthenticated;
  auto call = EstablishCall(access_, req, admitted);
  if (!call) {
    admission.refusal = Finish(req, std::unexpected(call.error()));
    return admission;
  }
  if (kind == RouteKind::kToken) admission.max_body_bytes = kTokenMaxBodyBytes;
  if (kind == RouteKind::kPublic) admission.max_body_bytes = 0;
  req.context = std::move(*call);
  return admission;
}

RouteKind RequestPipeline::KindOf(const http::Request& req) const {
  if (const RequestCall* call = AttachedCall(req)) return call->kind;
  // Refused before admission (worker queue full): judge by the route alone.
  const http::Router::Found route = router_.Find(req);
  return route.found && static_cast<RouteKind>(route.tag) == RouteKind::kToken
             ? RouteKind::kToken
             : RouteKind::kAuthenticated;
}

http::Response RequestPipeline::Overloaded(const http::Request& req) const {
  return Refusal(KindOf(req),
                 Error(ErrorKind::kServiceUnavailable, "Server is overloaded, retry later"),
                 "temporarily_unavailable");
}

http::Response RequestPipeline::TooLarge(const http::Request& req) const {
  const RouteKind kind = KindOf(req);
  const uint64_t limit = kind == RouteKind::kToken ? std::min(kTokenMaxBodyBytes, max_body_bytes_)
                                                   : max_body_bytes_;
  return Refusal(kind,
                 Error(ErrorKind::kPayloadTooLarge,
                       "Request body exceeds the limit of " + std::to_string(limit) + " bytes"),
                 "invalid_request");
}

http::Response RequestPipeline::InternalError(const http::Request& req) const {
  return Refusal(KindOf(req), Error(ErrorKind::kInternal, "Internal server error"),
                 "server_error");
}

void RequestPipeline::LogCompletion(const http::Request& req, const http::Response& res,
                                    std::chrono::microseconds elapsed) {
  const auto level = res.status >= 500   ? spdlog::level::warn
                     : res.status >= 400 ? spdlog::level::info
                                         : spdlog::level::debug;
  if (!spdlog::should_log(level)) return;
  spdlog::log(level,
              R"("msg":"request","request_id":"{}","method":"{}","path":"{}","status":{},"us":{})",
              req.request_id, http::MethodName(req.method), log::Escape(req.path), res.status,
              elapsed.count());
}

http::ServerCallbacks RequestPipeline::Callbacks() const {
  return http::ServerCallbacks{
      .admit = [this](http::Request& req) { return Admit(req); },
      .handler = [this](const http::Request& req) { return Handle(req); },
      .overloaded = [this](const http::Request& req) { return Overloaded(req); },
      .too_large = [this](const http::Request& req) { return TooLarge(req); },
      .internal_error = [this](const http::Request& req) { return InternalError(req); },
      .on_complete =
          [this](const http::Request& req, const http::Response& res,
                 std::chrono::microseconds elapsed) {
            LogCompletion(req, res, elapsed);
            if (metrics_ != nullptr) metrics_->Record(req, res.status, elapsed);
          },
  };
}

}  // namespace firn::rest
