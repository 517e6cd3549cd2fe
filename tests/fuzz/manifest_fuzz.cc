// Avro manifest lists and manifests (read from object storage for purge, verify, recovery).
// Properties: no crash, no out-of-bounds read, no leak, bounded memory — for any bytes.
#include "io/manifest_reader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes = firn::fuzz::AsView(data, size);
  (void)firn::io::ReadManifestList(bytes);
  (void)firn::io::ReadManifest(bytes);
  return 0;
}
