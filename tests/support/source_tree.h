// SourcePath: the path of a file in the source tree (fixtures, scripts) for unit tests and
// fuzz targets.
//
// Contract: thread-safe (no state); never fails (the file may be missing: callers check when
// they open it). The checkout's location is compiled into this one object (source_tree.cc)
// rather than into every test object, so a clone at another path gets its test objects from
// the compiler cache a first build filled.
#pragma once

#include <string>
#include <string_view>

namespace firn::source_tree {

// `relative` below the source root, e.g. SourcePath("tests/fixtures/avro/x.avro").
std::string SourcePath(std::string_view relative);

}  // namespace firn::source_tree
