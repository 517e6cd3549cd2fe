// The web console's routes (docs/console.md): GET and HEAD of /ui, /ui/ (index.html) and
// /ui/<path> for every embedded file (console/assets.h), plus /ui/console.json, the settings
// the console reads at start (the realm header's name, the privileges grantable per securable
// type). Every one is a public route (rest::RouteKind::kPublic): no token, no body. The console
// itself reaches the catalog and management APIs with the user's own bearer token, so it can
// show nothing the user could not fetch.
//
// Each file is one literal route: a path that names no embedded file (/ui/x, /ui/../v1/config,
// /ui/%2e%2e/...) reaches the router's 404 ErrorModel like any unknown route. Responses carry
// a strict Content-Security-Policy (scripts, styles and connections from this origin only, no
// inline script, no framing), X-Content-Type-Options: nosniff and Cache-Control: no-cache with
// a strong ETag (If-None-Match → 304), so a new binary's console is seen at once. Files of
// 1 KiB and more are gzip-encoded once at start and sent that way to clients that accept it
// (http/content_coding.h: their own ETag, Vary: Accept-Encoding); HEAD gets the identity form.
//
// Thread-safety: register before serving; the handlers only read. Ownership: each handler owns
// what it serves (views into static storage, the settings document).
#pragma once

#include <string>

#include "http/router.h"

namespace firn::console {

struct ConsoleOptions {
  std::string realm_header = "Polaris-Realm";  // the server's realm header (AuthConfig)
};

// The headers every console response carries (Content-Security-Policy and the others above).
void SetConsoleHeaders(http::Response& response);

// Registers the console under /ui on `router`.
void AddConsoleRoutes(http::Router& router, const ConsoleOptions& options);

}  // namespace firn::console
