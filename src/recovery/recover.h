// `firn recover`: rebuilding a catalog from the object store (docs/recovery.md).
//
// Discover every table under a prefix (discover.h), choose each one's head by its metadata-log
// chain (chain.h), name it (its ownership claim's namespace and name, else its directory's
// path under the prefix), and register the head in the target catalog through the ordinary
// register path: the catalog's locations, the location index and the claims on the store all
// apply. A fork is reported with its candidates and their chains, and registered only under a
// pointer source or a rule the operator chose. A table another deployment claims is refused
// unless the operator names that deployment as gone; its claim is then replaced by ours.
// Already registered tables (a rerun) are left as they are. A dry run changes nothing.
//
// Thread-safety: Recover runs its own workers; the service and store are thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog_service.h"
#include "recovery/chain.h"

namespace firn::recovery {

struct RecoverOptions {
  std::string prefix;  // file:// or s3:// URI of the tables' common root
  int threads = 8;
  bool dry_run = false;
  ForkRule fork_rule = ForkRule::kReport;
  // The pointer source: the names of metadata files a catalog pointed at (chain.h ChooseHead).
  std::set<std::string> pointers;
  // Deployments known to be gone: their claims are replaced by this deployment's.
  std::set<std::string> take_over_from;
  // A scratch catalog that keeps no claims (a drill's, `firn drill`): claims on the store name
  // the tables but neither refuse nor are written.
  bool claims_off = false;
  // Tables whose directory sits right under the prefix get this namespace.
  store::Namespace default_namespace;
  size_t max_metadata_bytes = 64u << 20;
  // Called once per table as it finishes (from any worker; calls are serialised), with how
  // many are done and how many there are.
  std::function<void(const struct TableOutcome&, size_t done, size_t total)> on_table;
  // Called during discovery: directories listed, tables found.
  std::function<void(size_t dirs, size_t tables)> on_discover;
};

enum class TableAction {
  kRegistered,
  kAlreadyRegistered,  // a rerun: the catalog already points at this table
  kWouldRegister,      // dry run
  kAmbiguous,          // a fork (or unreadable candidates): nothing registered
  kRefused,            // another deployment's claim, an unusable name, a location the catalog
                       // does not allow, a name another table holds
  kFailed,             // an error reading or registering (the detail says which)
};
std::string_view TableActionName(TableAction action);

struct CandidateReport {
  std::string file;
  std::vector<std::string> chain;
  int64_t last_updated_ms = 0;
};

struct TableOutcome {
  std::string dir;
  std::string location;
  std::string table_uuid;
  store::Identifier id;
  std::string named_by;  // "claim", "path" or "" (unnamed)
  std::string head;      // the metadata file chosen ("" when none)
  std::vector<std::string> chain;              // of the head
  std::vector<CandidateReport> candidates;     // every maximal candidate when ambiguous
  std::vector<std::string> unreadable;         // candidate files that could not be read
  std::string reason;    // why this head (chain.h HeadChoice::reason)
  TableAction action = TableAction::kFailed;
  std::string detail;
  int64_t micros = 0;    // this table's time (read, choose, register)
};

struct RecoverReport {
  std::vector<TableOutcome> tables;  // sorted by directory
  double discover_seconds = 0;
  double total_seconds = 0;
  std::map<TableAction, size_t> counts;
};

Result<RecoverReport> Recover(catalog::CatalogService& service, const catalog::RequestContext& ctx,
                              io::ObjectStore& objects, const RecoverOptions& options);

// The report as one JSON object per table (TableJson) and a summary (SummaryJson).
std::string TableJson(const TableOutcome& outcome);
std::string SummaryJson(const RecoverReport& report, bool dry_run);

}  // namespace firn::recovery
