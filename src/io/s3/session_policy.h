// The inline session policy that confines vended S3 credentials to a table's locations.
// Pure functions.
//
// For every location (s3://bucket/prefix) the policy allows:
//   read:  s3:GetObject, s3:GetObjectVersion on bucket/prefix/*; s3:ListBucket on the bucket
//          only for keys under prefix (condition s3:prefix = prefix, prefix/*);
//          s3:GetBucketLocation on the bucket
//   write: also s3:PutObject, s3:DeleteObject, s3:AbortMultipartUpload and
//          s3:ListMultipartUploadParts on bucket/prefix/*
// and nothing else; the store intersects it with the role's own policy, so the credentials can
// never do more than both allow. A location inside another one of the list adds nothing and is
// left out; statements are grouped per bucket so the document stays small (STS accepts 2,048
// characters; io::s3::AssumeRole refuses a longer one before sending it).
// Errors: kIllegalArgument for a location that is not s3:// or names a whole bucket (a table
// never owns a bucket); kUnsupportedOperation for a prefix with '*' or '?' (IAM wildcards: the
// policy would reach other tables).
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace firn::io::s3 {

enum class DataAccess { kRead, kReadWrite };

Result<std::string> SessionPolicy(const std::vector<std::string>& locations, DataAccess access);

}  // namespace firn::io::s3
