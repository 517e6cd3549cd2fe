#include "http/heap_trim.h"

#include <unistd.h>

#include <cstdio>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace firn::http {

uint64_t ResidentBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long size = 0, resident = 0;
  const int n = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (n != 2) return 0;
  return static_cast<uint64_t>(resident) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

void MapLargeBlocks(uint64_t bytes) {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(bytes));
#else
  (void)bytes;
#endif
}

#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 33)
namespace {

// Resident bytes that are not heap memory in use: the binary, stacks, and freed memory kept.
uint64_t Slack() {
  const struct mallinfo2 info = mallinfo2();
  const uint64_t used = info.uordblks + info.hblkhd;
  const uint64_t resident = ResidentBytes();
  return resident > used ? resident - used : 0;
}

}  // namespace

bool HeapTrimmer::MaybeTrim() {
  if (Slack() < slack_after_trim_ + threshold_) return false;
  malloc_trim(0);
  slack_after_trim_ = Slack();
  return true;
}
#else
bool HeapTrimmer::MaybeTrim() { return false; }
#endif

}  // namespace firn::http
