#include "catalog/foreign_writers.h"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "catalog/metadata_files.h"
#include "catalog/store_claims.h"
#include "catalog/store_walk.h"
#include "common/clock.h"
#include "common/macros.h"
#include "metadata/metadata_paths.h"
#include "store/store_keys.h"

namespace firn::catalog {

namespace json = boost::json;

namespace {

std::string_view BaseName(std::string_view uri) {
  const size_t slash = uri.rfind('/');
  return slash == std::string_view::npos ? uri : uri.substr(slash + 1);
}

bool IsMetadataFileName(std::string_view name) { return name.ends_with(".metadata.json"); }

std::string VersionPrefix(int version) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%05d-", version);
  return buf;
}

}  // namespace

Fence DecodeFence(std::string_view text) {
  Fence fence;
  if (text.empty()) return fence;
  fence.state = Fence::State::kFenced;  // unreadable: fail closed
  boost::system::error_code ec;
  json::value doc = json::parse(text, ec);
  if (ec || !doc.is_object()) return fence;
  const json::object& o = doc.as_object();
  if (const auto* s = o.if_contains("state"); s && s->is_string() && s->as_string() == "kept") {
    fence.state = Fence::State::kKept;
  }
  if (const auto* t = o.if_contains("detected-ms"); t && t->is_int64()) {
    fence.detected_ms = t->as_int64();
  }
  if (const auto* files = o.if_contains("files"); files && files->is_array()) {
    for (const json::value& f : files->as_array()) {
      if (f.is_string()) fence.files.emplace_back(f.as_string());
    }
  }
  return fence;
}

std::string EncodeFence(const Fence& fence) {
  if (fence.state == Fence::State::kNone) return "";
  json::object o;
  o["state"] = fence.state == Fence::State::kKept ? "kept" : "fenced";
  o["detected-ms"] = fence.detected_ms;
  json::array files;
  for (const std::string& f : fence.files) files.emplace_back(f);
  o["files"] = std::move(files);
  return json::serialize(o);
}

std::string WriterTag(std::string_view deployment_id) {
  std::string tag;
  for (char c : deployment_id) {
    if (tag.size() == 8) break;
    if (std::isxdigit(static_cast<unsigned char>(c))) {
      tag += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return tag.size() == 8 ? tag : "";
}

bool WrittenBy(std::string_view metadata_file, std::string_view tag) {
  if (tag.empty()) return false;
  const std::string_view name = BaseName(metadata_file);
  const size_t dash = name.find('-');
  return dash != std::string_view::npos && name.substr(dash + 1).starts_with(tag);
}

Result<std::vector<std::string>> FindForeignMetadata(io::ObjectStore& objects,
                                                     const metadata::TableMetadata& current,
                                                     std::string_view current_location,
                                                     std::string_view tag, const Fence& fence,
                                                     bool full) {
  const std::string dir = metadata::MetadataDirectory(current) + "/";
  std::vector<std::string> names;  // version prefixes looked at; empty = every file
  std::string list_prefix = dir;
  if (!full) {
    // Java and PyIceberg write version 0 after a base whose name has no version, Firn 1.
    const int version = std::max(metadata::ParseMetadataVersion(current_location), 0);
    names = {VersionPrefix(version), VersionPrefix(version + 1)};
    size_t common = 0;
    while (common < names[0].size() && common < names[1].size() &&
           names[0][common] == names[1][common]) {
      ++common;
    }
    list_prefix += names[0].substr(0, common);  // one listing covers both
  }
  FIRN_ASSIGN_OR_RETURN(std::vector<io::ObjectInfo> listed, objects.List(list_prefix));
  std::set<std::string_view> chain{current_location};
  for (const auto& entry : current.metadata_log) chain.insert(entry.metadata_file);
  const bool kept = fence.state == Fence::State::kKept;
  std::vector<std::string> foreign;
  for (const io::ObjectInfo& object : listed) {
    const std::string_view name = BaseName(object.uri);
    if (!IsMetadataFileName(name)) continue;
    if (std::string_view(object.uri).substr(0, dir.size()) != dir) continue;
    if (object.uri.find('/', dir.size()) != std::string::npos) continue;  // a subfolder
    if (!names.empty() && std::ranges::none_of(names, [&](const std::string& prefix) {
          return name.starts_with(prefix);
        })) {
      continue;
    }
    if (chain.contains(object.uri) || WrittenBy(object.uri, tag)) continue;
    if (kept && std::ranges::find(fence.files, object.uri) != fence.files.end()) continue;
    foreign.push_back(object.uri);
  }
  return foreign;
}

Error FencedCommitError(const store::Identifier& id, const Fence& fence) {
  std::string files;
  for (size_t i = 0; i < fence.files.size() && i < 3; ++i) {
    files += (i ? ", " : "") + fence.files[i];
  }
  if (fence.files.size() > 3) files += ", …";
  return Error(ErrorKind::kCommitFailed,
               "Commit refused: table " + store::IdentifierDisplay(id) +
                   " is fenced because another catalog wrote to it (" + files +
                   "). Nothing was committed. An administrator resolves this with `firn admin "
                   "fence keep-ours|adopt|release`");
}

Result<std::vector<FencedTable>> ScanForForeignWriters(store::CatalogStore& store,
                                                       io::ObjectStore& objects,
                                                       std::string_view tag) {
  std::vector<FencedTable> fenced;
  FIRN_ASSIGN_OR_RETURN(auto scopes, store.ListCatalogScopes());
  for (const store::CatalogScope& scope : scopes) {
    FIRN_RETURN_IF_ERROR(ForEachObject(
        store, scope, {}, store::ObjectKind::kTable,
        [&](const store::Identifier& id) -> Status {
          auto ptr = store.LoadPointer(scope, id, store::ObjectKind::kTable);
          if (!ptr) return Ok();  // dropped meanwhile
          Fence fence = DecodeFence(ptr->fence);
          if (fence.state == Fence::State::kFenced) return Ok();
          auto meta = ReadTableMetadataFile(objects, ptr->metadata_location, std::nullopt);
          if (!meta) return Ok();  // unreadable: firn verify's business, not a foreign writer
          FIRN_ASSIGN_OR_RETURN(auto foreign,
                                FindForeignMetadata(objects, *meta, ptr->metadata_location, tag,
                                                    fence, /*full=*/true));
          if (foreign.empty()) return Ok();
          Fence found{Fence::State::kFenced, NowMillis(), fence.files};
          found.files.insert(found.files.end(), foreign.begin(), foreign.end());
          FIRN_RETURN_IF_ERROR(
              store.SetFence(scope, id, store::ObjectKind::kTable, EncodeFence(found)));
          fenced.push_back({scope, id, ptr->metadata_location, std::move(found)});
          return Ok();
        }));
  }
  return fenced;
}

namespace {

// The foreign file to adopt: the newest (by version, then name) that descends from `current`.
Result<std::pair<std::string, metadata::TableMetadata>> AdoptionCandidate(
    io::ObjectStore& objects, const metadata::TableMetadata& ours,
    const std::string& current_location, const Fence& fence) {
  std::vector<std::string> files = fence.files;
  std::ranges::sort(files, [](const std::string& a, const std::string& b) {
    const int va = metadata::ParseMetadataVersion(a);
    const int vb = metadata::ParseMetadataVersion(b);
    return va != vb ? va > vb : a > b;
  });
  std::string why = "no foreign file is recorded";
  for (const std::string& file : files) {
    auto theirs = ReadTableMetadataFile(objects, file, std::nullopt);
    if (!theirs) {
      why = file + " cannot be read: " + theirs.error().message;
      continue;
    }
    if (theirs->table_uuid != ours.table_uuid) {
      why = file + " describes another table (UUID " + theirs->table_uuid + ")";
      continue;
    }
    if (theirs->location != ours.location ||
        metadata::MetadataDirectory(*theirs) != metadata::MetadataDirectory(ours)) {
      why = file + " moves the table's location (register it instead)";
      continue;
    }
    const bool descends = std::ranges::any_of(theirs->metadata_log, [&](const auto& entry) {
      return entry.metadata_file == current_location;
    });
    if (!descends) {
      why = file + " does not descend from the current metadata " + current_location +
            " (the chains forked: adopting would lose commits; keep ours or release)";
      continue;
    }
    return std::pair{file, std::move(*theirs)};
  }
  return Fail(ErrorKind::kIllegalArgument, "Nothing to adopt: " + why);
}

}  // namespace

Result<std::string> ResolveFence(store::CatalogStore& store, io::ObjectStore& objects,
                                 std::string_view deployment, const store::CatalogScope& scope,
                                 const store::Identifier& id, FenceResolution resolution) {
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store.LoadPointer(scope, id, store::ObjectKind::kTable));
  Fence fence = DecodeFence(ptr.fence);
  if (fence.state != Fence::State::kFenced) {
    return Fail(ErrorKind::kIllegalArgument,
                "Table " + store::IdentifierDisplay(id) + " is not fenced");
  }
  store::AuditEntry audit;
  audit.realm = scope.realm;
  audit.catalog = scope.catalog;
  audit.principal = "firn admin";
  audit.operation = "resolveFence";
  audit.object = "table " + store::IdentifierDisplay(id);
  audit.old_location = ptr.metadata_location;
  audit.outcome = "success";
  std::string account;
  switch (resolution) {
    case FenceResolution::kKeepOurs: {
      fence.state = Fence::State::kKept;
      FIRN_RETURN_IF_ERROR(
          store.SetFence(scope, id, store::ObjectKind::kTable, EncodeFence(fence)));
      audit.new_location = ptr.metadata_location;
      account = "kept ours: " + std::to_string(fence.files.size()) +
                " foreign metadata file(s) are ignored from now on; commits resume";
      break;
    }
    case FenceResolution::kAdopt: {
      FIRN_ASSIGN_OR_RETURN(auto ours, ReadTableMetadataFile(objects, ptr.metadata_location,
                                                             std::nullopt));
      FIRN_ASSIGN_OR_RETURN(auto chosen,
                            AdoptionCandidate(objects, ours, ptr.metadata_location, fence));
      // Compare-and-swap from the pointer we read: a commit cannot slip in (the table is
      // fenced), but another admin could.
      FIRN_RETURN_IF_ERROR(store.SwapPointer(scope, id, store::ObjectKind::kTable,
                                             ptr.metadata_location, chosen.first));
      // The adopted file's chain holds the foreign files it descends from; any others stay
      // acknowledged so the next commit does not fence again.
      fence.state = Fence::State::kKept;
      FIRN_RETURN_IF_ERROR(
          store.SetFence(scope, id, store::ObjectKind::kTable, EncodeFence(fence)));
      audit.new_location = chosen.first;
      account = "adopted " + chosen.first + "; commits resume from it";
      break;
    }
    case FenceResolution::kRelease: {
      auto meta = ReadTableMetadataFile(objects, ptr.metadata_location, std::nullopt);
      FIRN_RETURN_IF_ERROR(store.DropObject(scope, id, store::ObjectKind::kTable));
      if (meta) DeleteOwnStoreClaim(objects, deployment, *meta);
      account = "released: the catalog entry is dropped (no file deleted) and this "
                "deployment's claim is withdrawn";
      break;
    }
  }
  audit.detail = account;
  if (auto st = store.AppendAudit(audit); !st) {
    account += " (the audit row could not be written: " + st.error().message + ")";
  }
  return account;
}

}  // namespace firn::catalog
