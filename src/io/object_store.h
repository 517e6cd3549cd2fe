// ObjectStore: files addressed by URI. Metadata files are immutable. Which schemes exist and which
// store serves each is io/storage_schemes.h (file: and bare paths; s3:, s3a:, s3n:).
//
// Thread-safety: all methods are safe to call concurrently.
// Error contract:
//   kNotFound           Read of a missing object; message "Failed to open input stream for
//                       file: <uri>" (the wording Java clients and the RCK expect)
//   kAlreadyExists      WriteNew onto an existing object (nothing was changed)
//   kPayloadTooLarge    ReadAtMost of an object larger than the limit (ObjectTooLargeError)
//   kIllegalArgument    unsupported scheme or malformed URI
//   kServiceUnavailable the store is unreachable; kInternal for other I/O failures
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "io/s3/s3_config.h"

namespace firn::io {

struct ObjectInfo {
  std::string uri;
  int64_t size = 0;
  int64_t modified_ms = 0;  // last modification (file mtime, S3 LastModified); 0 = unknown
};

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;

  virtual Result<std::string> Read(std::string_view uri) = 0;
  // As Read, for objects a caller names (register): never holds more than `max_bytes` + 1
  // bytes of the object; a larger one is ObjectTooLargeError.
  virtual Result<std::string> ReadAtMost(std::string_view uri, size_t max_bytes) = 0;
  // Creates the object; never overwrites. Durable (fsync'd, directory entry too) on return.
  virtual Status WriteNew(std::string_view uri, std::string_view data) = 0;
  // Deletes the object; a missing object is not an error.
  virtual Status Delete(std::string_view uri) = 0;
  virtual Result<bool> Exists(std::string_view uri) = 0;
  // Every object whose URI starts with `prefix`, recursively.
  virtual Result<std::vector<ObjectInfo>> List(std::string_view prefix) = 0;
  // One level of the "directory" `dir` (a URI; a missing trailing '/' is added): the objects
  // directly in it, and the URIs of its sub-directories (each ending with '/'), as S3's
  // delimiter listing gives them, so that a walk never lists what it does not descend into.
  // The default lists `dir` recursively and rolls the rest up; stores override it.
  struct Children {
    std::vector<ObjectInfo> objects;
    std::vector<std::string> dirs;
  };
  virtual Result<Children> ListChildren(std::string_view dir);
};

// kPayloadTooLarge "Object is larger than <max_bytes> bytes: <uri>".
Error ObjectTooLargeError(std::string_view uri, size_t max_bytes);

// Routes each URI to the store its scheme's registry entry names (io/storage_schemes.h): the
// local store always; the S3 store only when S3 is configured, otherwise kIllegalArgument
// "Unsupported storage scheme: s3" (the detail says S3 is not configured).
std::unique_ptr<ObjectStore> MakeDefaultObjectStore();

struct ObjectStoreConfig {
  std::optional<s3::S3Config> s3;  // unset: no S3 storage
};

// The routing store with one store per configured StoreKind. kIllegalArgument for an unusable
// S3 config (bad endpoint, missing region or keys).
Result<std::unique_ptr<ObjectStore>> MakeObjectStore(const ObjectStoreConfig& config);

}  // namespace firn::io
