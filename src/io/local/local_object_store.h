// LocalObjectStore: the ObjectStore for `file:` URIs on a local (or mounted) POSIX file system.
//
// Accepted forms: `file:/abs/path`, `file:///abs/path`, `file://localhost/abs/path` and bare
// absolute paths `/abs/path`. Paths are used byte for byte (no percent-decoding), the way
// Hadoop's `file:` paths are written by Java clients. Listed URIs keep the prefix's form.
//
// Thread-safety: stateless; every method is safe to call concurrently.
// Durability: WriteNew creates missing parent directories, writes everything to a hidden
// temporary file beside the target and fsyncs it, then links it to its name (never overwrites:
// an existing name is kAlreadyExists), and fsyncs the directory (and every directory it
// created), so the object survives power loss once WriteNew returns, and a name never shows
// a torn file, even after a crash mid-write.
// Errors: the ObjectStore contract (io/object_store.h). ENOENT on Read is kNotFound with the
// exact message "Failed to open input stream for file: <uri>"; malformed or non-file URIs are
// kIllegalArgument; network-file-system outages (ESTALE, ETIMEDOUT...) are kServiceUnavailable;
// other I/O failures kInternal, with strerror in `detail` only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "io/object_store.h"

namespace firn::io {

// The absolute local path named by `uri`; kIllegalArgument for any other scheme, a relative
// path, or a host other than localhost.
Result<std::string> LocalPathFromUri(std::string_view uri);

// True when `uri` is something LocalPathFromUri accepts by its form (scheme `file` or a bare
// absolute path), without validating the rest.
bool IsLocalUri(std::string_view uri);

class LocalObjectStore final : public ObjectStore {
 public:
  Result<std::string> Read(std::string_view uri) override;
  Result<std::string> ReadAtMost(std::string_view uri, size_t max_bytes) override;
  Status WriteNew(std::string_view uri, std::string_view data) override;
  Status Delete(std::string_view uri) override;
  Result<bool> Exists(std::string_view uri) override;
  Result<std::vector<ObjectInfo>> List(std::string_view prefix) override;
  Result<Children> ListChildren(std::string_view dir) override;
};

}  // namespace firn::io
