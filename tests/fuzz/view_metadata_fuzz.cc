// View metadata JSON (read back from storage, and accepted by register-view).
// Properties: no crash; a document that parses serialises to JSON that parses again and
// serialises to the same bytes.
#include <string>

#include "metadata/view_serde.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto parsed = firn::metadata::ParseViewMetadata(firn::fuzz::AsView(data, size));
  if (!parsed) return 0;
  std::string once = firn::metadata::SerializeViewMetadata(*parsed);
  auto again = firn::metadata::ParseViewMetadata(once);
  FIRN_FUZZ_CHECK(again.has_value(), "serialised view metadata parses again");
  FIRN_FUZZ_CHECK(firn::metadata::SerializeViewMetadata(*again) == once,
                  "view metadata round trip is stable");
  return 0;
}
