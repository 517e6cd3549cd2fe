// GZIP for metadata files (table spec, "Naming for GZIP compressed Metadata JSON files"): which
// names say gzip, and reading a file that may be gzip. The codec itself is common/gzip.h.
//
// Thread-safety: pure functions. Errors: corrupt or oversized input is kInternal (a stored
// file is damaged, not the client's request); messages never include the data.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/gzip.h"
#include "common/result.h"

namespace firn::metadata {

// Decompressed metadata larger than this is refused (guards against gzip bombs).
inline constexpr size_t kMaxInflatedMetadataBytes = size_t{512} << 20;

// True when the file name says gzip: `.gz.metadata.json` (written) or `.metadata.json.gz`
// (also read by Java).
bool IsGzipMetadataLocation(std::string_view location);

// Returns `bytes` inflated when they are gzip, else unchanged. The gzip magic decides (JSON
// never starts with 0x1f), so a mislabelled file still reads; `location` is only used for
// the error message's context. Inflating stops past `max_inflated` bytes (an error).
Result<std::string> GunzipIfNeeded(std::string_view location, std::string bytes,
                                   size_t max_inflated = kMaxInflatedMetadataBytes);

}  // namespace firn::metadata
