#include "catalog/purge.h"

#include <spdlog/spdlog.h>

#include <boost/json.hpp>

#include <set>

#include "catalog/location_policy.h"
#include "common/log.h"
#include "io/manifest_reader.h"

namespace firn::catalog {
namespace {

bool GcEnabled(const metadata::TableMetadata& table) {
  auto it = table.properties.find("gc.enabled");
  return it == table.properties.end() || it->second != "false";
}

void Warn(std::string_view what, std::string_view file, std::string_view error) {
  spdlog::warn(R"("msg":"purge: {}","file":"{}","error":"{}")", what, log::Escape(file),
               log::Escape(error));
}

}  // namespace

PurgeResult PurgeTableFiles(io::ObjectStore& objects, const metadata::TableMetadata& table,
                            const std::string& current_metadata_location,
                            FunctionRef<bool(std::string_view)> deletable,
                            FunctionRef<bool()> keep_going) {
  PurgeResult result;
  const bool gc = GcEnabled(table);
  std::set<std::string> manifests;
  std::set<std::string> manifest_lists;
  std::set<std::string> content_files;

  for (const metadata::Snapshot& snapshot : table.snapshots) {
    if (!keep_going()) {
      result.finished = false;
      return result;
    }
    for (const std::string& m : snapshot.manifests) manifests.insert(m);
    if (!snapshot.manifest_list) continue;
    manifest_lists.insert(*snapshot.manifest_list);
    if (!IsUnder(*snapshot.manifest_list, table.location)) continue;  // never read, never deleted
    auto bytes = objects.Read(*snapshot.manifest_list);
    if (!bytes) {
      Warn("cannot read manifest list", *snapshot.manifest_list, bytes.error().message);
      continue;
    }
    auto entries = io::ReadManifestList(*bytes);
    if (!entries) {
      Warn("cannot parse manifest list", *snapshot.manifest_list, entries.error().message);
      continue;
    }
    for (const auto& e : *entries) manifests.insert(e.manifest_path);
  }
  if (gc) {
    for (const std::string& manifest : manifests) {
      if (!IsUnder(manifest, table.location)) continue;
      if (!keep_going()) {
        result.finished = false;
        return result;
      }
      auto bytes = objects.Read(manifest);
      if (!bytes) {
        Warn("cannot read manifest", manifest, bytes.error().message);
        continue;
      }
      auto entries = io::ReadManifest(*bytes);
      if (!entries) {
        Warn("cannot parse manifest", manifest, entries.error().message);
        continue;
      }
      for (const auto& e : *entries) content_files.insert(e.file_path);
    }
  }

  std::set<std::string> others;
  for (const auto& s : table.statistics) {
    if (auto p = s.json.if_contains("statistics-path"); p && p->is_string()) {
      others.insert(std::string(p->as_string()));
    }
  }
  for (const auto& s : table.partition_statistics) {
    if (auto p = s.json.if_contains("statistics-path"); p && p->is_string()) {
      others.insert(std::string(p->as_string()));
    }
  }
  for (const auto& entry : table.metadata_log) others.insert(entry.metadata_file);

  auto remove_all = [&](const std::set<std::string>& files) {
    for (const std::string& f : files) {
      if (!result.finished) return;
      // Metadata may name any path (a registered file, a crafted commit): only what lies
      // inside the table's own location is the table's to delete.
      if (!IsUnder(f, table.location) || !deletable(f)) {
        ++result.skipped;
        continue;
      }
      if (!keep_going()) {
        result.finished = false;
        return;
      }
      if (auto st = objects.Delete(f); st) {
        ++result.deleted;
      } else {
        Warn("cannot delete", f, st.error().message);
      }
    }
  };
  // Leaves first, then the files that list them: an interrupted purge still leaves the
  // metadata that names every remaining file, so it can be finished later.
  remove_all(content_files);
  remove_all(manifests);
  remove_all(manifest_lists);
  remove_all(others);
  remove_all({current_metadata_location});
  if (result.skipped > 0) {
    spdlog::warn(R"("msg":"purge: skipped files the table does not own","location":"{}",)"
                 R"("skipped":{},"deleted":{})",
                 log::Escape(table.location), result.skipped, result.deleted);
  }
  return result;
}

size_t PurgeTableFiles(io::ObjectStore& objects, const metadata::TableMetadata& table,
                       const std::string& current_metadata_location,
                       FunctionRef<bool(std::string_view)> deletable) {
  return PurgeTableFiles(objects, table, current_metadata_location, deletable, [] {
           return true;
         }).deleted;
}

std::string EncodePurgeTask(const PurgeTask& task) {
  boost::json::object o;
  boost::json::array ns;
  for (const std::string& level : task.id.ns) ns.emplace_back(level);
  o["namespace"] = std::move(ns);
  o["name"] = task.id.name;
  o["metadata-location"] = task.metadata_location;
  o["table-uuid"] = task.table_uuid;
  return boost::json::serialize(o);
}

Result<PurgeTask> DecodePurgeTask(std::string_view payload) {
  boost::system::error_code ec;
  boost::json::value doc = boost::json::parse(payload, ec);
  const auto bad = [] { return Fail(ErrorKind::kBadRequest, "Cannot parse purge task payload"); };
  if (ec || !doc.is_object()) return bad();
  const boost::json::object& o = doc.as_object();
  const auto* ns = o.if_contains("namespace");
  const auto* name = o.if_contains("name");
  const auto* location = o.if_contains("metadata-location");
  const auto* uuid = o.if_contains("table-uuid");
  if (!ns || !ns->is_array() || !name || !name->is_string() || !location ||
      !location->is_string() || !uuid || !uuid->is_string()) {
    return bad();
  }
  PurgeTask task;
  for (const auto& level : ns->as_array()) {
    if (!level.is_string()) return bad();
    task.id.ns.emplace_back(level.as_string());
  }
  task.id.name = std::string(name->as_string());
  task.metadata_location = std::string(location->as_string());
  task.table_uuid = std::string(uuid->as_string());
  return task;
}

}  // namespace firn::catalog
