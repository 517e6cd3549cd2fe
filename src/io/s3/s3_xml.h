// A minimal XML reader for S3 and STS responses (ListObjectsV2 pages, AssumeRole results and
// error bodies).
//
// Scope: elements, attributes (skipped), character data, CDATA, comments, processing
// instructions, the five predefined entities and numeric character references. A DOCTYPE is
// refused (no entity expansion, no external anything). Nesting is limited to 64 levels and the
// parser is iterative, so hostile input cannot exhaust the stack.
// Errors: kInternal "Malformed response from object storage" with the reason in `detail`.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace firn::io::s3 {

struct XmlElement {
  std::string name;  // local name (any "prefix:" removed)
  std::string text;  // decoded character data directly inside this element
  std::vector<XmlElement> children;

  // The first child named `name`, or nullptr.
  const XmlElement* Child(std::string_view child_name) const;
  // The text of the first child named `name`, or "".
  std::string_view ChildText(std::string_view child_name) const;
};

Result<XmlElement> ParseXml(std::string_view xml);

struct ListedObject {
  std::string key;
  int64_t size = 0;
  std::string last_modified;  // ISO 8601 as the store sent it ('' when absent)
};

struct ListPage {
  std::vector<ListedObject> objects;
  std::vector<std::string> common_prefixes;  // with a delimiter: the "sub-directories" (keys)
  bool truncated = false;
  std::string next_continuation_token;
};

// A ListObjectsV2 response (<ListBucketResult>). A truncated page without a continuation
// token is refused, so a caller can never loop forever on it.
Result<ListPage> ParseListObjectsV2(std::string_view xml);

struct S3ErrorBody {
  std::string code;     // "NoSuchKey", "SlowDown", ...
  std::string message;
};

// The <Error> body of a failed request (S3), also inside <ErrorResponse> (STS); empty fields
// when the body is neither.
S3ErrorBody ParseS3Error(std::string_view xml);

}  // namespace firn::io::s3
