#include "catalog/purge.h"

#include <spdlog/spdlog.h>

#include <boost/json.hpp>

#include <set>

#include "catalog/identifier_json.h"
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

std::optional<ReferencedFiles> CollectReferencedFiles(io::ObjectStore& objects,
                                                      const metadata::TableMetadata& table,
                                                      std::string_view readable_under,
                                                      bool with_content,
                                                      FunctionRef<bool()> keep_going) {
  ReferencedFiles refs;
  const auto readable = [&](const std::string& file) {
    return readable_under.empty() || IsUnder(file, readable_under);
  };
  for (const metadata::Snapshot& snapshot : table.snapshots) {
    if (!keep_going()) return std::nullopt;
    for (const std::string& m : snapshot.manifests) refs.manifests.insert(m);
    if (!snapshot.manifest_list) continue;
    if (!refs.manifest_lists.insert(*snapshot.manifest_list).second) continue;
    if (!readable(*snapshot.manifest_list)) {  // never read, never deleted
      refs.complete = false;
      continue;
    }
    auto bytes = objects.Read(*snapshot.manifest_list);
    if (!bytes) {
      Warn("cannot read manifest list", *snapshot.manifest_list, bytes.error().message);
      refs.complete = false;
      continue;
    }
    auto entries = io::ReadManifestList(*bytes);
    if (!entries) {
      Warn("cannot parse manifest list", *snapshot.manifest_list, entries.error().message);
      refs.complete = false;
      continue;
    }
    for (const auto& e : *entries) refs.manifests.insert(e.manifest_path);
  }
  if (with_content) {
    for (const std::string& manifest : refs.manifests) {
      if (!readable(manifest)) {
        refs.complete = false;
        continue;
      }
      if (!keep_going()) return std::nullopt;
      auto bytes = objects.Read(manifest);
      if (!bytes) {
        Warn("cannot read manifest", manifest, bytes.error().message);
        refs.complete = false;
        continue;
      }
      auto entries = io::ReadManifest(*bytes);
      if (!entries) {
        Warn("cannot parse manifest", manifest, entries.error().message);
        refs.complete = false;
        continue;
      }
      for (const auto& e : *entries) refs.content.insert(e.file_path);
    }
  }
  for (const auto& s : table.statistics) {
    if (auto p = s.json.if_contains("statistics-path"); p && p->is_string()) {
      refs.others.insert(std::string(p->as_string()));
    }
  }
  for (const auto& s : table.partition_statistics) {
    if (auto p = s.json.if_contains("statistics-path"); p && p->is_string()) {
      refs.others.insert(std::string(p->as_string()));
    }
  }
  for (const auto& entry : table.metadata_log) refs.others.insert(entry.metadata_file);
  return refs;
}

PurgeResult PurgeTableFiles(io::ObjectStore& objects, const metadata::TableMetadata& table,
                            const std::string& current_metadata_location,
                            FunctionRef<bool(std::string_view)> deletable,
                            FunctionRef<bool()> keep_going) {
  PurgeResult result;
  auto refs = CollectReferencedFiles(objects, table, table.location, GcEnabled(table),
                                     keep_going);
  if (!refs) {
    result.finished = false;
    return result;
  }
  const std::set<std::string>& content_files = refs->content;
  const std::set<std::string>& manifests = refs->manifests;
  const std::set<std::string>& manifest_lists = refs->manifest_lists;
  const std::set<std::string>& others = refs->others;

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
  PutIdentifier(o, task.id);
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
  const auto id = GetIdentifier(o);
  const auto* location = o.if_contains("metadata-location");
  const auto* uuid = o.if_contains("table-uuid");
  if (!id || !location || !location->is_string() || !uuid || !uuid->is_string()) return bad();
  PurgeTask task;
  task.id = *id;
  task.metadata_location = std::string(location->as_string());
  task.table_uuid = std::string(uuid->as_string());
  return task;
}

}  // namespace firn::catalog
