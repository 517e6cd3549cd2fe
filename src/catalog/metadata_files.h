// Reading table and view metadata files from the object store, for the two kinds of file the
// service reads.
//
// A stored file (the one a table's or view's pointer names) that does not parse is
// kInternal: the catalog's own state is damaged, and the message says why.
// A file a caller names to register is the caller's input. It is read bounded
// (ObjectStore::ReadAtMost, and the same bound on the inflated size), and whatever is wrong
// with its bytes -- too large, corrupt gzip, not JSON, JSON that is not metadata of the kind
// asked for -- is one kBadRequest message that names the location and the size limit and
// nothing else: neither the content nor which of these it was (the server log says which).
// Errors of the read itself pass through either way (kNotFound "Failed to open input stream
// for file: <location>", kServiceUnavailable, kIllegalArgument for an unsupported scheme).
//
// Thread-safety: stateless functions over a thread-safe ObjectStore.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "common/result.h"
#include "io/object_store.h"
#include "metadata/table_metadata.h"
#include "metadata/view_metadata.h"

namespace firn::catalog {

// `caller_file_limit`: set for a file a caller names (register), nullopt for a stored file.
Result<metadata::TableMetadata> ReadTableMetadataFile(io::ObjectStore& objects,
                                                      const std::string& location,
                                                      std::optional<size_t> caller_file_limit);
Result<metadata::ViewMetadata> ReadViewMetadataFile(io::ObjectStore& objects,
                                                    const std::string& location,
                                                    std::optional<size_t> caller_file_limit);

}  // namespace firn::catalog
