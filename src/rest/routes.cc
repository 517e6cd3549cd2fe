#include "rest/routes.h"

#include "rest/error_model.h"

namespace firn::rest {

void AddAllRoutes(http::Router& router, catalog::CatalogService& service,
                  const AccessDeps& access, IdempotencyGuard* idempotency) {
  RouteRegistrar routes(router, service.catalogs(), access, idempotency);
  AddNamespaceRoutes(routes, service);
  AddTableRoutes(routes, service);
  AddViewRoutes(routes, service);
  AddTransactionRoutes(routes, service);
  AddDroppedObjectRoutes(routes, service);
  AddTableAdminRoutes(routes, service);
  AddConfigRoute(routes, service);  // last: it advertises what the others registered
}

http::Router::Fallbacks ErrorFallbacks() {
  return {
      .not_found =
          [](const http::Request&) {
            return ErrorResponse(Error(ErrorKind::kNoRoute, "No route for request"));
          },
      .method_not_allowed =
          [](const http::Request& req) {
            return ErrorResponse(Error(ErrorKind::kMethodNotAllowed,
                                       "Method " + std::string(http::MethodName(req.method)) +
                                           " is not allowed on this route"));
          },
  };
}

}  // namespace firn::rest
