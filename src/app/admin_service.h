// A CatalogService for the admin commands that act on tables without a server (move-table,
// recover, verify, replicate, drill): the database and object store opened as `firn serve`
// opens them (same flags and settings), the catalogs as the database holds them, the
// deployment's id, and grants that follow their objects. There is no caller: the operator
// holds the database itself, so every check of who may is passed, and every rule of what may
// (locations, claims, fences) still applies.
// Thread-safety: the service is thread-safe; open once per command.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "app/bootstrap_command.h"
#include "app/server_config.h"
#include "catalog/catalog_service.h"

namespace firn::app {

struct AdminService {
  ServerConfig config;
  std::shared_ptr<store::CatalogStore> store;
  std::shared_ptr<io::ObjectStore> objects;
  // Every catalog of the database by (realm, name). Before the service, which reads it (and
  // so goes first).
  std::map<std::pair<std::string, std::string>, std::shared_ptr<const catalog::CatalogInfo>>
      catalogs;
  std::unique_ptr<catalog::CatalogService> service;

  // A context in `catalog` ("" = the configured one) of `realm`; kNoSuchWarehouse when the
  // database has no such catalog (a database `firn serve` never bootstrapped has the
  // configured one only).
  Result<catalog::RequestContext> Context(const std::string& realm, const std::string& catalog,
                                          std::string request_id) const;
};

// Opens it. `ensure_deployment`: give a database without a deployment id one (a database made
// for a recovery), as the first `firn serve` would.
Result<std::unique_ptr<AdminService>> OpenAdminService(const StoreFlags& flags,
                                                       bool ensure_deployment = false);

}  // namespace firn::app
