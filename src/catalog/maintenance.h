// Catalog-side table maintenance (docs/maintenance.md): expiring snapshots and removing orphan
// files, as durable tasks (catalog/task_runner.h) triggered per table or by a catalog or
// namespace policy, each with a dry run that lists what would go. The CatalogService methods
// live in table_maintenance.cc; this header holds the options, the pure planning and the task
// payloads.
//
// Thread-safety: pure functions and plain values.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "metadata/table_metadata.h"
#include "store/store.h"

namespace firn::catalog {

inline constexpr std::string_view kExpireSnapshotsTask = "expire-snapshots";
inline constexpr std::string_view kRemoveOrphansTask = "remove-orphan-files";
inline constexpr std::string_view kMaintenanceSweepTask = "maintenance-sweep";

// Policy properties, on a table, its namespace or its catalog (first found wins): "on" runs the
// job on the table every firn.maintenance.interval (default 1d) with the table's own settings
// (Iceberg's history.expire.* properties; orphans older than firn.maintenance.orphan-age,
// default 3d).
inline constexpr std::string_view kExpirePolicyProperty = "firn.maintenance.expire-snapshots";
inline constexpr std::string_view kOrphanPolicyProperty = "firn.maintenance.remove-orphan-files";
inline constexpr std::string_view kIntervalProperty = "firn.maintenance.interval";
inline constexpr std::string_view kOrphanAgeProperty = "firn.maintenance.orphan-age";
inline constexpr int64_t kDefaultOrphanAgeMs = int64_t{3} * 24 * 3600 * 1000;
// Files younger than this are never orphans, whatever the request says: a writer may not have
// committed them yet.
inline constexpr int64_t kMinOrphanAgeMs = int64_t{3600} * 1000;

enum class MaintenanceAction { kExpireSnapshots, kRemoveOrphanFiles };
std::string_view MaintenanceActionName(MaintenanceAction action);

struct MaintenanceRequest {
  MaintenanceAction action = MaintenanceAction::kExpireSnapshots;
  bool dry_run = false;
  // Expire: snapshots older than this age (ms) may go (default: the table's
  // history.expire.max-snapshot-age-ms, else 5 days). Orphans: files older than this age
  // (default firn.maintenance.orphan-age, else 3 days; never below kMinOrphanAgeMs).
  std::optional<int64_t> older_than_ms;
  // Expire: the newest snapshots of every branch kept whatever their age (default the table's
  // history.expire.min-snapshots-to-keep, else 1).
  std::optional<int> retain_last;
};

// The management API's request body {"action", "dryRun", "olderThan" ("3d", seconds, …),
// "retainLast"}; kBadRequest naming the field otherwise.
Result<MaintenanceRequest> ParseMaintenanceRequest(const boost::json::object& body);

// What a run did or, for a dry run, would do.
struct MaintenanceReport {
  MaintenanceAction action = MaintenanceAction::kExpireSnapshots;
  bool dry_run = false;
  std::vector<int64_t> expired_snapshots;
  std::vector<std::string> files;  // the files (first kMaxListedFiles of them)
  int64_t file_count = 0;
  int64_t bytes = 0;               // orphan files only (listing gives sizes)
  int64_t deleted = 0;
  int64_t kept_referenced_elsewhere = 0;  // another table or a dropped one references them
  bool finished = true;
  std::string note;
  // Expire, once committed: the metadata files before and after, so that a run stopped part
  // way (or crashed) resumes deleting exactly the same files.
  std::string base_location;
  std::string committed_location;
};
inline constexpr size_t kMaxListedFiles = 1000;
boost::json::object MaintenanceReportJson(const MaintenanceReport& report);

// The snapshots Iceberg's expire-snapshots would remove (its rules, refs respected): every
// ref's head is kept; each branch keeps its newest ancestors while fewer than `retain_last`
// (the ref's min-snapshots-to-keep overrides) are kept or they are younger than the age (the
// ref's max-snapshot-age-ms overrides); a snapshot no ref reaches is kept while younger than
// the age. Sorted ascending.
std::vector<int64_t> SnapshotsToExpire(const metadata::TableMetadata& table, int64_t now_ms,
                                       int64_t max_age_ms, int retain_last);

// kCommitFailed when a ref of `base` points at one of the `expired` snapshots: a tag or branch
// made after the expiry was planned, which removing the snapshot would take with it.
Status CheckNoRefOnExpired(const metadata::TableMetadata& base,
                           const std::vector<int64_t>& expired);

// Defaults from the table's properties (history.expire.max-snapshot-age-ms, 5 days;
// history.expire.min-snapshots-to-keep, 1).
int64_t TableMaxSnapshotAgeMs(const metadata::TableMetadata& table);
int TableMinSnapshotsToKeep(const metadata::TableMetadata& table);

// The payload of an expire-snapshots / remove-orphan-files task.
struct MaintenanceTask {
  store::Identifier id;
  MaintenanceRequest request;
};
std::string EncodeMaintenanceTask(const MaintenanceTask& task);
Result<MaintenanceTask> DecodeMaintenanceTask(std::string_view payload);

}  // namespace firn::catalog
