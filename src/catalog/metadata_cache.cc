#include "catalog/metadata_cache.h"

#include <fmt/format.h>

#include <set>
#include <string_view>

#include "catalog/catalog_metrics.h"
#include "metadata/serde.h"

namespace firn::catalog {
namespace {

// FNV-1a, 64 bit: ETags only need to differ between versions and representations.
uint64_t Fnv1a(std::string_view a, std::string_view b) {
  uint64_t h = 1469598103934665603ull;
  for (std::string_view part : {a, b}) {
    for (unsigned char c : part) {
      h ^= c;
      h *= 1099511628211ull;
    }
  }
  return h;
}

std::string MakeEtag(std::string_view location, std::string_view representation) {
  return fmt::format("\"{:016x}\"", Fnv1a(location, representation));
}

// snapshots=refs: keep only snapshots some branch or tag points at; logs stay as they are.
metadata::TableMetadata RefsOnly(const metadata::TableMetadata& m) {
  std::set<int64_t> referenced;
  for (const auto& [name, ref] : m.refs) referenced.insert(ref.snapshot_id);
  if (m.current_snapshot_id) referenced.insert(*m.current_snapshot_id);
  metadata::TableMetadata out = m;
  std::erase_if(out.snapshots, [&](const metadata::Snapshot& s) {
    return !referenced.contains(s.snapshot_id);
  });
  return out;
}

bool AllSnapshotsReferenced(const metadata::TableMetadata& m) {
  std::set<int64_t> referenced;
  for (const auto& [name, ref] : m.refs) referenced.insert(ref.snapshot_id);
  if (m.current_snapshot_id) referenced.insert(*m.current_snapshot_id);
  for (const auto& s : m.snapshots) {
    if (!referenced.contains(s.snapshot_id)) return false;
  }
  return true;
}

}  // namespace

CachedTable::CachedTable(std::string location, metadata::TableMetadata metadata,
                         std::string json_all)
    : location(std::move(location)),
      metadata(std::move(metadata)),
      json_all_(json_all.empty() ? metadata::SerializeTableMetadata(this->metadata)
                                 : std::move(json_all)),
      etag_all_(MakeEtag(this->location, "snapshots=all")),
      etag_refs_(MakeEtag(this->location, "snapshots=refs")) {}

const std::string& CachedTable::JsonRefs() const {
  std::call_once(refs_once_, [this] {
    if (!AllSnapshotsReferenced(metadata)) {
      json_refs_ = metadata::SerializeTableMetadata(RefsOnly(metadata));
    }
  });
  return json_refs_.empty() ? json_all_ : json_refs_;
}

const DeflatedPiece* CachedTable::MetadataGzip(SnapshotMode mode) const {
  const std::string& json = MetadataJson(mode);
  return Deflated(&json == &json_all_ ? gzip_all_ : gzip_refs_, json);
}

const DeflatedPiece* CachedTable::Deflated(LazyGzip& lazy, const std::string& json) const {
  std::call_once(lazy.once, [&] {
    DeflatedPiece piece = DeflatePiece(json, kGzipLevelFast);
    if (piece.deflated.size() <= json_all_.size() / 4) lazy.piece = std::move(piece);
  });
  return lazy.piece ? &*lazy.piece : nullptr;
}

std::shared_ptr<const CachedTable> MakeCachedTable(std::string location,
                                                   metadata::TableMetadata metadata,
                                                   std::string json_all) {
  return std::make_shared<const CachedTable>(std::move(location), std::move(metadata),
                                             std::move(json_all));
}

MetadataCache::~MetadataCache() { Metrics().cache_bytes.Add(-static_cast<int64_t>(bytes_)); }

std::shared_ptr<const CachedTable> MetadataCache::Get(const std::string& location) {
  std::lock_guard lock(mu_);
  auto it = slots_.find(location);
  if (it == slots_.end()) {
    Metrics().cache_misses.Inc();
    return nullptr;
  }
  Metrics().cache_hits.Inc();
  lru_.splice(lru_.begin(), lru_, it->second.lru_pos);
  return it->second.entry;
}

void MetadataCache::Put(std::shared_ptr<const CachedTable> entry) {
  const size_t cost = Cost(*entry);
  if (cost > max_bytes_) return;
  std::lock_guard lock(mu_);
  if (slots_.contains(entry->location)) return;
  lru_.push_front(entry->location);
  bytes_ += cost;
  Metrics().cache_bytes.Add(static_cast<int64_t>(cost));
  std::string key = entry->location;  // read before `entry` is moved from
  slots_.emplace(std::move(key), Slot{std::move(entry), lru_.begin()});
  while (bytes_ > max_bytes_ && !lru_.empty()) {
    auto victim = slots_.find(lru_.back());
    bytes_ -= Cost(*victim->second.entry);
    Metrics().cache_bytes.Add(-static_cast<int64_t>(Cost(*victim->second.entry)));
    slots_.erase(victim);
    lru_.pop_back();
  }
}

}  // namespace firn::catalog
