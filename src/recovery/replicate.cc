#include "recovery/replicate.h"

#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_set>

#include "catalog/location_policy.h"
#include "catalog/metadata_files.h"
#include "catalog/purge.h"
#include "catalog/store_claims.h"
#include "common/macros.h"
#include "common/strings.h"
#include "io/manifest_reader.h"
#include "metadata/gzip.h"
#include "metadata/metadata_paths.h"
#include "metadata/serde.h"
#include "recovery/chain.h"
#include "recovery/discover.h"

namespace firn::recovery {
namespace {

using Clock = std::chrono::steady_clock;

std::string WithSlash(std::string prefix) {
  if (!prefix.ends_with('/')) prefix.push_back('/');
  return prefix;
}

std::string Canon(std::string_view uri) {
  auto n = catalog::NormalizeLocation(uri);
  return n ? std::move(*n) : std::string(uri);
}

std::string Swap(std::string_view value, std::string_view from, std::string_view to,
                 size_t& changed) {
  if (!value.starts_with(from)) return std::string(value);
  ++changed;
  return std::string(to) + std::string(value.substr(from.size()));
}

// What a file is, for how it is copied.
enum class Kind { kContent, kManifest, kMetadata, kOther };

struct Item {
  std::string source;
  std::string destination;
  Kind kind = Kind::kOther;
};

// Runs `work(i)` for i in [0, n) on up to `threads` workers; the first error wins.
Status Parallel(size_t n, int threads, const std::function<Status(size_t)>& work) {
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::optional<Error> first;
  auto run = [&] {
    for (size_t i = next++; i < n; i = next++) {
      {
        std::lock_guard lock(mu);
        if (first) return;
      }
      if (Status st = work(i); !st) {
        std::lock_guard lock(mu);
        if (!first) first = st.error();
      }
    }
  };
  std::vector<std::thread> pool;
  const int count = static_cast<int>(std::min<size_t>(std::clamp(threads, 1, 64), n));
  for (int t = 0; t < count; ++t) pool.emplace_back(run);
  for (std::thread& t : pool) t.join();
  if (first) return Fail(*first);
  return Ok();
}

class Replication {
 public:
  Replication(io::ObjectStore& source, io::ObjectStore& destination,
              const ReplicateOptions& options)
      : source_(source),
        destination_(destination),
        options_(options),
        from_(WithSlash(Canon(options.from))),
        to_(WithSlash(Canon(options.to))) {}

  // The destination URI of a source file, or nullopt when it lies outside the source prefix.
  std::optional<std::string> Map(std::string_view source_uri) const {
    const std::string canon = Canon(source_uri);
    if (!canon.starts_with(from_)) return std::nullopt;
    return to_ + canon.substr(from_.size());
  }

  TableReplica Table(const FoundTable& found) {
    const auto start = Clock::now();
    TableReplica out;
    out.table = found.dir.substr(std::min(found.dir.size(), WithSlash(options_.from).size()));
    if (out.table.ends_with('/')) out.table.pop_back();
    Status done = Copy(found, out);
    if (!done) {
      out.action = "failed";
      out.detail = done.error().message;
    }
    out.micros =
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
    return out;
  }

 private:
  Status Copy(const FoundTable& found, TableReplica& out) {
    TableFiles files = ReadCandidates(source_, found, 64u << 20);
    HeadChoice choice = ChooseHead(files.read);
    if (!choice.head || !files.unreadable.empty()) {
      out.action = "ambiguous";
      out.detail = files.unreadable.empty() ? choice.reason
                                            : "a candidate cannot be read: " +
                                                  files.unreadable.front().uri;
      return Ok();
    }
    const MetadataFacts& head = files.read[*choice.head];
    out.source_head = head.uri;
    auto replica_head = Map(head.uri);
    if (!replica_head) {
      return Fail(ErrorKind::kBadRequest, "metadata file " + head.uri + " is outside " + from_);
    }
    out.replica_head = *replica_head;
    Name(head, out);
    FIRN_ASSIGN_OR_RETURN(metadata::TableMetadata meta,
                          catalog::ReadTableMetadataFile(source_, head.uri, 64u << 20));
    // What the destination has under the table already: one listing, not a request a file.
    std::unordered_set<std::string> present;
    if (auto dest_dir = Map(found.dir)) {
      auto listed = destination_.List(WithSlash(*dest_dir));
      if (listed) {
        for (const io::ObjectInfo& f : *listed) present.insert(Canon(f.uri));
      }
    }
    auto refs = catalog::CollectReferencedFiles(source_, meta, "", /*with_content=*/true,
                                                [] { return true; });
    if (!refs || !refs->complete) {
      return Fail(ErrorKind::kBadRequest,
                  "the source's own metadata names a manifest list or manifest it does not "
                  "have; verify the source first");
    }
    std::set<std::string> log_files;
    for (const auto& entry : meta.metadata_log) log_files.insert(Canon(entry.metadata_file));
    std::vector<Item> closure, earlier;
    auto add = [&](const std::string& file, Kind kind, std::vector<Item>& into) -> Status {
      auto dest = Map(file);
      if (!dest) {
        return Fail(ErrorKind::kBadRequest,
                    "the table references " + file + ", outside the source prefix " + from_);
      }
      if (present.contains(Canon(*dest))) {
        ++out.present;
        return Ok();
      }
      into.push_back({file, *dest, kind});
      return Ok();
    };
    for (const std::string& f : refs->content) FIRN_RETURN_IF_ERROR(add(f, Kind::kContent, closure));
    for (const std::string& f : refs->manifests) {
      FIRN_RETURN_IF_ERROR(add(f, Kind::kManifest, closure));
    }
    for (const std::string& f : refs->manifest_lists) {
      FIRN_RETURN_IF_ERROR(add(f, Kind::kManifest, closure));
    }
    for (const std::string& f : refs->others) {
      if (log_files.contains(Canon(f))) {
        FIRN_RETURN_IF_ERROR(add(f, Kind::kMetadata, earlier));
      } else {
        FIRN_RETURN_IF_ERROR(add(f, Kind::kOther, closure));
      }
    }
    const bool head_present = present.contains(Canon(*replica_head));
    if (closure.empty() && earlier.empty() && head_present) {
      out.action = "up-to-date";
    } else {
      // Leaves first, in parallel; then the metadata file; then the log behind it.
      FIRN_RETURN_IF_ERROR(CopyAll(closure, out));
      if (!head_present) {
        FIRN_RETURN_IF_ERROR(CopyAll({{head.uri, *replica_head, Kind::kMetadata}}, out));
      } else {
        ++out.present;
      }
      FIRN_RETURN_IF_ERROR(CopyAll(earlier, out));
      out.action = "copied";
    }
    // How far behind the source the replica is now (its RPO for this table).
    TableFiles now = ReadCandidates(source_, found, 64u << 20);
    HeadChoice latest = ChooseHead(now.read);
    if (latest.head) out.lag_ms = now.read[*latest.head].last_updated_ms - head.last_updated_ms;
    if (options_.register_table && !out.id.name.empty()) {
      auto registered = options_.register_table(out.id, *replica_head);
      out.registered = registered ? *registered : "failed: " + registered.error().message;
    }
    return Ok();
  }

  // Names the table as recover would: its claim, else its directory under the prefix.
  void Name(const MetadataFacts& head, TableReplica& out) {
    if (auto text = source_.ReadAtMost(catalog::StoreClaimUri(head.location),
                                       catalog::kMaxClaimBytes)) {
      if (auto claim = catalog::DecodeStoreClaim(*text);
          claim && claim->table_uuid == head.table_uuid && !claim->ns.empty()) {
        out.id = {claim->ns, claim->name};
        return;
      }
    }
    std::vector<std::string> levels;
    for (std::string_view level : SplitString(out.table, '/')) levels.emplace_back(level);
    if (levels.size() < 2) return;
    out.id.name = levels.back();
    levels.pop_back();
    out.id.ns = std::move(levels);
  }

  Status CopyAll(const std::vector<Item>& items, TableReplica& out) {
    std::mutex mu;
    return Parallel(items.size(), options_.threads, [&](size_t i) -> Status {
      FIRN_ASSIGN_OR_RETURN(std::optional<size_t> bytes, CopyOne(items[i], out, mu));
      std::lock_guard lock(mu);
      if (bytes) {
        ++out.copied;
        out.bytes += *bytes;
      } else {
        ++out.present;  // another run (or a concurrent one) wrote it meanwhile
      }
      return Ok();
    });
  }

  // The bytes written; nullopt when the destination had the object already.
  Result<std::optional<size_t>> CopyOne(const Item& item, TableReplica& out, std::mutex& mu) {
    FIRN_ASSIGN_OR_RETURN(std::string bytes,
                          source_.ReadAtMost(item.source, options_.max_object_bytes));
    if (options_.rewrite) {
      const auto& [old_prefix, new_prefix] = *options_.rewrite;
      size_t changed = 0;
      if (item.kind == Kind::kManifest) {
        FIRN_ASSIGN_OR_RETURN(bytes,
                              io::RewriteManifestPaths(bytes, old_prefix, new_prefix, &changed));
      } else if (item.kind == Kind::kMetadata) {
        FIRN_ASSIGN_OR_RETURN(bytes, RewriteMetadataPaths(bytes, item.destination, old_prefix,
                                                          new_prefix, &changed));
      }
      std::lock_guard lock(mu);
      out.paths_rewritten += changed;
    }
    if (options_.test_delay.count() > 0) std::this_thread::sleep_for(options_.test_delay);
    Status written = destination_.WriteNew(item.destination, bytes);
    if (written) return std::optional<size_t>(bytes.size());
    if (written.error().kind == ErrorKind::kAlreadyExists) return std::optional<size_t>();
    return Fail(written.error());
  }

  io::ObjectStore& source_;
  io::ObjectStore& destination_;
  const ReplicateOptions& options_;
  const std::string from_;
  const std::string to_;
};

// The drill's wrong order: every object by listing, data files first, then (after
// `between_phases`) a new listing's metadata directories.
Result<ReplicateReport> ObjectCopy(io::ObjectStore& source, io::ObjectStore& destination,
                                   const ReplicateOptions& options) {
  ReplicateReport report;
  const std::string from = WithSlash(options.from);
  const std::string to = WithSlash(options.to);
  auto phase = [&](bool metadata) -> Status {
    FIRN_ASSIGN_OR_RETURN(std::vector<io::ObjectInfo> all, source.List(from));
    std::vector<io::ObjectInfo> chosen;
    for (io::ObjectInfo& f : all) {
      const bool in_metadata = f.uri.find("/metadata/") != std::string::npos;
      if (in_metadata == metadata && f.uri.starts_with(from)) chosen.push_back(std::move(f));
    }
    std::mutex mu;
    return Parallel(chosen.size(), options.threads, [&](size_t i) -> Status {
      const std::string dest = to + chosen[i].uri.substr(from.size());
      FIRN_ASSIGN_OR_RETURN(std::string bytes,
                            source.ReadAtMost(chosen[i].uri, options.max_object_bytes));
      if (options.rewrite && metadata) {
        const auto& [old_prefix, new_prefix] = *options.rewrite;
        const std::string_view name = FileName(chosen[i].uri);
        if (IsMetadataFileName(name)) {
          FIRN_ASSIGN_OR_RETURN(bytes,
                                RewriteMetadataPaths(bytes, dest, old_prefix, new_prefix));
        } else if (name.ends_with(".avro")) {
          FIRN_ASSIGN_OR_RETURN(bytes, io::RewriteManifestPaths(bytes, old_prefix, new_prefix));
        }
      }
      Status written = destination.WriteNew(dest, bytes);
      std::lock_guard lock(mu);
      if (written) {
        ++report.copied;
        report.bytes += bytes.size();
      } else if (written.error().kind == ErrorKind::kAlreadyExists) {
        ++report.present;
      } else {
        return Fail(written.error());
      }
      return Ok();
    });
  };
  FIRN_RETURN_IF_ERROR(phase(false));
  if (options.between_phases) options.between_phases();
  FIRN_RETURN_IF_ERROR(phase(true));
  return report;
}

}  // namespace

Result<std::string> RewriteMetadataPaths(std::string_view text, std::string_view location,
                                         std::string_view from, std::string_view to,
                                         size_t* changed) {
  FIRN_ASSIGN_OR_RETURN(std::string json,
                        metadata::GunzipIfNeeded(location, std::string(text)));
  FIRN_ASSIGN_OR_RETURN(metadata::TableMetadata meta, metadata::ParseTableMetadata(json));
  size_t n = 0;
  meta.location = Swap(meta.location, from, to, n);
  for (auto& entry : meta.metadata_log) {
    entry.metadata_file = Swap(entry.metadata_file, from, to, n);
  }
  for (auto& snapshot : meta.snapshots) {
    if (snapshot.manifest_list) snapshot.manifest_list = Swap(*snapshot.manifest_list, from, to, n);
    for (std::string& manifest : snapshot.manifests) manifest = Swap(manifest, from, to, n);
  }
  auto swap_path = [&](boost::json::object& o) {
    if (auto* path = o.if_contains("statistics-path"); path && path->is_string()) {
      *path = Swap(path->as_string(), from, to, n);
    }
  };
  for (auto& s : meta.statistics) swap_path(s.json);
  for (auto& s : meta.partition_statistics) swap_path(s.json);
  for (auto& [key, value] : meta.properties) {
    if (key.starts_with("write.") && key.ends_with(".path")) value = Swap(value, from, to, n);
  }
  if (changed) *changed = n;
  return metadata::EncodeMetadataFile(meta, location);
}

Result<ReplicateReport> Replicate(io::ObjectStore& source, io::ObjectStore& destination,
                                  const ReplicateOptions& options) {
  const auto start = Clock::now();
  if (options.object_copy) {
    FIRN_ASSIGN_OR_RETURN(ReplicateReport report, ObjectCopy(source, destination, options));
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return report;
  }
  DiscoverOptions discover;
  discover.threads = options.threads;
  FIRN_ASSIGN_OR_RETURN(std::vector<FoundTable> found, Discover(source, options.from, discover));
  ReplicateReport report;
  Replication replication(source, destination, options);
  for (size_t i = 0; i < found.size(); ++i) {
    TableReplica t = replication.Table(found[i]);
    report.copied += t.copied;
    report.present += t.present;
    report.bytes += t.bytes;
    if (options.on_table) options.on_table(t, i + 1, found.size());
    report.tables.push_back(std::move(t));
  }
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return report;
}

std::string ReplicaJson(const TableReplica& t) {
  boost::json::object o;
  o["table"] = t.table;
  if (!t.id.name.empty()) {
    boost::json::array ns;
    for (const std::string& level : t.id.ns) ns.emplace_back(level);
    o["namespace"] = std::move(ns);
    o["name"] = t.id.name;
  }
  o["action"] = t.action;
  if (!t.source_head.empty()) o["source-head"] = t.source_head;
  if (!t.replica_head.empty()) o["replica-head"] = t.replica_head;
  o["copied"] = t.copied;
  o["present"] = t.present;
  o["bytes"] = t.bytes;
  if (t.paths_rewritten) o["paths-rewritten"] = t.paths_rewritten;
  o["lag-ms"] = t.lag_ms;
  if (!t.registered.empty()) o["registered"] = t.registered;
  if (!t.detail.empty()) o["detail"] = t.detail;
  o["us"] = t.micros;
  return boost::json::serialize(o);
}

std::string ReplicateSummaryJson(const ReplicateReport& r) {
  boost::json::object o;
  o["summary"] = true;
  o["tables"] = r.tables.size();
  size_t failed = 0, ambiguous = 0;
  int64_t max_lag = 0;
  for (const TableReplica& t : r.tables) {
    failed += t.action == "failed";
    ambiguous += t.action == "ambiguous";
    max_lag = std::max(max_lag, t.lag_ms);
  }
  o["failed"] = failed;
  o["ambiguous"] = ambiguous;
  o["objects-copied"] = r.copied;
  o["objects-present"] = r.present;
  o["bytes"] = r.bytes;
  o["ms"] = static_cast<int64_t>(r.seconds * 1000);
  o["mb-per-second"] =
      r.seconds > 0 ? static_cast<int64_t>(static_cast<double>(r.bytes) / (1024.0 * 1024.0) /
                                           r.seconds)
                    : int64_t{0};
  o["objects-per-second"] =
      r.seconds > 0 ? static_cast<int64_t>(static_cast<double>(r.copied) / r.seconds) : 0;
  o["max-lag-ms"] = max_lag;
  return boost::json::serialize(o);
}

}  // namespace firn::recovery
