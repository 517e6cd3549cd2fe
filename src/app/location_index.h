// The location index of a database that existed before it (docs/storage.md): `firn serve`
// backfills it once at start (EnsureLocationIndex), before it serves, and logs what breaks the
// one-location-one-owner rule; `firn admin locations` prints those overlaps for an operator to
// resolve (drop or move one of each pair), and can re-run the backfill.
//
// Output of the command: one JSON line per overlap {"relation","inner":{…},"outer":{…}} and a
// last summary line {"claims","overlaps","backfill":{…}}. Exit code 0 (no overlap), 1
// (overlaps, or a failure), 2 (bad arguments). Thread-safety: run from main.
#pragma once

#include "app/bootstrap_command.h"
#include "common/result.h"
#include "io/object_store.h"
#include "store/store.h"

namespace firn::app {

// Backfills unless the store says it was done; logs the report and every overlap.
Status EnsureLocationIndex(store::CatalogStore& store, io::ObjectStore& objects);

struct LocationsArgs {
  StoreFlags store;
  bool rebuild = false;  // backfill again even if it ran before
};
int RunAdminLocations(const LocationsArgs& args);

}  // namespace firn::app
