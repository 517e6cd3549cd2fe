// Table metadata JSON (what Firn reads back from storage, and what register-table accepts).
// Properties: no crash; a document that parses serialises to JSON that parses again and
// serialises to the same bytes (Firn never writes metadata it cannot read back).
#include <string>

#include "metadata/builder.h"
#include "metadata/serde.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto parsed = firn::metadata::ParseTableMetadata(firn::fuzz::AsView(data, size));
  if (!parsed) return 0;
  (void)firn::metadata::ValidateTableMetadata(*parsed);
  std::string once = firn::metadata::SerializeTableMetadata(*parsed);
  auto again = firn::metadata::ParseTableMetadata(once);
  FIRN_FUZZ_CHECK(again.has_value(), "serialised table metadata parses again");
  FIRN_FUZZ_CHECK(firn::metadata::SerializeTableMetadata(*again) == once,
                  "table metadata round trip is stable");
  return 0;
}
