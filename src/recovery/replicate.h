// `firn replicate`: a table-aware copy from one store or prefix to another (docs/recovery.md,
// "Replicating"). Bucket replication copies objects in whatever order it likes, and a metadata
// file copied before the files it names makes a replica that registers and cannot be read.
// This copies tables:
//
// - per table, the head (by metadata-log chain, chain.h) is read once, and the closure of that
//   metadata is copied first (data and delete files, manifests, manifest lists, statistics),
//   the metadata file itself after all of them, and the earlier metadata files of its log
//   last; so at every instant the replica's newest metadata names only files the replica has,
//   and is a consistent, slightly older table, however the source's writers go on;
// - incrementally: an object the destination already has is not copied again (files are
//   immutable by name; the local store writes whole files under their names, never torn ones);
// - with `rewrite` (OLD=NEW), every absolute path inside the copied metadata files, manifest
//   lists and manifests that starts with OLD is rewritten to start with NEW, as part of the
//   copy: a replica whose bucket or root has another name is readable as it lands;
// - optionally registering each copied head into a replica catalog (a warm standby);
// - reporting objects, bytes and time, and per table the replica's lag behind the source (its
//   RPO): how much newer the source's head is than the replica's when the table is done.
//
// `object_copy` is the drill's wrong order (docs/recovery.md, "firn drill"), not a mode for
// use: objects copied by listing, data first and metadata afterwards, as a bucket replication
// may, so that a drill can show that verification catches the replica it makes.
//
// Objects are held in memory while copied (one per worker): the limit is `max_object_bytes`.
// Thread-safety: Replicate runs its own workers; stores are thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "io/object_store.h"
#include "store/store.h"

namespace firn::recovery {

struct TableReplica {
  std::string table;          // the table's directory under the source prefix ("db/t")
  store::Identifier id;       // its name (from its claim on the store, else its directory)
  std::string source_head;    // the metadata file copied
  std::string replica_head;   // where it landed
  size_t copied = 0;          // objects written to the destination
  size_t present = 0;         // objects the destination already had
  uint64_t bytes = 0;         // bytes written
  size_t paths_rewritten = 0;
  int64_t lag_ms = 0;         // the source's newest head's last-updated-ms minus the replica's
  std::string action;         // "copied", "up-to-date", "ambiguous", "failed"
  std::string detail;
  std::string registered;     // the replica catalog's answer when registering ("" = not asked)
  int64_t micros = 0;
};

struct ReplicateOptions {
  std::string from;  // source prefix (file:// or s3://)
  std::string to;    // destination prefix: the same layout below it
  std::optional<std::pair<std::string, std::string>> rewrite;  // OLD, NEW
  int threads = 8;
  size_t max_object_bytes = size_t{5} << 30;
  bool object_copy = false;  // the drill's wrong order: by listing, data first, metadata last
  // Called (serialised) once per table as it finishes.
  std::function<void(const TableReplica&, size_t done, size_t total)> on_table;
  // Registers (or moves) the replica's head in a replica catalog; its answer is reported.
  std::function<Result<std::string>(const store::Identifier& id, const std::string& head)>
      register_table;
  // Called between the data and the metadata of an object copy (drills: a writer commits).
  std::function<void()> between_phases;
  // Test mode only (FIRN_TEST_COPY_DELAY_MS): a pause before every object written, so that a
  // test can kill a copy half-way.
  std::chrono::milliseconds test_delay{0};
};

struct ReplicateReport {
  std::vector<TableReplica> tables;
  size_t copied = 0;
  size_t present = 0;
  uint64_t bytes = 0;
  double seconds = 0;
};

Result<ReplicateReport> Replicate(io::ObjectStore& source, io::ObjectStore& destination,
                                  const ReplicateOptions& options);

// The metadata file's text with every path that starts with `from` made to start with `to`:
// location, the log's files, manifest lists (and v1 manifests), statistics files, and the
// write.*.path properties. `changed` counts them.
Result<std::string> RewriteMetadataPaths(std::string_view text, std::string_view location,
                                         std::string_view from, std::string_view to,
                                         size_t* changed = nullptr);

std::string ReplicaJson(const TableReplica& table);
std::string ReplicateSummaryJson(const ReplicateReport& report);

}  // namespace firn::recovery
