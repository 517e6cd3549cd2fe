// `firn verify`: every table of a catalog (or a namespace, or one table), or every table found
// under a store prefix, checked whole (recovery/verify.h, docs/recovery.md "Verifying").
//
//   firn verify [--catalog C] [--realm R] [--namespace ns | --table ns.t] [--prefix URI]
//               [--record FILE] [--compare FILE] [--threads N] [--json] [database flags]
//
// Without --prefix the tables are the catalog's (the pointers in the database); with it, the
// heads found on the store by their chain (no database needed beyond the flags' defaults).
// --record writes one history record per table (JSON lines); --compare reads such a file and
// names every difference, and every table recorded and now missing. Exit code 0 all whole
// (and, with --compare, the same), 1 otherwise, 2 bad arguments.
#pragma once

#include <string>

#include "app/bootstrap_command.h"

namespace firn::app {

struct VerifyArgs {
  StoreFlags store;
  std::string realm = "default";
  std::string catalog;
  std::string ns;      // "a.b"
  std::string table;   // "a.b.t"
  std::string prefix;  // verify what is on the store instead of the catalog's pointers
  std::string record;
  std::string compare;
  int threads = 8;
  bool json = false;
};
int RunVerify(const VerifyArgs& args);

}  // namespace firn::app
