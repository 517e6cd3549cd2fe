// `firn admin move-table`: moves a table (or, with --view, a view) to another catalog of this
// deployment in one database transaction (catalog/table_moves.cc, docs/moves.md "Within one
// deployment"), as the management API's …/tables/{table}/move does, without a server:
//
//   firn admin move-table --table ns.t --to-catalog B [--to ns2.t2] [--catalog A] [--realm R]
//
// It opens the database and object store as `firn serve` would (same flags) and may run while
// servers serve: the move is one store write, and servers pick up the grants it changed on
// their next poll. Prints one JSON line {"kind","from","to","metadata_location"}.
// Exit code 0 moved, 1 refused or failed, 2 bad arguments. Thread-safety: run once, from main.
#pragma once

#include <string>

#include "app/bootstrap_command.h"

namespace firn::app {

struct MoveTableArgs {
  StoreFlags store;
  std::string realm = "default";
  std::string catalog;     // the source; "" = the configured catalog name
  std::string table;       // "ns.t"
  std::string to_catalog;  // the target catalog
  std::string to;          // "ns.t" in the target; "" = the same namespace and name
  bool view = false;
};
int RunAdminMoveTable(const MoveTableArgs& args);

}  // namespace firn::app
