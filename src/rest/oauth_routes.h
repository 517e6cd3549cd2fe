// The OAuth2 token endpoint: POST /v1/oauth/tokens and POST /api/catalog/v1/oauth/tokens,
// wired to access::TokenService. Unauthenticated by design (it is where tokens come from);
// the realm comes from the configured realm header, else the default realm. Responses and
// errors are OAuth-shaped JSON (see access/token_service.h), not the Iceberg ErrorModel.
// Thread-safety: register before serving. Ownership: the router keeps references to
// `tokens` and `config`; both must outlive it.
#pragma once

#include "access/authenticator.h"
#include "access/token_service.h"
#include "http/router.h"

namespace firn::rest {

void AddOAuthRoutes(http::Router& router, access::TokenService& tokens,
                    const access::AuthConfig& config);

}  // namespace firn::rest
