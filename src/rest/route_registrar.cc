#include "rest/route_registrar.h"

#include <spdlog/spdlog.h>

#include "common/log.h"
#include "rest/error_model.h"
#include "rest/path_codec.h"

namespace firn::rest {
namespace {

constexpr std::string_view kBases[] = {"/v1", "/api/catalog/v1"};

Result<catalog::RequestContext> MakeContext(const catalog::CatalogRegistry& catalogs,
                                            const http::Request& req,
                                            const http::PathParams& params) {
  catalog::RequestContext ctx;
  ctx.request_id = req.request_id;
  ctx.user_agent = std::string(req.GetHeader("User-Agent"));
  ctx.scope.catalog = catalogs.Default().name;
  if (std::string_view raw = PathParam(params, "prefix"); !raw.empty()) {
    auto prefix = FormDecode(raw);
    if (!prefix) return std::unexpected(prefix.error());
    if (!catalogs.Find(*prefix)) {
      return Fail(ErrorKind::kNoSuchWarehouse, "Catalog does not exist: " + *prefix);
    }
    ctx.scope.catalog = std::move(*prefix);
  }
  return ctx;
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

}  // namespace

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
  auto wrapped = [handler = std::move(handler), &catalogs = catalogs_, guard](
                     const http::Request& req, const http::PathParams& params) {
    auto ctx = MakeContext(catalogs, req, params);
    if (!ctx) return Finish(req, std::unexpected(ctx.error()));
    auto run = [&] { return Finish(req, handler(req, params, *ctx)); };
    return guard ? guard->Run(req, ctx->scope, run) : run();
  };
  for (std::string_view base : kBases) {
    router_.Add(method, std::string(base) + "/{prefix}" + std::string(tail), wrapped);
    router_.Add(method, std::string(base) + std::string(tail), wrapped);
  }
}

void RouteRegistrar::AddRootRoute(http::Method method, std::string_view tail,
                                  http::Handler handler) {
  for (std::string_view base : kBases) {
    router_.Add(method, std::string(base) + std::string(tail), handler);
  }
}

}  // namespace firn::rest
