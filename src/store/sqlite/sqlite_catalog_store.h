// The SQLite CatalogStore: the embedded default backend (one database file per data dir).
//
// Thread-safety: the returned store is safe for concurrent use. Writes are serialised in
// process by one writer connection (each a BEGIN IMMEDIATE transaction); reads use a pool of
// read-only connections and run concurrently with writes (WAL).
// Durability: journal_mode=WAL, synchronous=FULL: a returned write survives power loss.
// Errors: the CatalogStore contract (store/store.h). Opening fails with kServiceUnavailable
// when the file cannot be opened, and kInternal when the database schema is newer than this
// binary knows (the file is left untouched).
// Ownership: the store owns its connections; `path` must name a file (not ":memory:", which
// would give each connection its own database).
#pragma once

#include <memory>
#include <string>

#include "common/result.h"
#include "store/sqlite/sqlite_connection.h"
#include "store/store.h"

namespace firn::store {

// Opens (creating if needed) and migrates the database at `path`.
Result<std::unique_ptr<CatalogStore>> OpenSqliteStore(const std::string& path);
Result<std::unique_ptr<CatalogStore>> OpenSqliteStore(const std::string& path,
                                                      const sqlite::SqliteOptions& options);

}  // namespace firn::store
