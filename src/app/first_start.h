// PrepareAccess: what `firn serve` does to the access records before serving.
//
// With authentication on and no principal in the default realm, bootstraps it (admin
// `bootstrap_admin`, credentials from FIRN_BOOTSTRAP_CREDENTIALS[_FILE] or generated). Generated
// credentials go to <data-dir>/admin-credentials, mode 0600, complete and fsynced (file and
// directory) before the bootstrap commits (app/private_file.h), so a crash never leaves a
// realm whose generated secret is lost; the file is removed when the bootstrap fails or another
// instance bootstrapped first. One log line names the file — never the secret. Every start ensures the configured catalog
// (catalog_name, warehouse) exists as a catalog entity of the default realm.
// Errors: the store's; kAlreadyExists when the credentials file exists but the realm still
// needs a bootstrap (remove it or supply FIRN_BOOTSTRAP_CREDENTIALS).
#pragma once

#include "app/server_config.h"
#include "auth/key_encryption.h"
#include "common/result.h"
#include "store/access_store.h"

namespace firn::app {

// The bootstrap seals the realm's signing key with keks.primary().
Status PrepareAccess(store::AccessStore& store, const ServerConfig& config,
                     const auth::KeyEncryptionKeys& keks);

}  // namespace firn::app
