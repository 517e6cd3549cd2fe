#include "io/s3/s3_object_store.h"

#include <utility>

#include "common/macros.h"
#include "io/s3/s3_location.h"
#include "io/s3/sts_client.h"

namespace firn::io::s3 {
namespace {

// An object operation needs a key; "s3://bucket" or "s3://bucket/" names no object.
Result<S3Location> ParseObjectUri(std::string_view uri) {
  FIRN_ASSIGN_OR_RETURN(S3Location location, ParseS3Uri(uri));
  if (location.key.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "S3 location names no object: " + std::string(uri));
  }
  return location;
}

}  // namespace

S3ObjectStore::S3ObjectStore(std::unique_ptr<S3Client> client) : client_(std::move(client)) {}

Result<std::unique_ptr<S3ObjectStore>> S3ObjectStore::Create(S3Config config) {
  FIRN_ASSIGN_OR_RETURN(std::unique_ptr<S3Client> client, S3Client::Create(std::move(config)));
  return std::unique_ptr<S3ObjectStore>(new S3ObjectStore(std::move(client)));
}

Result<std::string> S3ObjectStore::Read(std::string_view uri) {
  FIRN_ASSIGN_OR_RETURN(S3Location location, ParseObjectUri(uri));
  return client_->GetObject(location.bucket, location.key, uri);
}

Result<std::string> S3ObjectStore::ReadAtMost(std::string_view uri, size_t max_bytes) {
  FIRN_ASSIGN_OR_RETURN(S3Location location, ParseObjectUri(uri));
  return client_->GetObject(location.bucket, location.key, uri, max_bytes);
}

Status S3ObjectStore::WriteNew(std::string_view uri, std::string_view data) {
  FIRN_ASSIGN_OR_RETURN(S3Location location, ParseObjectUri(uri));
  return client_->PutObjectIfAbsent(location.bucket, location.key, data, uri);
}

Status S3ObjectStore::Delete(std::string_view uri) {
  FIRN_ASSIGN_OR_RETURN(S3Location location, ParseObjectUri(uri));
  return client_->DeleteObject(location.bucket, location.key, uri);
}

Result<bool> S3ObjectStore::Exists(std::string_view uri) {
  FIRN_ASSIGN_OR_RETURN(S3Location location, ParseObjectUri(uri));
  return client_->HeadObject(location.bucket, location.key, uri);
}

Result<std::vector<ObjectInfo>> S3ObjectStore::List(std::string_view prefix) {
  FIRN_ASSIGN_OR_RETURN(S3Location location, ParseS3Uri(prefix));
  std::vector<ObjectInfo> out;
  std::string token;
  do {
    FIRN_ASSIGN_OR_RETURN(ListPage page,
                          client_->ListObjectsV2(location.bucket, location.key, token, prefix));
    for (ListedObject& object : page.objects) {
      out.push_back({S3UriOf(location, object.key), object.size,
                     ParseIso8601Millis(object.last_modified).value_or(0)});
    }
    if (!page.truncated) break;
    if (page.next_continuation_token == token) {  // a looping server must not hang us
      return Fail(ErrorKind::kInternal, "Failed to list objects: " + std::string(prefix),
                  "ListObjectsV2 returned the same continuation token twice");
    }
    token = std::move(page.next_continuation_token);
  } while (true);
  return out;
}

Result<ObjectStore::Children> S3ObjectStore::ListChildren(std::string_view dir) {
  std::string prefix(dir);
  if (prefix.empty() || prefix.back() != '/') prefix.push_back('/');
  FIRN_ASSIGN_OR_RETURN(S3Location location, ParseS3Uri(prefix));
  Children out;
  std::string token;
  do {
    FIRN_ASSIGN_OR_RETURN(ListPage page, client_->ListObjectsV2(location.bucket, location.key,
                                                                token, prefix, "/"));
    for (ListedObject& object : page.objects) {
      out.objects.push_back({S3UriOf(location, object.key), object.size,
                             ParseIso8601Millis(object.last_modified).value_or(0)});
    }
    for (const std::string& key : page.common_prefixes) {
      out.dirs.push_back(S3UriOf(location, key));
    }
    if (!page.truncated) break;
    if (page.next_continuation_token == token) {
      return Fail(ErrorKind::kInternal, "Failed to list objects: " + prefix,
                  "ListObjectsV2 returned the same continuation token twice");
    }
    token = std::move(page.next_continuation_token);
  } while (true);
  return out;
}

}  // namespace firn::io::s3
