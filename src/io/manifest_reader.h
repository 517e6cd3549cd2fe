// Reads Iceberg manifest lists and manifests (Avro object container files) from bytes.
//
// Contract:
// - Pure functions over bytes: no file or network I/O; callers pass the whole file.
// - Fields are found by NAME in the writer schema stored in the file, never by position, so
//   v1, v2 and v3 files (and writers that order or add fields differently) all read.
//   Fields a version lacks take the spec's defaults (v1: content = 0).
// - Supported codecs: "null" and "deflate" (what Iceberg Java and PyIceberg write by default).
//   Other codecs (snappy, zstandard, ...) fail with kBadRequest "unsupported codec".
// - Errors: invalid input (empty, truncated, not Avro, wrong schema, required value null,
//   unsupported codec) -> kBadRequest with message "Cannot read manifest list: <reason>" or
//   "Cannot read manifest: <reason>"; failures of our own (zlib) -> kInternal. Corrupt input never
//   crashes, never reads out of bounds and never allocates more than kMaxDecodedBytes.
// - Truncation: an Avro container has no footer, so bytes cut exactly after a block's sync
//   marker are a valid file with fewer records. Any other cut fails. Callers that must be sure
//   they read everything compare the byte count with ManifestListEntry::manifest_length (for
//   manifests) or the object's size in the store.
// - Thread-safety: safe to call concurrently from any number of threads. Avro C keeps its error
//   text in unsynchronised process-wide buffers, so the one Avro C call made here (writer-schema
//   JSON parsing) runs under an internal mutex; container framing, decompression and binary
//   decoding are our own code over caller-owned bytes and run in parallel.
// - Ownership: `avro_bytes` is only read during the call; results own their strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace firn::io {

// Upper bound on decompressed bytes per file; a corrupt deflate stream cannot balloon memory.
inline constexpr int64_t kMaxDecodedBytes = int64_t{512} << 20;

// One `manifest_file` record of a manifest list.
struct ManifestListEntry {
  std::string manifest_path;
  int64_t manifest_length = 0;
  int32_t partition_spec_id = 0;
  int32_t content = 0;  // 0 data, 1 deletes (always 0 in v1)
  std::optional<int64_t> added_snapshot_id;
};

// Returns every manifest_file record in file order.
Result<std::vector<ManifestListEntry>> ReadManifestList(std::string_view avro_bytes);

// One `manifest_entry` record of a manifest (with the fields of its `data_file`).
struct ManifestFileEntry {
  int32_t status = 0;   // 0 existing, 1 added, 2 deleted
  int32_t content = 0;  // 0 data, 1 position deletes, 2 equality deletes (always 0 in v1)
  std::string file_path;
  int64_t file_size_in_bytes = 0;
  int64_t record_count = 0;
};

// Returns every manifest_entry record in file order, whatever its status.
Result<std::vector<ManifestFileEntry>> ReadManifest(std::string_view avro_bytes);

// A manifest list or manifest whose paths start with `from` rewritten to start with `to`
// (replication into a bucket or root of another name, docs/recovery.md): `manifest_path`, and
// `file_path` and `referenced_data_file` of data files, wherever the schema places them. Every
// other byte of every record is copied as it is; the header (schema, codec, Iceberg's keys)
// and the sync marker are kept; blocks are re-encoded with the file's codec. `rewritten`
// counts the paths changed. Errors as ReadManifest ("Cannot rewrite manifest file: …").
Result<std::string> RewriteManifestPaths(std::string_view avro_bytes, std::string_view from,
                                         std::string_view to, size_t* rewritten = nullptr);

}  // namespace firn::io
