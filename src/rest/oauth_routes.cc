#include "rest/oauth_routes.h"

namespace firn::rest {

http::Response TokenHttpResponse(access::TokenResponse r) {
  http::Response res = http::Response::Json(r.status, std::move(r.body));
  for (auto& [name, value] : r.headers) res.SetHeader(std::move(name), std::move(value));
  return res;
}

void AddOAuthRoutes(http::Router& router, access::TokenService& tokens,
                    const AccessDeps& access) {
  auto handler = [&tokens, access](const http::Request& req, const http::PathParams&) {
    RequestCall storage;
    // The token route's call never fails (no authentication).
    auto call = CallOf(access, req, RouteKind::kToken, storage);
    if (!call) return Finish(req, std::unexpected(call.error()));
    access::TokenRequest t;
    t.realm = (*call)->realm;
    t.body = req.body;
    t.authorization = std::string(req.GetHeader("Authorization"));
    t.remote_address = req.remote_address;
    return TokenHttpResponse(tokens.Handle(t, (*call)->now_seconds));
  };
  constexpr auto kTag = static_cast<uint32_t>(RouteKind::kToken);
  router.Add(http::Method::kPost, "/v1/oauth/tokens", handler, kTag);
  router.Add(http::Method::kPost, "/api/catalog/v1/oauth/tokens", handler, kTag);
}

}  // namespace firn::rest
