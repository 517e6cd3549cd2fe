// GZIP for metadata files (table spec, "Naming for GZIP compressed Metadata JSON files").
//
// Thread-safety: pure functions. Errors: corrupt or oversized input is kInternal (a stored
// file is damaged, not the client's request); messages never include the data.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

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

// Inflates one gzip stream of at most `max_inflated` bytes.
Result<std::string> Gunzip(std::string_view data,
                           size_t max_inflated = kMaxInflatedMetadataBytes);

// Deflates `data` into a gzip stream (default level).
std::string Gzip(std::string_view data);

}  // namespace firn::metadata
