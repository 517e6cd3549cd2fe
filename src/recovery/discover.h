// Finding the tables under a store prefix (docs/recovery.md, "Discovery").
//
// A table is a directory with a `metadata/` child holding `*.metadata.json` files (Iceberg's
// layout, `<location>/metadata`). The walk lists one directory level at a time (S3: a
// delimiter listing; file://: one readdir), in parallel, and never lists a table's `data/`:
// the cost is the number of directories and metadata files, not the number of data files.
// Tables whose metadata lives elsewhere (`write.metadata.path`) are not found by it.
//
// Then, per table, the metadata files that can be head candidates are read and parsed: newest
// version first, skipping every file a file already read lists as a predecessor (usually one
// read per table; every stray costs one more).
//
// Thread-safety: Discover and ReadCandidates may run concurrently on one thread-safe store.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "io/object_store.h"
#include "recovery/chain.h"

namespace firn::recovery {

// One table directory found on the store.
struct FoundTable {
  std::string dir;                            // the table directory, ending with '/'
  std::vector<io::ObjectInfo> metadata_files; // the *.metadata.json files in its metadata/
};

struct DiscoverOptions {
  int threads = 8;
  // Called (from any worker) after each directory listed: directories listed, tables found.
  std::function<void(size_t dirs, size_t tables)> progress;
};

// Every table directory under `prefix` (a URI: file:// or s3://; the prefix itself may be a
// table directory), sorted by directory. Listing errors fail the whole walk.
Result<std::vector<FoundTable>> Discover(io::ObjectStore& objects, std::string_view prefix,
                                         const DiscoverOptions& options = {});

// A metadata file that could not be read or parsed, and why.
struct UnreadableFile {
  std::string uri;
  std::string error;
};

struct TableFiles {
  std::vector<MetadataFacts> read;          // candidates and what was read to find them
  std::vector<UnreadableFile> unreadable;
  size_t skipped = 0;                       // files listed as predecessors, never read
};

// Reads what ChooseHead needs of one table's metadata files (`max_bytes` bounds each file).
TableFiles ReadCandidates(io::ObjectStore& objects, const FoundTable& table, size_t max_bytes);

// Whether a file name is an Iceberg table metadata file (`….metadata.json`, gzip'd too).
bool IsMetadataFileName(std::string_view name);

}  // namespace firn::recovery
