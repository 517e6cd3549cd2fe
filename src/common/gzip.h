// GZIP (RFC 1952) over zlib: whole streams, and pieces deflated at different times that join
// into one stream without being compressed again.
//
// Contract: `Gzip` writes one gzip member; `Gunzip` inflates one, refusing more than
// `max_inflated` bytes of output (a gzip bomb stops there). A `DeflatedPiece` is raw deflate
// (RFC 1951) data ending on a byte boundary with no final block, plus the CRC-32 and length of
// its input: any sequence of pieces, in any order, is the deflate data of their inputs'
// concatenation, and `GzipJoin` frames it as one gzip member. So a large part that never
// changes (a table version's metadata JSON) is deflated once and kept, and only the small parts
// around it are added per use (deflated, or stored uncompressed when they are small).
// Errors: corrupt, truncated or oversized input is kInternal with a message that never
// includes the data (callers that read a client's bytes say what it means to them).
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "common/result.h"

namespace firn {

// zlib's default level: what stored files are written with.
inline constexpr int kGzipLevelDefault = 6;
// HTTP responses. On a 57.7 KB loadTable body (100 snapshots): level 1 gives 8.7 KB in 152 µs,
// level 6 gives 7.7 KB in 361 µs (docs/benchmarks.md, "Compressed responses").
inline constexpr int kGzipLevelFast = 1;

// True when `bytes` start with the gzip magic (0x1f 0x8b; JSON never starts with 0x1f).
bool HasGzipMagic(std::string_view bytes);

// Deflates `data` into one gzip member.
std::string Gzip(std::string_view data, int level = kGzipLevelDefault);

// Inflates one gzip member of at most `max_inflated` bytes (bytes after it are ignored).
Result<std::string> Gunzip(std::string_view data, size_t max_inflated);

// Part of a gzip member's content, encoded on its own, to be joined with others by GzipJoin.
struct DeflatedPiece {
  std::string deflated;  // raw deflate blocks, none final, ending on a byte boundary
  uint32_t crc = 0;      // CRC-32 of the input
  uint64_t size = 0;     // input bytes
};

// `data` deflated on its own, as a piece.
DeflatedPiece DeflatePiece(std::string_view data, int level = kGzipLevelFast);

// `data` as stored (uncompressed) deflate blocks: for the small parts around a kept piece,
// where setting up a compressor (a few microseconds) costs more than the bytes it would save.
DeflatedPiece StoredPiece(std::string_view data);

// One gzip member whose content is the pieces' inputs in order. Null pointers are skipped.
std::string GzipJoin(std::initializer_list<const DeflatedPiece*> pieces);

}  // namespace firn
