// PurgeTableFiles: deletes exactly the files a table's metadata references — data and delete
// files (only when gc.enabled, default true), manifests, manifest lists, statistics, previous
// metadata files and the current metadata file. Never a directory: two tables may share a
// location after a rename. Only files under the table's `location` (normalised, on a path
// segment boundary; catalog/location_policy.h) are deleted: anything else the metadata lists
// is skipped, counted and logged, never deleted.
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
