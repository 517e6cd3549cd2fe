#include "metadata/gzip.h"

#include <zlib.h>

#include <utility>

namespace firn::metadata {

namespace {
constexpr int kGzipWindowBits = 15 + 16;  // max window, gzip header/trailer
constexpr size_t kChunk = 64 * 1024;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool HasGzipMagic(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}
}  // namespace

bool IsGzipMetadataLocation(std::string_view location) {
  return EndsWith(location, ".gz.metadata.json") || EndsWith(location, ".metadata.json.gz");
}

Result<std::string> Gunzip(std::string_view data, size_t max_inflated) {
  z_stream zs{};
  if (inflateInit2(&zs, kGzipWindowBits) != Z_OK) {
    return Fail(ErrorKind::kInternal, "Cannot initialise gzip decoder");
  }
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  std::string out;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    const size_t old_size = out.size();
    if (old_size > max_inflated) break;
    // At most one byte past the limit: a stream that ends exactly at it still reads.
    const size_t room = max_inflated - old_size;
    const size_t chunk = room >= kChunk ? kChunk : room + 1;
    out.resize(old_size + chunk);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + old_size);
    zs.avail_out = static_cast<uInt>(chunk);
    rc = inflate(&zs, Z_NO_FLUSH);
    out.resize(old_size + (chunk - zs.avail_out));
    if (rc == Z_STREAM_END) break;
    // Z_BUF_ERROR with input left means no progress was possible: truncated input.
    if (rc != Z_OK || (zs.avail_in == 0 && zs.avail_out != 0)) {
      inflateEnd(&zs);
      return Fail(ErrorKind::kInternal, "Cannot read metadata file: corrupt gzip data");
    }
  }
  inflateEnd(&zs);
  if (out.size() > max_inflated) {
    return Fail(ErrorKind::kInternal, "Cannot read metadata file: inflated size over limit");
  }
  return out;
}

Result<std::string> GunzipIfNeeded(std::string_view location, std::string bytes,
                                   size_t max_inflated) {
  if (!HasGzipMagic(bytes)) return bytes;
  Result<std::string> inflated = Gunzip(bytes, max_inflated);
  if (!inflated) {
    inflated.error().detail = "location: " + std::string(location);
  }
  return inflated;
}

std::string Gzip(std::string_view data) {
  z_stream zs{};
  // Cannot fail with valid constant parameters short of memory exhaustion.
  deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);  // the bound guarantees one call completes
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace firn::metadata
