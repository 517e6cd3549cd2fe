// Helpers shared by the libFuzzer targets in tests/fuzz.
//
// A target states the properties its parser must keep for ANY input (no crash, no sanitizer
// report, plus target-specific ones such as "what we write we can read back"); a broken
// property aborts through FIRN_FUZZ_CHECK, which libFuzzer records as a crash with the input
// that caused it. Thread-safety: single-threaded use by one fuzz target process.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "support/source_tree.h"

namespace firn::fuzz {

inline std::string_view AsView(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

// Whole file under the source tree (fixtures); aborts when missing, so a moved fixture fails
// the run instead of silently fuzzing less.
inline std::string ReadSourceFile(std::string_view relative) {
  std::string path = source_tree::SourcePath(relative);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz: cannot read %s\n", path.c_str());
    std::abort();
  }
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace firn::fuzz

#define FIRN_FUZZ_CHECK(cond, what)                                             \
  do {                                                                          \
    if (!(cond)) {                                                              \
      std::fprintf(stderr, "fuzz property violated: %s (%s)\n", (what), #cond); \
      std::abort();                                                             \
    }                                                                           \
  } while (0)
