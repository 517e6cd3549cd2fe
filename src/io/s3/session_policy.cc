#include "io/s3/session_policy.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>
#include <utility>

#include "common/macros.h"
#include "io/s3/s3_location.h"

namespace firn::io::s3 {
namespace {

std::string StripSlashes(std::string key) {
  while (!key.empty() && key.back() == '/') key.pop_back();
  return key;
}

bool Covers(const std::string& outer, const std::string& inner) {
  return inner == outer || (inner.size() > outer.size() && inner.starts_with(outer) &&
                            inner[outer.size()] == '/');
}

boost::json::array Strings(std::initializer_list<const char*> items) {
  boost::json::array out;
  for (const char* s : items) out.emplace_back(s);
  return out;
}

boost::json::object Statement(boost::json::array actions, boost::json::array resources) {
  boost::json::object s;
  s["Effect"] = "Allow";
  s["Action"] = std::move(actions);
  s["Resource"] = std::move(resources);
  return s;
}

}  // namespace

Result<std::string> SessionPolicy(const std::vector<std::string>& locations, DataAccess access) {
  // bucket → prefixes, with prefixes inside another prefix of the list left out.
  std::map<std::string, std::vector<std::string>> buckets;
  for (const std::string& location : locations) {
    FIRN_ASSIGN_OR_RETURN(S3Location parsed, ParseS3Uri(location));
    std::string prefix = StripSlashes(parsed.key);
    if (prefix.empty()) {
      return Fail(ErrorKind::kIllegalArgument,
                  "Cannot confine credentials to a whole bucket: " + location);
    }
    if (prefix.find_first_of("*?") != std::string::npos) {
      return Fail(ErrorKind::kUnsupportedOperation,
                  "Cannot confine credentials to a location containing '*' or '?': " + location);
    }
    buckets[parsed.bucket].push_back(std::move(prefix));
  }
  if (buckets.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "No location to confine credentials to");
  }
  boost::json::array statements;
  for (auto& [bucket, prefixes] : buckets) {
    std::sort(prefixes.begin(), prefixes.end());
    std::vector<std::string> kept;
    for (const std::string& p : prefixes) {
      if (kept.empty() || !Covers(kept.back(), p)) kept.push_back(p);
    }
    const std::string bucket_arn = "arn:aws:s3:::" + bucket;
    boost::json::array objects;
    boost::json::array list_prefixes;
    for (const std::string& p : kept) {
      objects.emplace_back(bucket_arn + "/" + p + "/*");
      list_prefixes.emplace_back(p);
      list_prefixes.emplace_back(p + "/*");
    }
    statements.emplace_back(Statement(Strings({"s3:GetObject", "s3:GetObjectVersion"}), objects));
    if (access == DataAccess::kReadWrite) {
      statements.emplace_back(Statement(Strings({"s3:PutObject", "s3:DeleteObject",
                                                 "s3:AbortMultipartUpload",
                                                 "s3:ListMultipartUploadParts"}),
                                        objects));
    }
    boost::json::object list = Statement(Strings({"s3:ListBucket"}), {bucket_arn});
    boost::json::object like;
    like["s3:prefix"] = std::move(list_prefixes);
    boost::json::object condition;
    condition["StringLike"] = std::move(like);
    list["Condition"] = std::move(condition);
    statements.emplace_back(std::move(list));
    statements.emplace_back(Statement(Strings({"s3:GetBucketLocation"}), {bucket_arn}));
  }
  boost::json::object policy;
  policy["Version"] = "2012-10-17";
  policy["Statement"] = std::move(statements);
  return boost::json::serialize(policy);
}

}  // namespace firn::io::s3
