// `firn migrate`: every table and view of another REST catalog registered into Firn (docs/
// recovery.md, "Migrating in"). It reads the other catalog through the REST API (its config,
// namespaces, tables and views, each object's metadata-location), creates the namespaces
// (properties but `location`), and registers each metadata file through Firn's ordinary
// register path: locations, the location index and ownership claims all apply, so a table
// that another Firn deployment claims is refused. With `release`, each object is then dropped
// at the source with purgeRequested=false, in that order (register, then release), so at every
// instant the table is loadable from at least one catalog; a commit the source still accepts
// after the register lands as a foreign file, and Firn fences the table.
//
// Thread-safety: runs on the caller's thread; the service is thread-safe.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "catalog/catalog_service.h"

namespace firn::recovery {

struct MigrateOptions {
  std::string uri;         // the source catalog's base URI (…/v1 is appended)
  std::string warehouse;   // its ?warehouse= (optional)
  std::string credential;  // "client-id:secret": an OAuth2 client-credentials token
  std::string token;       // or a bearer token
  std::string scope = "PRINCIPAL_ROLE:ALL";
  bool release = false;
  bool dry_run = false;
  std::function<void(const struct MigratedObject&)> on_object;
};

struct MigratedObject {
  std::string kind;  // "namespace", "table" or "view"
  store::Identifier id;  // a namespace: its levels in `id.ns`
  std::string metadata_location;
  std::string action;    // registered, already-registered, would-register, created, exists,
                         // refused, failed
  std::string released;  // "released" / "failed: …" / "" (not asked)
  std::string detail;
};

struct MigrateReport {
  std::vector<MigratedObject> objects;
  size_t registered = 0;
  size_t failed = 0;
};

Result<MigrateReport> Migrate(catalog::CatalogService& service, const catalog::RequestContext& ctx,
                              const MigrateOptions& options);
std::string MigratedJson(const MigratedObject& object);

}  // namespace firn::recovery
