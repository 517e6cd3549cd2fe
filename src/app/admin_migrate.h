// `firn migrate`: register every table and view of another REST catalog into Firn
// (recovery/migrate.h, docs/recovery.md "Migrating in").
//
//   firn migrate --from URI [--source-warehouse W] [--credential ID:SECRET | --token T] [--scope S]
//                [--catalog C] [--realm R] [--release] [--dry-run] [--json] [database flags]
//
// Exit code 0 every object registered (or already there), 1 something was refused or failed,
// 2 bad arguments.
#pragma once

#include <string>

#include "app/bootstrap_command.h"

namespace firn::app {

struct MigrateArgs {
  StoreFlags store;
  std::string from;
  std::string warehouse;
  std::string credential;
  std::string token;
  std::string scope = "PRINCIPAL_ROLE:ALL";
  std::string realm = "default";
  std::string catalog;
  bool release = false;
  bool dry_run = false;
  bool json = false;
};
int RunMigrate(const MigrateArgs& args);

}  // namespace firn::app
