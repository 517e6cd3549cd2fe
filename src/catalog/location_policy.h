// Location policy: which storage locations a catalog may create, register, read or delete.
//
// A location is compared in normalised form: the scheme as the storage registry
// (io/storage_schemes.h) names it canonically (s3a/s3n read as s3, a bare absolute path as
// file; a scheme no store serves in lower case), the authority (file's "localhost" as none),
// and an absolute path with duplicate slashes and `.` segments collapsed and no trailing slash.
// A `..` segment, a relative path or a missing scheme-specific part is refused outright: such a
// location could name anything.
// Containment is on path-segment boundaries: file:///wh/a covers file:///wh/a/x, never
// file:///wh/ab.
//
// Thread-safety: pure functions. Errors: CheckLocationAllowed answers kForbidden (403).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog_registry.h"
#include "catalog/request_context.h"
#include "common/result.h"

namespace firn::catalog {

// The canonical form of `location`, or kIllegalArgument saying why it has none.
Result<std::string> NormalizeLocation(std::string_view location);

// Whether `location` is `prefix` or inside it. False when either cannot be normalised.
bool IsUnder(std::string_view location, std::string_view prefix);

// Ok iff `location` is inside one of the operator's storage roots (an empty list = no roots
// configured: anything); otherwise kForbidden "Location <loc> is outside the server's storage
// roots (<list>)". No catalog, table or file of Firn's may leave them, whoever asks.
Status CheckInsideStorageRoots(const std::vector<std::string>& roots, std::string_view location);

// Ok iff `location` is under the catalog's base_location or one of its allowed_locations;
// otherwise kForbidden "Location <loc> is not allowed for catalog '<c>'; allowed: <list>".
Status CheckLocationAllowed(const CatalogInfo& catalog, std::string_view location);

// The request's catalog: ctx.catalog, else the registry's entry for ctx.scope.catalog, else the
// registry default (hand-built test contexts).
const CatalogInfo& CatalogOf(const RequestContext& ctx, const CatalogRegistry& registry);

// CheckLocationAllowed for the request's catalog, and inside the registry's storage roots.
Status CheckLocationAllowed(const RequestContext& ctx, const CatalogRegistry& registry,
                            std::string_view location);

}  // namespace firn::catalog
