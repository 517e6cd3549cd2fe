// The store factory: every command (`firn serve`, `firn admin …`, `firn bootstrap`) opens its
// catalog database (sqlite:///path or postgresql://…) through OpenStoreByUrl.
//
// Password (PostgreSQL only): `password` if set, else one written inside the URL, else libpq's
// own sources (PGPASSWORD, ~/.pgpass). It is passed to libpq only and never printed.
// Errors: kIllegalArgument for an unknown scheme; otherwise the backend's open errors
// (kServiceUnavailable when unreachable, kInternal when the schema is newer than this binary).
// A database that does not exist yet is created and migrated (SQLite: the file; PostgreSQL:
// the tables in an existing database).
// Ownership: the caller owns the returned store.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "common/result.h"
#include "common/secret.h"
#include "app/server_config.h"
#include "io/object_store.h"
#include "store/store.h"

namespace firn::app {

Result<std::unique_ptr<store::CatalogStore>> OpenStoreByUrl(const std::string& url,
                                                            const Secret& password);

// The object store for `config`'s S3 settings (file: always; s3: when an endpoint or keys are
// configured). The keys stay inside the store.
Result<std::unique_ptr<io::ObjectStore>> OpenObjectStore(const ServerConfig& config);

// The path of a sqlite:///path URL; kIllegalArgument for any other URL.
Result<std::string> SqlitePathOfUrl(const std::string& url);

// An admin command's PostgreSQL password: ReadSecretFile(file) (server_config.h) when `file` is set
// (kIllegalArgument if unreadable), else FIRN_DB_PASSWORD, else empty.
Result<Secret> ReadDbPassword(const std::string& file);

// `url` with any password removed, for messages.
std::string RedactedUrl(const std::string& url);

}  // namespace firn::app
