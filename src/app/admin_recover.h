// `firn recover`: rebuild a catalog from the object store (recovery/recover.h,
// docs/recovery.md).
//
//   firn recover --prefix URI [--catalog C] [--realm R] [--dry-run] [--threads N]
//                [--on-fork report|latest] [--pointers FILE|DB-URL]… [--take-over-from ID]…
//                [--namespace ns] [--json] [database flags as for serve]
//
// On a terminal it draws progress and ends with a summary and every table it did not
// register; otherwise (or with --json) it prints one JSON line per table and a summary line.
// Exit code: 0 every table registered (or already was; a dry run: would be), 1 a table was
// refused or failed, 3 a table is ambiguous (a fork) and none failed, 2 bad arguments.
// Thread-safety: run once, from main.
#pragma once

#include <string>
#include <vector>

#include "app/bootstrap_command.h"

namespace firn::app {

struct RecoverArgs {
  StoreFlags store;
  std::string prefix;
  std::string realm = "default";
  std::string catalog;  // "" = the configured catalog
  bool dry_run = false;
  int threads = 8;
  std::string on_fork = "report";        // report | latest
  std::vector<std::string> pointers;     // JSON-lines files or Firn database URLs
  std::vector<std::string> take_over_from;
  std::string ns;                        // "a.b": for tables right under the prefix
  bool json = false;
};
int RunRecover(const RecoverArgs& args);

}  // namespace firn::app
