// Avro manifest lists and manifests (read from object storage for purge, verify, recovery, and
// rewritten by replication). Properties: no crash, no out-of-bounds read, no leak, bounded
// memory — for any bytes; and a file the rewrite accepts reads back as it reads before.
#include "io/manifest_reader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes = firn::fuzz::AsView(data, size);
  (void)firn::io::ReadManifestList(bytes);
  auto entries = firn::io::ReadManifest(bytes);
  auto rewritten = firn::io::RewriteManifestPaths(bytes, "s3://", "file:///replica/");
  if (rewritten && entries) {
    auto again = firn::io::ReadManifest(*rewritten);
    if (!again || again->size() != entries->size()) __builtin_trap();
  }
  return 0;
}
