// `firn replicate`: a table-aware copy from one store or prefix to another (recovery/
// replicate.h, docs/recovery.md "Replicating").
//
//   firn replicate --from URI --to URI [--rewrite-prefix OLD=NEW] [--threads N] [--json]
//                  [--to-s3-endpoint URL --to-s3-access-key-id ID
//                   --to-s3-secret-access-key-file F --to-s3-region R]
//                  [--register --replica-data-dir D | --replica-db URL [--replica-catalog C]]
//                  [database and S3 flags of the source, as for serve]
//
// The source's store is configured as `firn serve`'s (FIRN_S3_* and the flags); the
// destination uses the same settings unless --to-s3-* name another S3 endpoint. --register
// registers each copied head into the replica catalog's database (a warm standby); a table it
// holds already is moved to the new head.
// Exit code 0 every table copied or up to date, 1 a table failed, 3 a table was ambiguous,
// 2 bad arguments.
#pragma once

#include <string>

#include "app/bootstrap_command.h"

namespace firn::app {

struct ReplicateArgs {
  StoreFlags store;  // the source's settings (its database is not needed)
  std::string from;
  std::string to;
  std::string rewrite;  // OLD=NEW
  int threads = 8;
  bool json = false;
  std::string to_s3_endpoint;
  std::string to_s3_access_key_id;
  std::string to_s3_secret_access_key_file;
  std::string to_s3_region;
  bool register_tables = false;
  StoreFlags replica;  // the replica catalog's database
  std::string replica_catalog;
  std::string realm = "default";
  bool object_copy = false;  // hidden: the drill's wrong order
};
int RunReplicate(const ReplicateArgs& args);

}  // namespace firn::app
