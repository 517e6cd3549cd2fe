// Schema migrations for the SQLite catalog store: the shared numbered steps
// (store/sql/sql_migrations.h) in SQLite's types, applied at open inside one BEGIN IMMEDIATE
// transaction, tracked in PRAGMA user_version.
//
// Thread-safety: call with exclusive use of the connection (the store does so at open).
// Errors: a database whose user_version is newer than kLatestSchemaVersion is refused with
// kInternal and left untouched; SQLite failures map through SqliteError().
#pragma once

#include "common/result.h"
#include "store/sqlite/sqlite_connection.h"

namespace firn::store::sqlite {

// The newest schema this binary knows.
int LatestSchemaVersion();

// Brings the database up to LatestSchemaVersion(). Idempotent.
Status Migrate(SqliteConnection& conn);

// The database's current user_version.
Result<int> SchemaVersion(SqliteConnection& conn);

}  // namespace firn::store::sqlite
