// `firn drill`: the recovery game day as one command (docs/recovery.md, "The drill").
//
//   firn drill --namespace ns [--catalog C] [--realm R] [--lose scratch|drop]
//              [--replica URI --replica-warehouse W] [--writer-cmd CMD] [--workdir DIR]
//              [--json] [database flags as for serve]
//
// 1 record   every table of the namespace: rows, snapshots, refs, schema, metadata file;
// 2 lose     scratch (default): nothing is touched; the rebuild goes into a scratch database
//            that keeps no claims. drop: the tables are dropped from the live catalog with
//            purge=false (a real game day: they are unavailable until step 5). --replica: the
//            rebuild reads the replica instead of the primary's store;
// 3 discover the tables under the namespace's location (or the replica);
// 4 choose   each head by its metadata-log chain;
// 5 register it (scratch database, or the live catalog for drop);
// 6 validate every table whole and its history equal to step 1's record;
// 7 time     RTO (steps 3-6) and RPO (how far behind the recovered head is) per table and in
//            total;
// 8 the wrong order: the namespace copied object by object, data first and metadata after,
//   with --writer-cmd run in between (a live writer), then verified: the drill shows that
//   validation catches the replica that order makes, and names its real recovery point.
//
// Prints a JSON line per table and a summary (RPO, RTO, the wrong-order result). Exit code 0
// when every table recovered identical (and, with a writer, the wrong order was caught), 1
// otherwise, 2 bad arguments.
#pragma once

#include <string>

#include "app/bootstrap_command.h"

namespace firn::app {

struct DrillArgs {
  StoreFlags store;
  std::string realm = "default";
  std::string catalog;
  std::string ns;
  std::string lose = "scratch";  // scratch | drop
  std::string replica;           // a replica prefix to recover from instead of the primary
  std::string replica_warehouse;
  std::string writer_cmd;
  std::string workdir;
  bool json = false;
};
int RunDrill(const DrillArgs& args);

}  // namespace firn::app
