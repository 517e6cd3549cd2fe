// Routes of Polaris's management API (/api/management/v1, polaris-management-service.yml) and
// Firn's audit listing (GET /api/management/v1/audit), wired to access::ManagementService.
//
// Every request runs on the request pipeline like the catalog routes (request_pipeline.h):
// realm from the configured realm header (default "Polaris-Realm") else the default realm,
// authenticated from the header before the body is read. Bodies follow the spec's schemas; errors are the Iceberg ErrorModel
// ({"error":{"message","type","code"}}); malformed JSON is 400.
// Thread-safety: register before serving; handlers run concurrently. Ownership: the router
// keeps references to `service`, `state` and `authenticator`, which must outlive it.
#pragma once

#include "access/access_state.h"
#include "access/authenticator.h"
#include "access/management_service.h"
#include "http/router.h"

namespace firn::rest {

void AddManagementRoutes(http::Router& router, access::ManagementService& service,
                         access::AccessState& state, const access::Authenticator& authenticator);

}  // namespace firn::rest
