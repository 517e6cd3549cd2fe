// How the server's storage settings become the pieces that use them: the S3 connection, the
// default catalog, and credential vending (docs/vending.md). One place, so the object store,
// first start and the vendor cannot read the same settings differently.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "app/server_config.h"
#include "catalog/catalog_registry.h"
#include "catalog/credential_vending.h"
#include "io/s3/s3_config.h"

namespace firn::app {

// The server's own S3 connection; nullopt when neither an endpoint nor keys are configured.
std::optional<io::s3::S3Config> S3ConfigOf(const ServerConfig& config);

// The default catalog of a new deployment: DefaultCatalogBase, storage type S3 when the
// warehouse is on S3 (FILE otherwise). Its storage profile is empty: vending falls back to the
// server's settings for every field.
catalog::CatalogInfo DefaultCatalogInfo(const ServerConfig& config);

// The named server-side key sets of `s3_key_sets` ("name=path,…"), read from their files.
// kIllegalArgument naming the entry (never a key) for a malformed list, a bad name (letters,
// digits, '-', '_'; at most 64), a name given twice, an unreadable file, or a file without both
// access_key_id and secret_access_key or with any other line.
Result<std::map<std::string, io::s3::Credentials>> S3KeySetsOf(const ServerConfig& config);

// The vendor's settings, key sets included; nullopt when the server has no S3 connection
// (nothing to vend, nothing to reach). Errors: S3KeySetsOf's.
Result<std::optional<catalog::VendingSettings>> VendingSettingsOf(const ServerConfig& config);

}  // namespace firn::app
