#include "rest/route_registrar.h"

#include "common/macros.h"
#include "rest/path_codec.h"

namespace firn::rest {
namespace {

constexpr std::string_view kBases[] = {"/v1", "/api/catalog/v1"};

}  // namespace

Result<catalog::RequestContext> MakeRequestContext(const AccessDeps& access,
                                                   const catalog::CatalogRegistry& catalogs,
                                                   const http::Request& req,
                                                   const http::PathParams& params,
                                                   bool require_catalog) {
  RequestCall storage;
  // Authentication (in the call) comes before anything that could reveal whether a catalog
  // exists.
  FIRN_ASSIGN_OR_RETURN(const RequestCall* call,
                        CallOf(access, req, RouteKind::kAuthenticated, storage));
  catalog::RequestContext ctx;
  ctx.request_id = req.request_id;
  ctx.user_agent = call->user_agent;
  ctx.client = call->client;
  ctx.scope.realm = call->realm;
  ctx.caller = call->caller;

  ctx.scope.catalog = access.default_catalog;
  if (std::string_view raw = PathParam(params, "prefix"); !raw.empty()) {
    auto prefix = FormDecode(raw);
    if (!prefix) return std::unexpected(prefix.error());
    ctx.scope.catalog = std::move(*prefix);
  }
  ctx.catalog =
      ResolveCatalog(access, catalogs, *call->snapshot, ctx.scope.realm, ctx.scope.catalog);
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
    auto ctx = MakeRequestContext(access, catalogs, req, params);
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

void RouteRegistrar::AddManagementCatalogRoute(http::Method method, std::string_view tail,
                                               CatalogHandler handler) {
  auto wrapped = [handler = std::move(handler), &catalogs = catalogs_, access = access_](
                     const http::Request& req, const http::PathParams& params) {
    // The management API names the catalog {catalogName}; it is the catalog routes' prefix.
    http::PathParams with_prefix = params;
    for (auto& [key, value] : with_prefix) {
      if (key == "catalogName") key = "prefix";
    }
    auto ctx = MakeRequestContext(access, catalogs, req, with_prefix);
    if (!ctx) return Finish(req, std::unexpected(ctx.error()));
    return Finish(req, handler(req, params, *ctx));
  };
  router_.Add(method, "/api/management/v1/catalogs/{catalogName}" + std::string(tail),
              std::move(wrapped));
}

void RouteRegistrar::AddRootRoute(http::Method method, std::string_view tail,
                                  CatalogHandler handler) {
  auto wrapped = [handler = std::move(handler), &catalogs = catalogs_, access = access_](
                     const http::Request& req, const http::PathParams& params) {
    auto ctx = MakeRequestContext(access, catalogs, req, {}, /*require_catalog=*/false);
    if (!ctx) return Finish(req, std::unexpected(ctx.error()));
    return Finish(req, handler(req, params, *ctx));
  };
  for (std::string_view base : kBases) {
    router_.Add(method, std::string(base) + std::string(tail), wrapped);
  }
}

}  // namespace firn::rest
