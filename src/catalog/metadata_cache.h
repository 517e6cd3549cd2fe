// MetadataCache: parsed table metadata, its JSON text and that text deflated for gzip answers
// (common/gzip.h), keyed by metadata location.
//
// Metadata files are immutable, so an entry never goes stale; the cache only bounds memory
// (least recently used entries go first once `max_bytes` is exceeded).
// Thread-safety: all methods are safe to call concurrently.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "common/gzip.h"
#include "metadata/table_metadata.h"

namespace firn::catalog {

// Which snapshots a table load returns (loadTable's `snapshots` parameter).
enum class SnapshotMode { kAll, kRefs };

// One immutable metadata version with the serialised forms the REST layer sends. The parsed
// `location` and `metadata` are what the catalog commits against; the response bytes and ETags
// are reached only through MetadataJson / Etag, so how they are kept stays this file's concern.
class CachedTable {
 public:
  // `json_all` may be passed when the caller already serialised `metadata` (commit path).
  CachedTable(std::string location, metadata::TableMetadata metadata, std::string json_all);
  CachedTable(const CachedTable&) = delete;
  CachedTable& operator=(const CachedTable&) = delete;

  const std::string location;
  const metadata::TableMetadata metadata;

  // The metadata JSON with every snapshot (kAll) or only the referenced ones (kRefs; built on
  // first use: most versions are never loaded that way, so committing does not pay for it).
  const std::string& MetadataJson(SnapshotMode mode) const {
    return mode == SnapshotMode::kRefs ? JsonRefs() : json_all_;
  }
  // That JSON deflated once, as a piece of a gzip stream (common/gzip.h), for gzip responses
  // that embed it (built on first use, like the refs JSON). Null when the piece would be larger
  // than the share of the cache's cost reserved for it (a quarter of the JSON with all
  // snapshots); such a response is compressed whole, per request, like any other.
  const DeflatedPiece* MetadataGzip(SnapshotMode mode) const;
  // The strong ETag of that representation of this version.
  const std::string& Etag(SnapshotMode mode) const {
    return mode == SnapshotMode::kRefs ? etag_refs_ : etag_all_;
  }
  // Whether a load at `now_ms` should look for another catalog's files next to this version
  // (the last such look was `every_ms` or more ago). True for one caller per interval: one
  // atomic load on the hot path, a compare-exchange only when an interval has passed.
  bool ClaimLoadCheck(int64_t now_ms, int64_t every_ms) const {
    int64_t last = load_checked_ms_.load(std::memory_order_relaxed);
    return now_ms - last >= every_ms &&
           load_checked_ms_.compare_exchange_strong(last, now_ms, std::memory_order_relaxed);
  }

 private:
  const std::string& JsonRefs() const;

  // A lazily deflated form of one JSON.
  struct LazyGzip {
    std::once_flag once;
    std::optional<DeflatedPiece> piece;  // empty: over its reserve
  };
  const DeflatedPiece* Deflated(LazyGzip& lazy, const std::string& json) const;

  std::string json_all_;
  std::string etag_all_;
  std::string etag_refs_;
  mutable std::once_flag refs_once_;
  mutable std::string json_refs_;  // empty = same as json_all_
  mutable LazyGzip gzip_all_;
  mutable LazyGzip gzip_refs_;  // unused while json_refs_ is empty
  mutable std::atomic<int64_t> load_checked_ms_{0};
};

std::shared_ptr<const CachedTable> MakeCachedTable(std::string location,
                                                   metadata::TableMetadata metadata,
                                                   std::string json_all = {});

class MetadataCache {
 public:
  explicit MetadataCache(size_t max_bytes) : max_bytes_(max_bytes) {}
  ~MetadataCache();  // its bytes leave firn_metadata_cache_bytes

  std::shared_ptr<const CachedTable> Get(const std::string& location);
  void Put(std::shared_ptr<const CachedTable> entry);

 private:
  struct Slot {
    std::shared_ptr<const CachedTable> entry;
    std::list<std::string>::iterator lru_pos;
  };
  // Parsed metadata (Boost.JSON summaries, vectors, maps) takes several times its JSON text;
  // measured RSS per cached version was ~5x the JSON size, plus the refs JSON when built, plus
  // at most a quarter of the JSON for each gzip piece when built (MetadataGzip keeps no piece
  // larger than that, so the cost is fixed when the entry is put and never under-counts).
  static size_t Cost(const CachedTable& t) {
    const size_t json = t.MetadataJson(SnapshotMode::kAll).size();
    return 6 * json + 2 * (json / 4) + 2 * t.location.size() + 256;
  }

  const size_t max_bytes_;
  std::mutex mu_;
  size_t bytes_ = 0;
  std::list<std::string> lru_;  // front = most recent
  std::unordered_map<std::string, Slot> slots_;
};

}  // namespace firn::catalog
