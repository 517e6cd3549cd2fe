#include "common/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <new>
#include <utility>

namespace firn {

namespace {
constexpr int kMaxWindowBits = 15;
constexpr int kGzipWrapper = 16;  // added to windowBits: gzip header and trailer
constexpr int kMemLevel = 8;      // zlib's default
constexpr size_t kChunk = 64 * 1024;

// RFC 1952 member header: magic, CM = deflate, no flags, no mtime, no extra flags, OS unknown.
constexpr char kGzipHeader[] = {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, 0, '\xff'};
// An empty final block (BFINAL = 1, fixed Huffman codes, end-of-block): ends the deflate data
// after pieces, none of which is final.
constexpr char kEmptyFinalBlock[] = {3, 0};

// Runs deflate over all of `data` with `flush` at the end, appending to `out`. zlib fails here
// only on invalid parameters or memory exhaustion; both are programming errors or fatal.
void Deflate(std::string_view data, int level, int window_bits, int mem_level, int flush,
             std::string& out) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, window_bits, mem_level, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::bad_alloc();
  }
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  // The bound covers a Z_FINISH in one call; a flush marker adds a few bytes, hence the loop.
  size_t room = deflateBound(&zs, static_cast<uLong>(data.size())) + 16;
  for (;;) {
    const size_t used = out.size();
    out.resize(used + room);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    zs.avail_out = static_cast<uInt>(room);
    const int rc = deflate(&zs, flush);
    out.resize(used + (room - zs.avail_out));
    if (rc == Z_STREAM_END || (flush != Z_FINISH && zs.avail_out != 0)) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      deflateEnd(&zs);
      throw std::bad_alloc();
    }
    room = kChunk;
  }
  deflateEnd(&zs);
}

uint32_t Crc32(std::string_view data) {
  return static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
}

void AppendLittleEndian32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

bool HasGzipMagic(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string Gzip(std::string_view data, int level) {
  std::string out;
  Deflate(data, level, kMaxWindowBits + kGzipWrapper, kMemLevel, Z_FINISH, out);
  return out;
}

Result<std::string> Gunzip(std::string_view data, size_t max_inflated) {
  z_stream zs{};
  if (inflateInit2(&zs, kMaxWindowBits + kGzipWrapper) != Z_OK) {
    return Fail(ErrorKind::kInternal, "cannot initialise gzip decoder");
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
      return Fail(ErrorKind::kInternal, "corrupt gzip data");
    }
  }
  inflateEnd(&zs);
  if (out.size() > max_inflated) {
    return Fail(ErrorKind::kInternal, "inflated size over limit");
  }
  return out;
}

DeflatedPiece DeflatePiece(std::string_view data, int level) {
  DeflatedPiece piece;
  // Raw deflate (negative window bits); Z_SYNC_FLUSH ends on a byte boundary without a final
  // block, so the next piece's blocks may follow directly.
  Deflate(data, level, -kMaxWindowBits, kMemLevel, Z_SYNC_FLUSH, piece.deflated);
  piece.crc = Crc32(data);
  piece.size = data.size();
  return piece;
}

DeflatedPiece StoredPiece(std::string_view data) {
  constexpr size_t kMaxStoredBlock = 65535;
  DeflatedPiece piece;
  piece.deflated.reserve(data.size() + 5 * (data.size() / kMaxStoredBlock + 1));
  size_t offset = 0;
  do {
    const size_t len = std::min(data.size() - offset, kMaxStoredBlock);
    // BFINAL 0 and BTYPE 00 (stored) in the low bits, the rest padding to the byte boundary;
    // then LEN and its complement NLEN, little-endian, then the bytes themselves.
    piece.deflated.push_back(0);
    for (size_t v : {len, len ^ 0xffff}) {
      piece.deflated.push_back(static_cast<char>(v & 0xff));
      piece.deflated.push_back(static_cast<char>((v >> 8) & 0xff));
    }
    piece.deflated.append(data.substr(offset, len));
    offset += len;
  } while (offset < data.size());
  piece.crc = Crc32(data);
  piece.size = data.size();
  return piece;
}

std::string GzipJoin(std::initializer_list<const DeflatedPiece*> pieces) {
  size_t total = sizeof(kGzipHeader) + sizeof(kEmptyFinalBlock) + 8;
  for (const DeflatedPiece* p : pieces) total += p ? p->deflated.size() : 0;
  std::string out;
  out.reserve(total);
  out.append(kGzipHeader, sizeof(kGzipHeader));
  uLong crc = crc32(0L, Z_NULL, 0);
  uint64_t size = 0;
  for (const DeflatedPiece* p : pieces) {
    if (p == nullptr) continue;
    out += p->deflated;
    crc = crc32_combine(crc, p->crc, static_cast<z_off_t>(p->size));
    size += p->size;
  }
  out.append(kEmptyFinalBlock, sizeof(kEmptyFinalBlock));
  AppendLittleEndian32(out, static_cast<uint32_t>(crc));
  AppendLittleEndian32(out, static_cast<uint32_t>(size));  // ISIZE: the size modulo 2^32
  return out;
}

}  // namespace firn
