// Schema migrations for the PostgreSQL catalog: the shared numbered steps
// (store/sql/sql_migrations.h) in PostgreSQL's types, applied at open.
//
// Migrate runs every missing step and records the new version in one transaction, under a
// transaction-scoped advisory lock, so instances starting together migrate exactly once and a
// crash mid-way leaves the previous schema intact. A database whose recorded version is newer
// than this binary knows is refused with kInternal and left untouched.
// Thread-safety: uses only the given connection. Errors: as PgConnection, plus the above.
#pragma once

#include <string>

#include "common/result.h"
#include "store/postgres/pg_connection.h"

namespace firn::store::postgres {

int LatestSchemaVersion();

// `schema`: created first when non-empty (the connection's search_path already names it).
Status Migrate(PgConnection& conn, const std::string& schema);

// The version recorded in schema_version; 0 when the table does not exist yet.
Result<int> SchemaVersion(PgConnection& conn);

}  // namespace firn::store::postgres
