// PurgeTableFiles: deletes exactly the files a table's metadata references — data and delete
// files (only when gc.enabled, default true), manifests, manifest lists, statistics, previous
// metadata files and the current metadata file. Never a directory: two tables may share a
// location after a rename.
//
// Best effort: a file that cannot be read or deleted is logged and skipped. Returns the number
// of files deleted. Thread-safety: stateless.
#pragma once

#include <cstddef>
#include <string>

#include "io/object_store.h"
#include "metadata/table_metadata.h"

namespace firn::catalog {

size_t PurgeTableFiles(io::ObjectStore& objects, const metadata::TableMetadata& table,
                       const std::string& current_metadata_location);

}  // namespace firn::catalog
