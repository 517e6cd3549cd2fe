// OpenStoreByUrl: opens a catalog database for an admin command (sqlite:///path or
// postgresql://…), the same way `firn serve` does.
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
#include <string>

#include "common/result.h"
#include "common/secret.h"
#include "store/store.h"

namespace firn::app {

Result<std::unique_ptr<store::CatalogStore>> OpenStoreByUrl(const std::string& url,
                                                            const Secret& password);

// The path of a sqlite:///path URL; kIllegalArgument for any other URL.
Result<std::string> SqlitePathOfUrl(const std::string& url);

// An admin command's PostgreSQL password: the file's content without trailing newlines when
// `file` is set (kIllegalArgument if unreadable), else FIRN_DB_PASSWORD, else empty.
Result<Secret> ReadDbPassword(const std::string& file);

// `url` with any password removed, for messages.
std::string RedactedUrl(const std::string& url);

}  // namespace firn::app
