// MetadataCache: parsed table metadata and its JSON text, keyed by metadata location.
//
// Metadata files are immutable, so an entry never goes stale; the cache only bounds memory
// (least recently used entries go first once `max_bytes` is exceeded).
// Thread-safety: all methods are safe to call concurrently.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "metadata/table_metadata.h"

namespace firn::catalog {

// One immutable metadata version with the serialised forms the REST layer sends.
struct CachedTable {
  std::string location;
  metadata::TableMetadata metadata;
  std::string json_all;  // metadata JSON with every snapshot
  std::string etag_all;
  std::string etag_refs;

  // Metadata JSON with only referenced snapshots (snapshots=refs), built on first use: most
  // versions are never loaded that way, so committing does not pay for it.
  const std::string& JsonRefs() const;

 private:
  mutable std::once_flag refs_once_;
  mutable std::string json_refs_;  // empty = same as json_all
};

// `json_all` may be passed when the caller already serialised `metadata` (commit path).
std::shared_ptr<const CachedTable> MakeCachedTable(std::string location,
                                                   metadata::TableMetadata metadata,
                                                   std::string json_all = {});

class MetadataCache {
 public:
  explicit MetadataCache(size_t max_bytes) : max_bytes_(max_bytes) {}

  std::shared_ptr<const CachedTable> Get(const std::string& location);
  void Put(std::shared_ptr<const CachedTable> entry);

 private:
  struct Slot {
    std::shared_ptr<const CachedTable> entry;
    std::list<std::string>::iterator lru_pos;
  };
  // Parsed metadata (Boost.JSON summaries, vectors, maps) takes several times its JSON text;
  // measured RSS per cached version was ~5x the JSON size, plus the refs JSON when built.
  static size_t Cost(const CachedTable& t) {
    return 6 * t.json_all.size() + 2 * t.location.size() + 256;
  }

  const size_t max_bytes_;
  std::mutex mu_;
  size_t bytes_ = 0;
  std::list<std::string> lru_;  // front = most recent
  std::unordered_map<std::string, Slot> slots_;
};

}  // namespace firn::catalog
