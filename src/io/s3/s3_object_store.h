// S3ObjectStore: the ObjectStore for s3://, s3a:// and s3n:// URIs on one S3-compatible
// service (AWS S3, SeaweedFS, moto, MinIO...).
//
// URIs are "<scheme>://<bucket>/<key>"; the key is used byte for byte. List keeps the prefix's
// scheme in the URIs it returns and follows continuation tokens to the end.
// Thread-safety: every method is safe to call concurrently (see S3Client).
// Durability: WriteNew returns after S3 acknowledged the PUT, which S3 makes durable and
// strongly consistent for subsequent reads and lists. WriteNew relies on `If-None-Match: *`;
// a store that ignores that header would silently overwrite (see docs/storage.md).
// Errors: the ObjectStore contract (io/object_store.h), mapped as io/s3/s3_errors.h says.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "io/object_store.h"
#include "io/s3/s3_client.h"
#include "io/s3/s3_config.h"

namespace firn::io::s3 {

class S3ObjectStore final : public ObjectStore {
 public:
  // kIllegalArgument for an unusable config (bad endpoint, no region or keys).
  static Result<std::unique_ptr<S3ObjectStore>> Create(S3Config config);

  Result<std::string> Read(std::string_view uri) override;
  Result<std::string> ReadAtMost(std::string_view uri, size_t max_bytes) override;
  Status WriteNew(std::string_view uri, std::string_view data) override;
  Status Delete(std::string_view uri) override;
  Result<bool> Exists(std::string_view uri) override;
  Result<std::vector<ObjectInfo>> List(std::string_view prefix) override;
  Result<Children> ListChildren(std::string_view dir) override;

 private:
  explicit S3ObjectStore(std::unique_ptr<S3Client> client);
  std::unique_ptr<S3Client> client_;
};

}  // namespace firn::io::s3
