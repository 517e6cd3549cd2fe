// The CatalogStore (with its IdempotencyStore and AccessStore parts) of every SQL backend,
// written once over a backend's Runner (sql_session.h). A backend supplies only its connections,
// pool, runner (transactions, retries, group commit), migrations and error mapping.
//
// Which Runner mode each operation uses is part of the contract the backends rely on:
//   reads of one statement          Read(kSingle)       (LoadPointer: the hot path)
//   list operations                 Read(kSnapshot)     (existence check + page, one snapshot)
//   a pointer swap / replace / drop Write(kSingle)      (one statement; autocommit where possible)
//   records whose replay is harmless Write(kIdempotent) (acks, idempotency records)
//   everything else, and any write with audit rows      Write(kTransaction)
// Audit rows given with a write are appended in the same transaction, after the change succeeds.
//
// Thread-safety: safe for concurrent use (the Runner is). Errors: the CatalogStore contract
// (store/store.h). Ownership: owns the Runner.
#pragma once

#include <memory>

#include "store/sql/sql_session.h"
#include "store/store.h"

namespace firn::store {

std::unique_ptr<CatalogStore> NewSqlCatalogStore(std::unique_ptr<sql::Runner> runner);

}  // namespace firn::store
