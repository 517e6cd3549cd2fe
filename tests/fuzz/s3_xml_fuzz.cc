// S3 response bodies: the XML reader, ListObjectsV2 pages and <Error> bodies.
// Properties: no crash; a truncated page always carries a continuation token (a listing
// loop cannot spin forever).
#include "io/s3/s3_xml.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view xml = firn::fuzz::AsView(data, size);
  (void)firn::io::s3::ParseXml(xml);
  auto page = firn::io::s3::ParseListObjectsV2(xml);
  if (page && page->truncated) {
    FIRN_FUZZ_CHECK(!page->next_continuation_token.empty(), "truncated page has a token");
  }
  (void)firn::io::s3::ParseS3Error(xml);
  return 0;
}
