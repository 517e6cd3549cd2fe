#include "rest/route_registrar.h"

#include <spdlog/spdlog.h>

#include <strings.h>

#include "common/clock.h"
#include "common/log.h"
#include "rest/error_model.h"
#include "rest/path_codec.h"

namespace firn::rest {
namespace {

constexpr std::string_view kBases[] = {"/v1", "/api/catalog/v1"};

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && strncasecmp(s.data(), prefix.data(), prefix.size()) == 0;
}

http::Response Finish(const http::Request& req, Result<http::Response> result) {
  if (result) return std::move(*result);
  const Error& e = result.error();
  if (MapError(e.kind).status >= 500) {
    spdlog::error(R"("msg":"request failed","request_id":"{}","kind":"{}","message":"{}","detail":"{}")",
                  req.request_id, ErrorKindName(e.kind), log::Escape(e.message),
                  log::Escape(e.detail));
  }
  return ErrorResponse(e);
}

int64_t NowSeconds() { return NowMillis() / 1000; }

}  // namespace

std::string ClientDescription(const http::Request& req) {
  std::string out(req.GetHeader("User-Agent"));
  for (const http::Header& h : req.headers) {
    if (!StartsWithNoCase(h.name, "X-Client-")) continue;
    if (!out.empty()) out += "; ";
    out += h.name + "=" + h.value;
  }
  return out;
}

Result<catalog::RequestContext> MakeRequestContext(const AccessDeps& access,
                                                   const catalog::CatalogRegistry& catalogs,
                                                   const http::Request& req,
                                                   const http::PathParams& params,
                                                   int64_t now_seconds,
                                                   bool require_catalog) {
  const access::AuthConfig& config = access.authenticator.config();
  catalog::RequestContext ctx;
  ctx.request_id = req.request_id;
  ctx.user_agent = std::string(req.GetHeader("User-Agent"));
  ctx.client = ClientDescription(req);
  std::string_view realm = req.GetHeader(config.realm_header);
  ctx.scope.realm = std::string(realm.empty() ? std::string_view(config.default_realm) : realm);

  std::shared_ptr<const access::AccessSnapshot> snapshot = access.state.Current();
  if (!snapshot) {
    return Fail(ErrorKind::kServiceUnavailable, "Service is starting, retry later",
                "no access snapshot loaded");
  }
  // Authentication before anything that could reveal whether a catalog exists.
  auto caller = access.authenticator.Authenticate(ctx.scope.realm, req.GetHeader("Authorization"),
                                                  *snapshot, now_seconds);
  if (!caller) return std::unexpected(caller.error());
  ctx.caller = std::move(*caller);

  ctx.scope.catalog = access.default_catalog;
  if (std::string_view raw = PathParam(params, "prefix"); !raw.empty()) {
    auto prefix = FormDecode(raw);
    if (!prefix) return std::unexpected(prefix.error());
    ctx.scope.catalog = std::move(*prefix);
  }
  ctx.catalog = ResolveCatalog(access, catalogs, *snapshot, ctx.scope.realm, ctx.scope.catalog);
  if (!ctx.catalog && require_catalog) {
    return Fail(ErrorKind::kNoSuchWarehouse, "Catalog does not exist: " + ctx.scope.catalog);
  }
  return ctx;
}

std::shared_ptr<const catalog::CatalogInfo> ResolveCatalog(const AccessDeps& access,
                                                           const catalog::CatalogRegistry& catalogs,
                                                           const access::AccessSnapshot& snapshot,
                                                           std::string_view realm,
                                                           std::string_view name) {
  auto found = snapshot.FindCatalog(realm, name);
  if (found || access.authenticator.config().enabled) return found;
  // Authentication off and nothing bootstrapped: serve the configured catalogs.
  if (const catalog::CatalogInfo* info = catalogs.Find(name)) {
    return std::make_shared<const catalog::CatalogInfo>(*info);
  }
  return nullptr;
}

std::string_view PathParam(const http::PathParams& params, std::string_view name) {
  for (const auto& [key, value] : params) {
    if (key == name) return value;
  }
  return {};
}

void RouteRegistrar::AddCatalogRoute(http::Method method, std::string_view tail,
                                     CatalogHandler handler, KeyedRetries keyed) {
  endpoints_.push_back(std::string(http::MethodName(method)) + " /v1/{prefix}" +
                       std::string(tail));
  IdempotencyGuard* guard = keyed == KeyedRetries::kYes ? idempotency_ : nullptr;
  auto wrapped = [handler = std::move(handler), &catalogs = catalogs_, access = access_, guard](
                     const http::Request& req, const http::PathParams& params) {
    auto ctx = MakeRequestContext(access, catalogs, req, params, NowSeconds());
    if (!ctx) return Finish(req, std::unexpected(ctx.error()));
    auto run = [&] { return Finish(req, handler(req, params, *ctx)); };
    if (!guard) return run();
    const std::string_view principal =
        ctx->caller ? std::string_view(ctx->caller->subject.principal) : std::string_view();
    return guard->Run(req, ctx->scope, principal, run);
  };
  for (std::string_view base : kBases) {
    router_.Add(method, std::string(base) + "/{prefix}" + std::string(tail), wrapped);
    router_.Add(method, std::string(base) + std::string(tail), wrapped);
  }
}

void RouteRegistrar::AddRootRoute(http::Method method, std::string_view tail,
                                  CatalogHandler handler) {
  auto wrapped = [handler = std::move(handler), &catalogs = catalogs_, access = access_](
                     const http::Request& req, const http::PathParams& params) {
    auto ctx = MakeRequestContext(access, catalogs, req, {}, NowSeconds(),
                                  /*require_catalog=*/false);
    if (!ctx) return Finish(req, std::unexpected(ctx.error()));
    return Finish(req, handler(req, params, *ctx));
  };
  for (std::string_view base : kBases) {
    router_.Add(method, std::string(base) + std::string(tail), wrapped);
  }
}

}  // namespace firn::rest
