#include "catalog/maintenance.h"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "catalog/identifier_json.h"
#include "catalog/soft_delete.h"
#include "common/macros.h"

namespace firn::catalog {
namespace {

constexpr int64_t kDefaultMaxSnapshotAgeMs = int64_t{5} * 24 * 3600 * 1000;

std::optional<int64_t> IntProperty(const metadata::TableMetadata& table, std::string_view key) {
  auto it = table.properties.find(std::string(key));
  if (it == table.properties.end()) return std::nullopt;
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  if (ec != std::errc() || ptr != it->second.data() + it->second.size() || v < 0) {
    return std::nullopt;
  }
  return v;
}

Error BadField(std::string_view field, std::string_view why) {
  return Error(ErrorKind::kBadRequest,
               "Invalid maintenance request: '" + std::string(field) + "' " + std::string(why));
}

}  // namespace

std::string_view MaintenanceActionName(MaintenanceAction action) {
  return action == MaintenanceAction::kExpireSnapshots ? kExpireSnapshotsTask
                                                       : kRemoveOrphansTask;
}

Result<MaintenanceRequest> ParseMaintenanceRequest(const boost::json::object& body) {
  MaintenanceRequest r;
  for (const auto& [key, value] : body) {
    if (key == "action") {
      if (!value.is_string()) return Fail(BadField("action", "must be a string"));
      if (value.as_string() == kExpireSnapshotsTask) {
        r.action = MaintenanceAction::kExpireSnapshots;
      } else if (value.as_string() == kRemoveOrphansTask) {
        r.action = MaintenanceAction::kRemoveOrphanFiles;
      } else {
        return Fail(BadField("action", "must be expire-snapshots or remove-orphan-files"));
      }
    } else if (key == "dryRun") {
      if (!value.is_bool()) return Fail(BadField("dryRun", "must be a boolean"));
      r.dry_run = value.as_bool();
    } else if (key == "olderThan") {
      if (!value.is_string()) {
        return Fail(BadField("olderThan", "must be a duration such as \"3d\" or \"3600\""));
      }
      auto age = ParseDuration(value.as_string());
      if (!age) return Fail(BadField("olderThan", "must be a duration such as \"3d\" or \"3600\""));
      r.older_than_ms = std::chrono::duration_cast<std::chrono::milliseconds>(*age).count();
    } else if (key == "retainLast") {
      if (!value.is_int64() || value.as_int64() < 1 || value.as_int64() > 1000000) {
        return Fail(BadField("retainLast", "must be an integer from 1"));
      }
      r.retain_last = static_cast<int>(value.as_int64());
    } else {
      return Fail(BadField(key, "is not a field of a maintenance request"));
    }
  }
  if (!body.contains("action")) return Fail(BadField("action", "is required"));
  if (r.action == MaintenanceAction::kRemoveOrphanFiles && r.retain_last) {
    return Fail(BadField("retainLast", "applies to expire-snapshots only"));
  }
  return r;
}

boost::json::object MaintenanceReportJson(const MaintenanceReport& report) {
  boost::json::object o;
  o["action"] = MaintenanceActionName(report.action);
  o["dryRun"] = report.dry_run;
  boost::json::array snapshots;
  for (int64_t id : report.expired_snapshots) snapshots.emplace_back(id);
  o["expiredSnapshots"] = std::move(snapshots);
  boost::json::array files;
  for (const std::string& f : report.files) files.emplace_back(f);
  o["files"] = std::move(files);
  o["fileCount"] = report.file_count;
  o["bytes"] = report.bytes;
  o["deleted"] = report.deleted;
  o["keptReferencedElsewhere"] = report.kept_referenced_elsewhere;
  o["finished"] = report.finished;
  if (!report.note.empty()) o["note"] = report.note;
  if (!report.committed_location.empty()) {
    o["base"] = report.base_location;
    o["committed"] = report.committed_location;
  }
  return o;
}

int64_t TableMaxSnapshotAgeMs(const metadata::TableMetadata& table) {
  return IntProperty(table, "history.expire.max-snapshot-age-ms")
      .value_or(kDefaultMaxSnapshotAgeMs);
}

int TableMinSnapshotsToKeep(const metadata::TableMetadata& table) {
  auto v = IntProperty(table, "history.expire.min-snapshots-to-keep");
  return v && *v >= 1 && *v < 1000000 ? static_cast<int>(*v) : 1;
}

Status CheckNoRefOnExpired(const metadata::TableMetadata& base,
                           const std::vector<int64_t>& expired) {
  for (const auto& [name, ref] : base.refs) {
    if (std::ranges::find(expired, ref.snapshot_id) != expired.end()) {
      return Fail(ErrorKind::kCommitFailed,
                  "Requirement failed: ref '" + name + "' now points at snapshot " +
                      std::to_string(ref.snapshot_id) +
                      ", which this expiry would remove; the expiry plans again next run");
    }
  }
  return Ok();
}

std::vector<int64_t> SnapshotsToExpire(const metadata::TableMetadata& table, int64_t now_ms,
                                       int64_t max_age_ms, int retain_last) {
  std::map<int64_t, const metadata::Snapshot*> by_id;
  for (const auto& s : table.snapshots) by_id[s.snapshot_id] = &s;
  std::set<int64_t> keep;
  std::set<int64_t> reachable;  // ancestors of some ref's head
  for (const auto& [name, ref] : table.refs) {
    keep.insert(ref.snapshot_id);
    const bool branch = ref.type != "tag";
    const int min_keep = ref.min_snapshots_to_keep.value_or(retain_last);
    const int64_t cutoff = now_ms - ref.max_snapshot_age_ms.value_or(max_age_ms);
    int kept = 0;
    bool retaining = branch;
    // Walk the ancestry (guarded against a cycle a crafted file could hold).
    std::set<int64_t> seen;
    for (auto it = by_id.find(ref.snapshot_id); it != by_id.end() && seen.insert(it->first).second;
         it = it->second->parent_snapshot_id ? by_id.find(*it->second->parent_snapshot_id)
                                             : by_id.end()) {
      reachable.insert(it->first);
      if (retaining && (kept < min_keep || it->second->timestamp_ms >= cutoff)) {
        keep.insert(it->first);
        ++kept;
      } else {
        retaining = false;  // Iceberg stops at the first ancestor that fails both rules
      }
    }
  }
  if (table.current_snapshot_id) keep.insert(*table.current_snapshot_id);
  const int64_t table_cutoff = now_ms - max_age_ms;
  std::vector<int64_t> out;
  for (const auto& [id, s] : by_id) {
    if (keep.contains(id)) continue;
    if (!reachable.contains(id) && s->timestamp_ms >= table_cutoff) continue;
    out.push_back(id);
  }
  return out;
}

std::string EncodeMaintenanceTask(const MaintenanceTask& task) {
  boost::json::object o;
  PutIdentifier(o, task.id);
  o["action"] = MaintenanceActionName(task.request.action);
  o["dry-run"] = task.request.dry_run;
  if (task.request.older_than_ms) o["older-than-ms"] = *task.request.older_than_ms;
  if (task.request.retain_last) o["retain-last"] = *task.request.retain_last;
  return boost::json::serialize(o);
}

Result<MaintenanceTask> DecodeMaintenanceTask(std::string_view payload) {
  const auto bad = [] { return Fail(ErrorKind::kBadRequest, "Cannot parse maintenance task"); };
  boost::system::error_code ec;
  boost::json::value doc = boost::json::parse(payload, ec);
  if (ec || !doc.is_object()) return bad();
  const auto& o = doc.as_object();
  const auto id = GetIdentifier(o);
  const auto* action = o.if_contains("action");
  if (!id || !action || !action->is_string()) return bad();
  MaintenanceTask t;
  t.id = *id;
  if (action->as_string() == kExpireSnapshotsTask) {
    t.request.action = MaintenanceAction::kExpireSnapshots;
  } else if (action->as_string() == kRemoveOrphansTask) {
    t.request.action = MaintenanceAction::kRemoveOrphanFiles;
  } else {
    return bad();
  }
  if (const auto* d = o.if_contains("dry-run"); d && d->is_bool()) t.request.dry_run = d->as_bool();
  if (const auto* a = o.if_contains("older-than-ms"); a && a->is_int64()) {
    t.request.older_than_ms = a->as_int64();
  }
  if (const auto* n = o.if_contains("retain-last"); n && n->is_int64()) {
    t.request.retain_last = static_cast<int>(n->as_int64());
  }
  return t;
}

}  // namespace firn::catalog
