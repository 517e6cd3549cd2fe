// Wiring of every Iceberg REST route to the CatalogService. One file per resource:
// config_routes.cc, namespace_routes.cc, table_routes.cc, view_routes.cc,
// transaction_routes.cc; the list, exists and rename routes tables and views share are
// object_routes.h.
#pragma once

#include "catalog/catalog_service.h"
#include "http/router.h"
#include "rest/route_registrar.h"

namespace firn::rest {

// Registers all routes; the config route advertises exactly the catalog routes registered,
// and `idempotency-key-lifetime` when `idempotency` is given (it may be null). Every route
// authenticates through `access` (see RouteRegistrar); `access` is copied, the objects it
// refers to must outlive serving.
void AddAllRoutes(http::Router& router, catalog::CatalogService& service,
                  const AccessDeps& access, IdempotencyGuard* idempotency);

// Fallbacks that answer unknown routes and wrong methods with the Iceberg ErrorModel.
http::Router::Fallbacks ErrorFallbacks();

// Per-resource registration (called by AddAllRoutes).
void AddNamespaceRoutes(RouteRegistrar& routes, catalog::CatalogService& service);
void AddTableRoutes(RouteRegistrar& routes, catalog::CatalogService& service);
void AddViewRoutes(RouteRegistrar& routes, catalog::CatalogService& service);
void AddTransactionRoutes(RouteRegistrar& routes, catalog::CatalogService& service);
void AddConfigRoute(RouteRegistrar& routes, const catalog::CatalogService& service);
// Soft delete: /api/management/v1/catalogs/{catalog}/dropped-objects (dropped_routes.cc).
void AddDroppedObjectRoutes(RouteRegistrar& routes, catalog::CatalogService& service);
// Maintenance and moves: …/catalogs/{catalog}/namespaces/{ns}/tables/{t}/maintenance and
// …/move-out (table_admin_routes.cc).
void AddTableAdminRoutes(RouteRegistrar& routes, catalog::CatalogService& service);

}  // namespace firn::rest
