// The PostgreSQL CatalogStore: the shared backend for many firn instances.
//
// Thread-safety: the store is safe for concurrent use; it keeps a bounded pool of libpq
// connections (options.max_connections), each with its own prepared statements.
// Built on the shared SQL layer (store/sql/): this backend is its connection, pool, runner,
// migrations and error mapping. Consistency: READ COMMITTED. A pointer swap is one
// `UPDATE … WHERE metadata_location = expected` (the row count decides); multi-statement writes
// run in one transaction that locks the rows it checks (FOR KEY SHARE / FOR UPDATE), so the
// same races SQLite serialises are decided by row locks. Serialization failures, deadlocks and lost insert races rerun the
// transaction (options.max_attempts), then answer kServiceUnavailable.
// Errors: the CatalogStore contract (store/store.h); see pg_connection.h for the mapping of
// database failures. Opening fails with kServiceUnavailable when the server cannot be reached,
// and kInternal when its schema is newer than this binary knows (left untouched).
// Durability: a write is acknowledged only after PostgreSQL acknowledged its COMMIT.
// Ownership: the store owns its connections. The password is only passed to libpq.
#pragma once

#include <memory>
#include <string>

#include "common/result.h"
#include "store/postgres/pg_options.h"
#include "store/postgres/pg_url.h"
#include "store/store.h"

namespace firn::store {

// Connects to `url` (postgresql://… or postgres://…, or a libpq key=value string), migrates
// the schema and returns the store.
Result<std::unique_ptr<CatalogStore>> OpenPostgresStore(
    const std::string& url, const postgres::PostgresOptions& options = {});

}  // namespace firn::store
