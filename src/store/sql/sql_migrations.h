// The catalog schema's numbered migration steps, written once for every backend.
//
// Step N brings the schema from version N-1 to N; a backend runs the missing steps and records
// the new version in one transaction of its own (sqlite_migrations.h, pg_migrations.h). The
// steps name column types by role ({key}, {int64}, …, see SchemaDialect); each backend spells
// them its way, so both schemas have the same tables, columns, keys, checks and indexes and
// differ only where the databases do. The schema they create: docs/db-schema.md.
// Shipped steps are never edited (a database migrated by an older binary must look like a
// fresh one; tests/unit/store/schema_pin_test.cc pins both results); a change is a new step.
//
// Thread-safety: pure functions. Errors: ApplySchemaSteps refuses a database whose version is
// newer than this binary knows with kInternal (nothing run); otherwise `run`'s first error.
#pragma once

#include <string>
#include <string_view>

#include "common/function_ref.h"
#include "common/result.h"

namespace firn::store::sql {

// One backend's spelling of the column roles the steps use.
struct SchemaDialect {
  std::string_view key;            // {key}: text compared and ordered byte by byte (keys, names)
  std::string_view text;           // {text}: other text
  std::string_view int32;          // {int32}
  std::string_view int64;          // {int64}
  std::string_view generated_id;   // {generated_id}: a primary key the database assigns
  std::string_view increasing_id;  // {increasing_id}: the same, strictly increasing and never
                                   // reused even after deletes (audit paging relies on it)
  std::string_view transaction_id; // {transaction_id}: an expression for the number of the
                                   // writing transaction, a constant where one write
                                   // transaction runs at a time (store/event_store.h)
};

// The newest schema version this binary knows (the number of steps).
int LatestSchemaVersion();

// The SQL of step `version` (1..LatestSchemaVersion()) in `dialect`'s spelling.
std::string SchemaStep(int version, const SchemaDialect& dialect);

// Runs the steps after `current` up to LatestSchemaVersion(), in order, through `run`.
Status ApplySchemaSteps(int current, const SchemaDialect& dialect,
                        FunctionRef<Status(std::string_view)> run);

}  // namespace firn::store::sql
