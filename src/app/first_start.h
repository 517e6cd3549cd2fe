// PrepareAccess: what `firn serve` does to the access records before serving.
//
// With authentication on and no principal in the default realm, bootstraps it (admin
// `bootstrap_admin`, credentials from FIRN_BOOTSTRAP_CREDENTIALS[_FILE] or generated). Generated
// credentials go to <data-dir>/admin-credentials, created with O_EXCL and mode 0600, written
// and fsynced (file and directory) before the bootstrap commits, so a crash never leaves a
// realm whose generated secret is lost; the file is removed when the bootstrap fails or another
// instance bootstrapped first. One log line names the file — never the secret. Every start ensures the configured catalog
// (catalog_name, warehouse) exists as a catalog entity of the default realm.
// Errors: the store's; kAlreadyExists when the credentials file exists but the realm still
// needs a bootstrap (remove it or supply FIRN_BOOTSTRAP_CREDENTIALS).
#pragma once

#include "app/server_config.h"
#include "common/result.h"
#include "store/access_store.h"

namespace firn::app {

Status PrepareAccess(store::AccessStore& store, const ServerConfig& config);

}  // namespace firn::app
