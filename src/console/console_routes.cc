#include "console/console_routes.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <openssl/sha.h>

#include <memory>
#include <string_view>

#include "auth/privilege.h"
#include "common/encoding.h"
#include "common/gzip.h"
#include "console/assets.h"
#include "http/content_coding.h"
#include "rest/request_pipeline.h"

namespace firn::console {
namespace {

namespace json = boost::json;

constexpr std::string_view kBase = "/ui";
constexpr std::string_view kSettingsPath = "console.json";

// Scripts, styles, images and API calls from this origin only; no inline script or style, no
// plugins, no <base>, no framing by other sites, forms post only here.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

// What /ui/<path> serves: bytes, type and validator, and the bytes gzip-encoded once at start
// (empty when the server would not compress them: small or not text).
struct Served {
  Served(std::string_view type, std::string bytes, std::string tag)
      : content_type(type), body(std::move(bytes)), etag(std::move(tag)) {
    if (body.size() >= http::kGzipMinBytes) gzip = Gzip(body, kGzipLevelDefault);
  }
  std::string_view content_type;
  std::string body;
  std::string etag;
  std::string gzip;
};

http::Handler Serve(std::shared_ptr<const Served> served) {
  return [served = std::move(served)](const http::Request& req, const http::PathParams&) {
    http::Response r;
    if (http::IfNoneMatch(req.GetHeader("If-None-Match"), served->etag)) {
      r.status = 304;
    } else {
      r.status = 200;
      r.SetHeader("Content-Type", std::string(served->content_type));
      r.body = served->body;
    }
    r.SetHeader("ETag", served->etag);
    SetConsoleHeaders(r);
    if (!served->gzip.empty() && http::ShouldGzip(req, r)) http::UseGzipBody(r, served->gzip);
    return r;
  };
}

// /ui/console.json: what the console needs to know about this server before anyone logs in.
// Nothing in it is secret: the realm header is documented and the privilege lists are the
// management API's enums.
std::string SettingsJson(const ConsoleOptions& options) {
  json::object grantable;
  constexpr std::pair<std::string_view, auth::SecurableType> kTypes[] = {
      {"catalog", auth::SecurableType::kCatalog},
      {"namespace", auth::SecurableType::kNamespace},
      {"table", auth::SecurableType::kTable},
      {"view", auth::SecurableType::kView},
  };
  for (const auto& [name, type] : kTypes) {
    json::array privileges;
    for (int i = 0; i < auth::kPrivilegeCount; ++i) {
      const auto p = static_cast<auth::Privilege>(i);
      if (auth::GrantableOn(p, type)) privileges.emplace_back(auth::PrivilegeName(p));
    }
    grantable[name] = std::move(privileges);
  }
  json::object body;
  body["realmHeader"] = options.realm_header;
  body["grantable"] = std::move(grantable);
  return json::serialize(body);
}

std::string EtagOf(std::string_view bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  return "\"" + HexEncode(std::string_view(reinterpret_cast<const char*>(digest), 16)) + "\"";
}

}  // namespace

void SetConsoleHeaders(http::Response& response) {
  response.SetHeader("Content-Security-Policy", std::string(kContentSecurityPolicy));
  response.SetHeader("X-Content-Type-Options", "nosniff");
  response.SetHeader("X-Frame-Options", "DENY");
  response.SetHeader("Referrer-Policy", "no-referrer");
  response.SetHeader("Cache-Control", "no-cache");
}

void AddConsoleRoutes(http::Router& router, const ConsoleOptions& options) {
  constexpr auto kPublic = static_cast<uint32_t>(rest::RouteKind::kPublic);
  auto add = [&](const std::string& path, const http::Handler& handler) {
    router.Add(http::Method::kGet, path, handler, kPublic);
    router.Add(http::Method::kHead, path, handler, kPublic);
  };
  for (const Asset& asset : EmbeddedAssets()) {
    auto served = std::make_shared<const Served>(asset.content_type, std::string(asset.bytes),
                                                 std::string(asset.etag));
    const http::Handler handler = Serve(served);
    add(std::string(kBase) + "/" + std::string(asset.path), handler);
    if (asset.path == "index.html") {
      add(std::string(kBase), handler);
      add(std::string(kBase) + "/", handler);
    }
  }
  std::string settings = SettingsJson(options);
  std::string etag = EtagOf(settings);
  add(std::string(kBase) + "/" + std::string(kSettingsPath),
      Serve(std::make_shared<const Served>("application/json", std::move(settings),
                                           std::move(etag))));
}

}  // namespace firn::console
