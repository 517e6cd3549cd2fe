#include "support/source_tree.h"

namespace firn::source_tree {

std::string SourcePath(std::string_view relative) {
  std::string path = FIRN_SOURCE_DIR;
  path += '/';
  path += relative;
  return path;
}

}  // namespace firn::source_tree
