// `firn admin fences` and `firn admin fence …`: the operator's side of foreign-writer fencing
// (catalog/foreign_writers.h, docs/ownership-claims.md).
//
//   firn admin fences [--scan]   one JSON line per table that carries a fence
//                                {"realm","catalog","table","state","detected_ms","files",
//                                "metadata_location"}; --scan first lists every table's metadata
//                                directory in full and fences those another catalog wrote to
//   firn admin fence keep-ours|adopt|release --table ns.t [--realm R] [--catalog C]
//
// They open the database and object store as `firn serve` would (same flags), and may run
// while servers serve: every change is one store write that servers read with the pointer.
// Exit code 0 done (fences: none fenced), 1 failed or (fences) a table is fenced, 2 bad
// arguments. Thread-safety: run once, from main.
#pragma once

#include <string>

#include "app/bootstrap_command.h"

namespace firn::app {

struct FencesArgs {
  StoreFlags store;
  bool scan = false;
};
int RunAdminFences(const FencesArgs& args);

struct FenceArgs {
  StoreFlags store;
  std::string action;  // keep-ours | adopt | release
  std::string realm = "default";
  std::string catalog;  // "" = the configured catalog name
  std::string table;    // "ns.t" (levels separated by '.')
};
int RunAdminFence(const FenceArgs& args);

}  // namespace firn::app
