// The OAuth2 token endpoint: POST /v1/oauth/tokens and POST /api/catalog/v1/oauth/tokens,
// wired to access::TokenService. Unauthenticated by design (it is where tokens come from), so
// it is registered as RouteKind::kToken: the request pipeline admits it without a bearer and
// with its own small body cap, and gives it the realm, remote address and clock every route
// gets (request_pipeline.h). Responses and errors are OAuth-shaped JSON (see
// access/token_service.h), not the Iceberg ErrorModel.
// Thread-safety: register before serving. Ownership: the router keeps references to `tokens`
// and to the objects `access` refers to; they must outlive it.
#pragma once

#include "access/token_service.h"
#include "http/router.h"
#include "rest/request_pipeline.h"

namespace firn::rest {

void AddOAuthRoutes(http::Router& router, access::TokenService& tokens, const AccessDeps& access);

// A TokenService answer as an HTTP response.
http::Response TokenHttpResponse(access::TokenResponse r);

}  // namespace firn::rest
