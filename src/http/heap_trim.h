// HeapTrimmer: hands heap memory the allocator holds free back to the system. glibc keeps
// freed memory in its arenas, so without this the resident size stays at its peak after a
// burst of connections or request bodies ends. MaybeTrim() measures the slack — resident size
// minus the heap bytes in use (mallinfo2) — and runs malloc_trim(0) when it grew by at least
// `threshold` since the last trim: memory was freed and kept. While load holds memory in use
// the slack does not grow, so nothing is trimmed under load, nor over and over in a steady
// state. On other C libraries it does nothing.
//
// Thread-safety: one instance per thread (the server calls it from its control strand).
// Errors: none; a failed /proc read counts as no growth.
#pragma once

#include <cstdint>

namespace firn::http {

class HeapTrimmer {
 public:
  explicit HeapTrimmer(uint64_t threshold) : threshold_(threshold) {}

  // True when it trimmed.
  bool MaybeTrim();

 private:
  uint64_t threshold_;
  uint64_t slack_after_trim_ = 0;
};

// Makes the allocator serve every block of at least `bytes` by its own mapping, returned to
// the system when freed. glibc otherwise raises that threshold to the largest block freed
// so far, and from then on keeps such blocks in its arenas: each scrypt run (16 MiB) left
// its buffer resident, one per thread. Call once at start, before threads. No-op elsewhere.
void MapLargeBlocks(uint64_t bytes);

// This process's resident set size in bytes (0 when unknown).
uint64_t ResidentBytes();

}  // namespace firn::http
