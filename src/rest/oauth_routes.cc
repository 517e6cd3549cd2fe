#include "rest/oauth_routes.h"

#include <chrono>

namespace firn::rest {

void AddOAuthRoutes(http::Router& router, access::TokenService& tokens,
                    const access::AuthConfig& config) {
  auto handler = [&tokens, &config](const http::Request& req, const http::PathParams&) {
    access::TokenRequest t;
    std::string_view realm = req.GetHeader(config.realm_header);
    t.realm = std::string(realm.empty() ? std::string_view(config.default_realm) : realm);
    t.body = req.body;
    t.authorization = std::string(req.GetHeader("Authorization"));
    t.remote_address = req.remote_address;
    int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
    access::TokenResponse r = tokens.Handle(t, now);
    http::Response res = http::Response::Json(r.status, std::move(r.body));
    for (auto& [name, value] : r.headers) res.SetHeader(std::move(name), std::move(value));
    return res;
  };
  router.Add(http::Method::kPost, "/v1/oauth/tokens", handler);
  router.Add(http::Method::kPost, "/api/catalog/v1/oauth/tokens", handler);
}

}  // namespace firn::rest
