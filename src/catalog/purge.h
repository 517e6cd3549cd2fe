// PurgeTableFiles: deletes exactly the files a table's metadata references — data and delete
// files (only when gc.enabled, default true), manifests, manifest lists, statistics, previous
// metadata files and the current metadata file. Never a directory. A file is deleted only when
// it lies under the table's `location` (normalised, on a path segment boundary;
// catalog/location_policy.h) and `deletable(file)` agrees at that moment (no other table, view
// or catalog owns it: catalog/location_ownership.h). Anything else the metadata lists is
// skipped, counted and logged, never deleted — nor read, for manifests outside the location.
//
// Best effort: a file that cannot be read or deleted is logged and skipped. Returns the number
// of files deleted. Thread-safety: stateless.
#pragma once

#include <cstddef>
#include <string>

#include "common/function_ref.h"
#include "io/object_store.h"
#include "metadata/table_metadata.h"

namespace firn::catalog {

size_t PurgeTableFiles(io::ObjectStore& objects, const metadata::TableMetadata& table,
                       const std::string& current_metadata_location,
                       FunctionRef<bool(std::string_view)> deletable);

}  // namespace firn::catalog
