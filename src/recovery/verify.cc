#include "recovery/verify.h"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <unordered_set>

#include "catalog/location_policy.h"
#include "catalog/metadata_files.h"
#include "catalog/purge.h"
#include "recovery/chain.h"

namespace firn::recovery {
namespace {

namespace json = boost::json;

// Fields of a type: a struct's, and those inside lists and maps, recursively.
int CountFields(const json::value& type) {
  const auto* o = type.if_object();
  if (o == nullptr) return 0;
  int n = 0;
  if (const auto* fields = o->if_contains("fields"); fields && fields->is_array()) {
    for (const json::value& f : fields->as_array()) {
      ++n;
      if (const auto* fo = f.if_object()) {
        if (const auto* t = fo->if_contains("type")) n += CountFields(*t);
      }
    }
  }
  for (std::string_view key : {"element", "key", "value"}) {
    if (const auto* t = o->if_contains(key)) n += CountFields(*t);
  }
  return n;
}

std::optional<int64_t> SummaryNumber(const json::object& summary, std::string_view key) {
  const auto* v = summary.if_contains(key);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->as_int64();
  if (!v->is_string()) return std::nullopt;
  const json::string& s = v->as_string();
  int64_t n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return n;
}

std::string Canon(std::string_view uri) {
  auto n = catalog::NormalizeLocation(uri);
  return n ? std::move(*n) : std::string(uri);
}

// Which of `files` exist: one listing of `location` for those under it, one request each for
// the rest.
class Existence {
 public:
  Existence(io::ObjectStore& objects, std::string_view location) : objects_(objects) {
    root_ = Canon(location);
    std::string prefix(location);
    if (!prefix.ends_with('/')) prefix.push_back('/');
    auto listed = objects_.List(prefix);
    if (listed) {
      listed_ = true;
      for (const io::ObjectInfo& f : *listed) present_.insert(Canon(f.uri));
    }
  }

  bool Exists(std::string_view file) {
    const std::string canon = Canon(file);
    if (listed_ && catalog::IsUnder(canon, root_)) return present_.contains(canon);
    auto exists = objects_.Exists(file);
    return exists && *exists;
  }

 private:
  io::ObjectStore& objects_;
  std::string root_;
  bool listed_ = false;
  std::unordered_set<std::string> present_;
};

// The files `meta` references that are missing, sorted; `complete` false when a manifest list
// or manifest that exists could not be read.
std::vector<std::string> MissingOf(io::ObjectStore& objects, Existence& existence,
                                   const metadata::TableMetadata& meta, size_t& checked,
                                   bool& complete) {
  std::vector<std::string> missing;
  auto refs = catalog::CollectReferencedFiles(objects, meta, "", /*with_content=*/true,
                                              [] { return true; });
  if (!refs) {
    complete = false;
    return missing;
  }
  for (const auto* set : {&refs->content, &refs->manifests, &refs->manifest_lists,
                          &refs->others}) {
    for (const std::string& f : *set) {
      ++checked;
      if (!existence.Exists(f)) missing.push_back(f);
    }
  }
  // A manifest that could not be read because it is missing is reported as missing; one that
  // exists and still could not be read leaves the set incomplete.
  if (!refs->complete && missing.empty()) complete = false;
  std::sort(missing.begin(), missing.end());
  return missing;
}

}  // namespace

TableRecord RecordOf(std::string table, std::string_view metadata_location,
                     const metadata::TableMetadata& meta) {
  TableRecord r;
  r.table = std::move(table);
  r.table_uuid = meta.table_uuid;
  r.metadata_file = std::string(FileName(metadata_location));
  r.current_snapshot_id = meta.current_snapshot_id;
  r.snapshot_count = static_cast<int64_t>(meta.snapshots.size());
  if (meta.current_snapshot_id) {
    for (const auto& s : meta.snapshots) {
      if (s.snapshot_id == *meta.current_snapshot_id) {
        r.rows = SummaryNumber(s.summary, "total-records");
      }
    }
  }
  for (const auto& [name, ref] : meta.refs) {
    r.refs[name] = RefRecord{ref.type, ref.snapshot_id, ref.min_snapshots_to_keep,
                             ref.max_snapshot_age_ms, ref.max_ref_age_ms};
  }
  r.schema_id = meta.current_schema_id;
  if (const metadata::Schema* schema = meta.CurrentSchema()) {
    json::object root{{"fields", schema->fields}};
    r.field_count = CountFields(root);
  }
  r.last_updated_ms = meta.last_updated_ms;
  return r;
}

std::string RecordJson(const TableRecord& r) {
  json::object o;
  o["table"] = r.table;
  o["table-uuid"] = r.table_uuid;
  o["metadata-file"] = r.metadata_file;
  o["rows"] = r.rows ? json::value(*r.rows) : json::value(nullptr);
  o["current-snapshot-id"] =
      r.current_snapshot_id ? json::value(*r.current_snapshot_id) : json::value(nullptr);
  o["snapshots"] = r.snapshot_count;
  json::object refs;
  for (const auto& [name, ref] : r.refs) {
    json::object x{{"type", ref.type}, {"snapshot-id", ref.snapshot_id}};
    if (ref.min_snapshots_to_keep) x["min-snapshots-to-keep"] = *ref.min_snapshots_to_keep;
    if (ref.max_snapshot_age_ms) x["max-snapshot-age-ms"] = *ref.max_snapshot_age_ms;
    if (ref.max_ref_age_ms) x["max-ref-age-ms"] = *ref.max_ref_age_ms;
    refs[name] = std::move(x);
  }
  o["refs"] = std::move(refs);
  o["schema-id"] = r.schema_id;
  o["fields"] = r.field_count;
  o["last-updated-ms"] = r.last_updated_ms;
  return json::serialize(o);
}

Result<TableRecord> ParseRecordJson(std::string_view line) {
  boost::system::error_code ec;
  const json::value doc = json::parse(line, ec);
  const auto bad = [&](std::string_view why) {
    return Fail(ErrorKind::kBadRequest, "Not a history record (" + std::string(why) + "): " +
                                            std::string(line.substr(0, 120)));
  };
  if (ec || !doc.is_object()) return bad("not a JSON object");
  const json::object& o = doc.as_object();
  TableRecord r;
  const auto str = [&](std::string_view key) -> std::string {
    const auto* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
  };
  const auto num = [&](const json::object& from, std::string_view key) -> std::optional<int64_t> {
    const auto* v = from.if_contains(key);
    return v && v->is_int64() ? std::optional<int64_t>(v->as_int64()) : std::nullopt;
  };
  r.table = str("table");
  if (r.table.empty()) return bad("no table");
  r.table_uuid = str("table-uuid");
  r.metadata_file = str("metadata-file");
  r.rows = num(o, "rows");
  r.current_snapshot_id = num(o, "current-snapshot-id");
  r.snapshot_count = num(o, "snapshots").value_or(0);
  r.schema_id = static_cast<int>(num(o, "schema-id").value_or(0));
  r.field_count = static_cast<int>(num(o, "fields").value_or(0));
  r.last_updated_ms = num(o, "last-updated-ms").value_or(0);
  if (const auto* refs = o.if_contains("refs"); refs && refs->is_object()) {
    for (const auto& [name, value] : refs->as_object()) {
      if (!value.is_object()) return bad("a ref that is not an object");
      const json::object& x = value.as_object();
      RefRecord ref;
      if (const auto* t = x.if_contains("type"); t && t->is_string()) {
        ref.type = std::string(t->as_string());
      }
      ref.snapshot_id = num(x, "snapshot-id").value_or(0);
      if (auto v = num(x, "min-snapshots-to-keep")) ref.min_snapshots_to_keep = static_cast<int>(*v);
      ref.max_snapshot_age_ms = num(x, "max-snapshot-age-ms");
      ref.max_ref_age_ms = num(x, "max-ref-age-ms");
      r.refs.emplace(std::string(name), std::move(ref));
    }
  }
  return r;
}

std::vector<std::string> CompareRecords(const TableRecord& before, const TableRecord& after,
                                        bool same_file) {
  std::vector<std::string> out;
  const auto opt = [](const std::optional<int64_t>& v) {
    return v ? std::to_string(*v) : std::string("none");
  };
  if (before.table_uuid != after.table_uuid) {
    out.push_back("table-uuid: " + after.table_uuid + " (was " + before.table_uuid + ")");
  }
  if (same_file && before.metadata_file != after.metadata_file) {
    out.push_back("metadata file: " + after.metadata_file + " (was " + before.metadata_file + ")");
  }
  if (before.rows != after.rows) {
    out.push_back("rows: " + opt(after.rows) + " (was " + opt(before.rows) + ")");
  }
  if (before.current_snapshot_id != after.current_snapshot_id) {
    out.push_back("current snapshot: " + opt(after.current_snapshot_id) + " (was " +
                  opt(before.current_snapshot_id) + ")");
  }
  if (before.snapshot_count != after.snapshot_count) {
    out.push_back("snapshots: " + std::to_string(after.snapshot_count) + " (was " +
                  std::to_string(before.snapshot_count) + ")");
  }
  for (const auto& [name, ref] : before.refs) {
    auto it = after.refs.find(name);
    if (it == after.refs.end()) {
      out.push_back("refs: " + ref.type + " " + name + " is gone (was at " +
                    std::to_string(ref.snapshot_id) + ")");
    } else if (it->second.snapshot_id != ref.snapshot_id || it->second.type != ref.type) {
      out.push_back("refs: " + it->second.type + " " + name + " points at " +
                    std::to_string(it->second.snapshot_id) + " (was " + ref.type + " at " +
                    std::to_string(ref.snapshot_id) + ")");
    } else if (!(it->second == ref)) {
      out.push_back("refs: " + name + " has other retention settings");
    }
  }
  for (const auto& [name, ref] : after.refs) {
    if (!before.refs.contains(name)) {
      out.push_back("refs: " + ref.type + " " + name + " is new (at " +
                    std::to_string(ref.snapshot_id) + ")");
    }
  }
  if (before.schema_id != after.schema_id) {
    out.push_back("schema id: " + std::to_string(after.schema_id) + " (was " +
                  std::to_string(before.schema_id) + ")");
  }
  if (before.field_count != after.field_count) {
    out.push_back("schema fields: " + std::to_string(after.field_count) + " (was " +
                  std::to_string(before.field_count) + ")");
  }
  return out;
}

VerifyResult VerifyTable(io::ObjectStore& objects, std::string table,
                         const std::string& metadata_location,
                         const metadata::TableMetadata& meta, const VerifyOptions& options) {
  VerifyResult result;
  result.table = std::move(table);
  result.metadata_location = metadata_location;
  Existence existence(objects, meta.location);
  // The chain: every file the log lists is there, readable, and of this table.
  std::vector<std::pair<std::string, std::optional<metadata::TableMetadata>>> log;
  for (const auto& entry : meta.metadata_log) {
    auto read = catalog::ReadTableMetadataFile(objects, entry.metadata_file,
                                               options.max_metadata_bytes);
    if (!read) {
      result.chain_problems.push_back(entry.metadata_file + ": " + read.error().message);
      log.emplace_back(entry.metadata_file, std::nullopt);
      continue;
    }
    if (read->table_uuid != meta.table_uuid) {
      result.chain_problems.push_back(entry.metadata_file + ": another table (uuid " +
                                      read->table_uuid + ")");
    }
    log.emplace_back(entry.metadata_file, std::move(*read));
  }
  result.missing = MissingOf(objects, existence, meta, result.files_checked, result.complete);
  if (result.missing.empty() || !options.find_recovery_point) return result;
  // Walk back: the newest earlier metadata file whose every file exists.
  result.recovery_point = "";
  for (auto it = log.rbegin(); it != log.rend(); ++it) {
    if (!it->second) continue;
    size_t checked = 0;
    bool complete = true;
    if (!existence.Exists(it->first)) continue;
    if (MissingOf(objects, existence, *it->second, checked, complete).empty() && complete) {
      result.recovery_point = it->first;
      break;
    }
  }
  return result;
}

std::string VerifyJson(const VerifyResult& r) {
  json::object o;
  o["table"] = r.table;
  o["metadata-location"] = r.metadata_location;
  o["ok"] = r.ok();
  o["files-checked"] = r.files_checked;
  o["missing-count"] = r.missing.size();
  json::array missing;
  for (size_t i = 0; i < r.missing.size() && i < 20; ++i) missing.emplace_back(r.missing[i]);
  o["missing"] = std::move(missing);
  if (!r.chain_problems.empty()) {
    json::array problems;
    for (const std::string& p : r.chain_problems) problems.emplace_back(p);
    o["chain-problems"] = std::move(problems);
  }
  if (!r.complete) o["incomplete"] = "a manifest list or manifest could not be read";
  if (r.recovery_point) {
    o["recovery-point"] = r.recovery_point->empty() ? json::value(nullptr)
                                                    : json::value(*r.recovery_point);
  }
  return json::serialize(o);
}

}  // namespace firn::recovery
