#include "catalog/foreign_writers.h"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "catalog/location_policy.h"
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
  // Files are compared in their canonical form: a pointer registered as s3a://… or file:///…
  // names the same file as the s3://… or bare path a listing returns.
  auto canonical = [](std::string_view uri) {
    auto normalised = NormalizeLocation(uri);
    return normalised ? *normalised : std::string(uri);
  };
  std::set<std::string> known{canonical(current_location)};
  int oldest = std::max(metadata::ParseMetadataVersion(current_location), 0);
  for (const auto& entry : current.metadata_log) {
    known.insert(canonical(entry.metadata_file));
    const int v = metadata::ParseMetadataVersion(entry.metadata_file);
    if (v >= 0) oldest = std::min(oldest, v);
  }
  if (fence.state == Fence::State::kKept) {
    for (const std::string& f : fence.files) known.insert(canonical(f));
  }
  std::vector<std::string> prefixes;  // the version prefixes looked at; empty = every file
  if (!full) {
    // Java and PyIceberg write version 0 after a base whose name has no version, Firn 1.
    const int version = std::max(metadata::ParseMetadataVersion(current_location), 0);
    prefixes = {VersionPrefix(version), VersionPrefix(version + 1)};
  }
  std::vector<io::ObjectInfo> listed;
  if (prefixes.empty()) {
    FIRN_ASSIGN_OR_RETURN(listed, objects.List(dir));
  } else if (prefixes[0].substr(0, 4) == prefixes[1].substr(0, 4)) {
    // 00041- and 00042-: one listing of 0004 covers both and little else.
    FIRN_ASSIGN_OR_RETURN(listed, objects.List(dir + prefixes[0].substr(0, 4)));
  } else {
    for (const std::string& prefix : prefixes) {  // 00009- and 00010-: two narrow listings
      FIRN_ASSIGN_OR_RETURN(auto some, objects.List(dir + prefix));
      listed.insert(listed.end(), some.begin(), some.end());
    }
  }
  std::vector<std::string> foreign;
  for (const io::ObjectInfo& object : listed) {
    const std::string_view name = BaseName(object.uri);
    if (!IsMetadataFileName(name)) continue;
    if (std::string_view(object.uri).substr(0, dir.size()) != dir) continue;
    if (object.uri.find('/', dir.size()) != std::string::npos) continue;  // a subfolder
    if (!prefixes.empty() && std::ranges::none_of(prefixes, [&](const std::string& prefix) {
          return name.starts_with(prefix);
        })) {
      continue;
    }
    // The full scan judges only versions the chain still spans: older files were trimmed from
    // the metadata log (or predate it) and cannot be told apart.
    if (prefixes.empty() && metadata::ParseMetadataVersion(object.uri) < oldest) continue;
    if (WrittenBy(object.uri, tag) || known.contains(canonical(object.uri))) continue;
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

namespace {

// The audit row of an operator's action on one table (principal "firn admin").
store::AuditEntry AdminAudit(const store::CatalogScope& scope, const store::Identifier& id,
                             std::string operation, std::string old_location) {
  store::AuditEntry audit;
  audit.realm = scope.realm;
  audit.catalog = scope.catalog;
  audit.principal = "firn admin";
  audit.operation = std::move(operation);
  audit.object = "table " + store::IdentifierDisplay(id);
  audit.old_location = std::move(old_location);
  return audit;
}

}  // namespace

Result<std::optional<FencedTable>> ScanTableForForeignWriters(store::CatalogStore& store,
                                                              io::ObjectStore& objects,
                                                              std::string_view tag,
                                                              const store::CatalogScope& scope,
                                                              const store::Identifier& id) {
  auto ptr = store.LoadPointer(scope, id, store::ObjectKind::kTable);
  if (!ptr) return std::nullopt;  // dropped meanwhile
  Fence fence = DecodeFence(ptr->fence);
  if (fence.state == Fence::State::kFenced) return std::nullopt;
  auto meta = ReadTableMetadataFile(objects, ptr->metadata_location, std::nullopt);
  if (!meta) return std::nullopt;  // unreadable: firn verify's business, not a foreign writer
  FIRN_ASSIGN_OR_RETURN(auto foreign, FindForeignMetadata(objects, *meta, ptr->metadata_location,
                                                          tag, fence, /*full=*/true));
  if (foreign.empty()) return std::nullopt;
  Fence found{Fence::State::kFenced, NowMillis(), fence.files};
  found.files.insert(found.files.end(), foreign.begin(), foreign.end());
  store::AuditEntry audit =
      AdminAudit(scope, id, "detectForeignWriter", ptr->metadata_location);
  audit.outcome = "fenced";
  audit.detail = "another catalog wrote " + foreign.front();
  FIRN_RETURN_IF_ERROR(
      store.SetFence(scope, id, store::ObjectKind::kTable, EncodeFence(found), &audit));
  return FencedTable{scope, id, ptr->metadata_location, std::move(found)};
}

Result<std::vector<FencedTable>> ScanForForeignWriters(store::CatalogStore& store,
                                                       io::ObjectStore& objects,
                                                       std::string_view tag) {
  if (tag.empty()) {
    return Fail(ErrorKind::kIllegalArgument,
                "This database has no deployment id yet (no firn serve has run on it): its "
                "own metadata files cannot be told from another writer's");
  }
  std::vector<FencedTable> fenced;
  FIRN_ASSIGN_OR_RETURN(auto scopes, store.ListCatalogScopes());
  for (const store::CatalogScope& scope : scopes) {
    FIRN_RETURN_IF_ERROR(ForEachObject(
        store, scope, {}, store::ObjectKind::kTable,
        [&](const store::Identifier& id) -> Status {
          FIRN_ASSIGN_OR_RETURN(auto found,
                                ScanTableForForeignWriters(store, objects, tag, scope, id));
          if (found) fenced.push_back(std::move(*found));
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
  store::AuditEntry audit = AdminAudit(scope, id, "resolveFence", ptr.metadata_location);
  audit.outcome = "success";
  std::string account;
  switch (resolution) {
    case FenceResolution::kKeepOurs: {
      fence.state = Fence::State::kKept;
      audit.new_location = ptr.metadata_location;
      account = "kept ours: " + std::to_string(fence.files.size()) +
                " foreign metadata file(s) are ignored from now on; commits resume";
      audit.detail = account;
      FIRN_RETURN_IF_ERROR(
          store.SetFence(scope, id, store::ObjectKind::kTable, EncodeFence(fence), &audit));
      break;
    }
    case FenceResolution::kAdopt: {
      FIRN_ASSIGN_OR_RETURN(auto ours, ReadTableMetadataFile(objects, ptr.metadata_location,
                                                             std::nullopt));
      FIRN_ASSIGN_OR_RETURN(auto chosen,
                            AdoptionCandidate(objects, ours, ptr.metadata_location, fence));
      // Compare-and-swap from the pointer we read: a commit cannot slip in (the table is
      // fenced), but another admin could. The row goes with the swap, the change that matters:
      // the pointer's move is never missing from the trail.
      audit.new_location = chosen.first;
      account = "adopted " + chosen.first + "; commits resume from it";
      audit.detail = account;
      FIRN_RETURN_IF_ERROR(store.SwapPointer(scope, id, store::ObjectKind::kTable,
                                             ptr.metadata_location, chosen.first, &audit));
      // The adopted file's chain holds the foreign files it descends from; any others stay
      // acknowledged so the next commit does not fence again.
      fence.state = Fence::State::kKept;
      if (auto kept = store.SetFence(scope, id, store::ObjectKind::kTable, EncodeFence(fence));
          !kept) {
        return Fail(kept.error().kind,
                    "Adopted " + chosen.first + ", but the fence could not be set aside (" +
                        kept.error().message + "); run `firn admin fence keep-ours` to resume "
                        "commits");
      }
      break;
    }
    case FenceResolution::kRelease: {
      auto meta = ReadTableMetadataFile(objects, ptr.metadata_location, std::nullopt);
      audit.detail = "released: the catalog entry is dropped (no file deleted)";
      FIRN_RETURN_IF_ERROR(store.DropObject(scope, id, store::ObjectKind::kTable, &audit));
      const bool withdrew = meta && DeleteOwnStoreClaim(objects, deployment, *meta);
      account = audit.detail + (withdrew ? " and this deployment's claim is withdrawn"
                                         : "; no claim of this deployment was found to withdraw");
      break;
    }
  }
  return account;
}

}  // namespace firn::catalog
