// Firn's own OpenAPI 3.0 documents, generated from the routes the router really serves.
//
// Two documents: the Iceberg REST catalog API (GET /v1/openapi.json, also under
// /api/catalog/v1/) and the management API (GET /api/management/v1/openapi.json). Each lists
// exactly the registered (method, pattern) pairs it describes: an operation Firn knows how to
// describe but did not register is left out, and a registered route without a description
// appears with a bare operation (UndocumentedRoutes names those; a unit test keeps it empty).
// Aliases are not listed twice: "/v1/<tail>" when "/v1/{prefix}<tail>" exists, and everything
// under "/api/catalog/v1" (the same routes for Polaris-configured clients).
// Operation ids, parameters and the request/response schemas are written in openapi.cc, in
// Firn's words, from what its handlers accept and answer (docs/openapi.md).
//
// Errors: none; generation is total. Thread-safety: pure functions over their inputs; the
// served documents are built once by AddOpenApiRoutes and then only read.
// Ownership: results are returned by value.
#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <vector>

#include "http/router.h"

namespace firn::rest {

boost::json::object CatalogOpenApi(const std::vector<http::Router::RouteEntry>& routes);
boost::json::object ManagementOpenApi(const std::vector<http::Router::RouteEntry>& routes);

// "<METHOD> <pattern>" of every registered route neither document describes (aliases and the
// documents' own routes excluded).
std::vector<std::string> UndocumentedRoutes(const std::vector<http::Router::RouteEntry>& routes);

// Registers the three unauthenticated GET routes serving the documents, built from what
// `router` holds at the time of the call: call it after every other route is added.
void AddOpenApiRoutes(http::Router& router);

}  // namespace firn::rest
