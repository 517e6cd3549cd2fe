// Manifest reading in three layers: container framing (header, blocks, sync markers), block
// decompression, and a schema-driven binary decoder that picks fields by name.
//
// Why not Avro C's avro_file_reader: in libavro 1.11.1 it cannot open a container with zero
// blocks, reports a truncated file as a normal end of data, trusts block lengths from the file
// when allocating, leaks on header errors, and writes every error (including the normal end of
// data) into process-wide unsynchronised buffers. Avro C still parses the writer schema JSON,
// which is the one part worth not rewriting.
#include "io/manifest_reader.h"

#include <avro.h>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "common/macros.h"
#include "io/avro_schema.h"

namespace firn::io {
namespace {

constexpr std::string_view kMagic("Obj\x01", 4);
constexpr size_t kSyncSize = 16;
using avro::Clip;
using avro::FieldIndex;
using avro::kMaxDepth;
using avro::ParseSchema;
using avro::RequireFields;
using avro::SchemaPtr;
using avro::StaticRecord;
using avro::TypeName;
using avro::Unlink;

// ---------------------------------------------------------------------------------------------
// Bounds-checked binary decoding.

class Decoder {
 public:
  explicit Decoder(std::string_view data)
      : data_(data), steps_left_(static_cast<int64_t>(data.size()) * 8 + 4096) {}

  bool AtEnd() const { return pos_ == data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }

  Status ReadLong(int64_t* out) {
    uint64_t value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (pos_ >= data_.size()) return Truncated();
      const auto byte = static_cast<uint8_t>(data_[pos_++]);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) {
        *out = static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
        return Ok();
      }
    }
    return Fail(ErrorKind::kBadRequest, "varint longer than 10 bytes");
  }

  Status ReadInt(int32_t* out) {
    int64_t value = 0;
    FIRN_RETURN_IF_ERROR(ReadLong(&value));
    if (value < INT32_MIN || value > INT32_MAX) {
      return Fail(ErrorKind::kBadRequest, "int value out of range");
    }
    *out = static_cast<int32_t>(value);
    return Ok();
  }

  Status ReadRaw(size_t n, std::string_view* out) {
    if (n > remaining()) return Truncated();
    *out = data_.substr(pos_, n);
    pos_ += n;
    return Ok();
  }

  // A long length prefix followed by that many bytes (Avro string and bytes).
  Status ReadBytes(std::string_view* out) {
    int64_t len = 0;
    FIRN_RETURN_IF_ERROR(ReadLong(&len));
    if (len < 0) return Fail(ErrorKind::kBadRequest, "negative string length");
    if (static_cast<uint64_t>(len) > remaining()) return Truncated();
    return ReadRaw(static_cast<size_t>(len), out);
  }

  // Item count of the next array/map block; a negative count is followed by a byte size.
  Status ReadBlockCount(int64_t* count) {
    FIRN_RETURN_IF_ERROR(ReadLong(count));
    if (*count < 0) {
      if (*count == INT64_MIN) return Fail(ErrorKind::kBadRequest, "invalid block count");
      *count = -*count;
      int64_t byte_size = 0;
      FIRN_RETURN_IF_ERROR(ReadLong(&byte_size));
    }
    return Ok();
  }

  // Reads the branch index of a union and returns the selected branch (links resolved).
  // Non-union schemas are returned unchanged.
  Result<avro_schema_t> Resolve(avro_schema_t schema) {
    schema = Unlink(schema);
    if (schema == nullptr) return Fail(ErrorKind::kBadRequest, "unresolved named type");
    if (!is_avro_union(schema)) return schema;
    int64_t index = 0;
    FIRN_RETURN_IF_ERROR(ReadLong(&index));
    if (index < 0 || static_cast<uint64_t>(index) >= avro_schema_union_size(schema)) {
      return Fail(ErrorKind::kBadRequest, "union branch index out of range");
    }
    avro_schema_t branch = Unlink(avro_schema_union_branch(schema, static_cast<int>(index)));
    if (branch == nullptr) return Fail(ErrorKind::kBadRequest, "unresolved union branch");
    return branch;
  }

  // Consumes one value of `schema` without keeping it.
  Status Skip(avro_schema_t schema, int depth) {
    // The step budget bounds work on hostile input such as huge counts of zero-width items.
    if (depth > kMaxDepth) return Fail(ErrorKind::kBadRequest, "values nested too deeply");
    if (--steps_left_ < 0) return Fail(ErrorKind::kBadRequest, "too many values for block size");
    FIRN_ASSIGN_OR_RETURN(avro_schema_t s, Resolve(schema));
    std::string_view ignored;
    int64_t number = 0;
    switch (avro_typeof(s)) {
      case AVRO_NULL:
        return Ok();
      case AVRO_BOOLEAN:
        return ReadRaw(1, &ignored);
      case AVRO_INT32:
      case AVRO_INT64:
        return ReadLong(&number);
      case AVRO_FLOAT:
        return ReadRaw(4, &ignored);
      case AVRO_DOUBLE:
        return ReadRaw(8, &ignored);
      case AVRO_STRING:
      case AVRO_BYTES:
        return ReadBytes(&ignored);
      case AVRO_FIXED: {
        const int64_t size = avro_schema_fixed_size(s);
        if (size < 0) return Fail(ErrorKind::kBadRequest, "invalid fixed size");
        if (static_cast<uint64_t>(size) > remaining()) return Truncated();
        return ReadRaw(static_cast<size_t>(size), &ignored);
      }
      case AVRO_ENUM: {
        FIRN_RETURN_IF_ERROR(ReadLong(&number));
        if (number < 0 || number >= avro_schema_enum_number_of_symbols(s)) {
          return Fail(ErrorKind::kBadRequest, "enum index out of range");
        }
        return Ok();
      }
      case AVRO_RECORD: {
        const size_t n = avro_schema_record_size(s);
        for (size_t i = 0; i < n; ++i) {
          FIRN_RETURN_IF_ERROR(
              Skip(avro_schema_record_field_get_by_index(s, static_cast<int>(i)), depth + 1));
        }
        return Ok();
      }
      case AVRO_ARRAY:
      case AVRO_MAP: {
        const bool is_map = is_avro_map(s);
        avro_schema_t item = is_map ? avro_schema_map_values(s) : avro_schema_array_items(s);
        for (;;) {
          int64_t count = 0;
          FIRN_RETURN_IF_ERROR(ReadBlockCount(&count));
          if (count == 0) return Ok();
          for (int64_t i = 0; i < count; ++i) {
            if (is_map) FIRN_RETURN_IF_ERROR(ReadBytes(&ignored));
            FIRN_RETURN_IF_ERROR(Skip(item, depth + 1));
          }
        }
      }
      case AVRO_UNION:
      case AVRO_LINK:
        break;
    }
    return Fail(ErrorKind::kBadRequest, "unexpected schema type");
  }

 private:
  static std::unexpected<Error> Truncated() {
    return Fail(ErrorKind::kBadRequest, "unexpected end of data");
  }

  std::string_view data_;
  size_t pos_ = 0;
  int64_t steps_left_;
};

// Typed field readers. Each consumes exactly one value of the field's schema.

std::unexpected<Error> WrongType(std::string_view field, avro_schema_t actual,
                                 std::string_view expected) {
  return Fail(ErrorKind::kBadRequest, "field '" + std::string(field) + "' has type " +
                                          std::string(TypeName(actual)) + ", expected " +
                                          std::string(expected));
}

std::unexpected<Error> NullRequired(std::string_view field) {
  return Fail(ErrorKind::kBadRequest, "required field '" + std::string(field) + "' is null");
}

Result<std::optional<int64_t>> ReadOptionalLong(Decoder& d, avro_schema_t schema,
                                                std::string_view field) {
  FIRN_ASSIGN_OR_RETURN(avro_schema_t s, d.Resolve(schema));
  if (is_avro_null(s)) return std::optional<int64_t>();
  if (!is_avro_int32(s) && !is_avro_int64(s)) return WrongType(field, s, "long");
  int64_t value = 0;
  FIRN_RETURN_IF_ERROR(d.ReadLong(&value));
  return std::optional<int64_t>(value);
}

Result<int64_t> ReadRequiredLong(Decoder& d, avro_schema_t schema, std::string_view field) {
  FIRN_ASSIGN_OR_RETURN(std::optional<int64_t> value, ReadOptionalLong(d, schema, field));
  if (!value) return NullRequired(field);
  return *value;
}

Result<std::optional<int32_t>> ReadOptionalInt(Decoder& d, avro_schema_t schema,
                                               std::string_view field) {
  FIRN_ASSIGN_OR_RETURN(std::optional<int64_t> value, ReadOptionalLong(d, schema, field));
  if (!value) return std::optional<int32_t>();
  if (*value < INT32_MIN || *value > INT32_MAX) {
    return Fail(ErrorKind::kBadRequest, "field '" + std::string(field) + "' out of int range");
  }
  return std::optional<int32_t>(static_cast<int32_t>(*value));
}

Result<int32_t> ReadRequiredInt(Decoder& d, avro_schema_t schema, std::string_view field) {
  FIRN_ASSIGN_OR_RETURN(std::optional<int32_t> value, ReadOptionalInt(d, schema, field));
  if (!value) return NullRequired(field);
  return *value;
}

Result<std::string> ReadRequiredString(Decoder& d, avro_schema_t schema, std::string_view field) {
  FIRN_ASSIGN_OR_RETURN(avro_schema_t s, d.Resolve(schema));
  if (is_avro_null(s)) return NullRequired(field);
  if (!is_avro_string(s)) return WrongType(field, s, "string");
  std::string_view value;
  FIRN_RETURN_IF_ERROR(d.ReadBytes(&value));
  return std::string(value);
}

// Walks the fields of one record value in writer order. `on_field` returns true when it
// consumed the field's value; otherwise the value is skipped.
using FieldFn = std::function<Result<bool>(std::string_view name, avro_schema_t schema)>;

Status ReadRecord(Decoder& d, avro_schema_t record, const FieldFn& on_field) {
  const size_t n = avro_schema_record_size(record);
  for (size_t i = 0; i < n; ++i) {
    const char* name = avro_schema_record_field_name(record, static_cast<int>(i));
    avro_schema_t field = avro_schema_record_field_get_by_index(record, static_cast<int>(i));
    if (name == nullptr || field == nullptr) {
      return Fail(ErrorKind::kBadRequest, "malformed record schema");
    }
    FIRN_ASSIGN_OR_RETURN(bool consumed, on_field(name, field));
    if (!consumed) FIRN_RETURN_IF_ERROR(d.Skip(field, 1));
  }
  return Ok();
}

// ---------------------------------------------------------------------------------------------
// Container framing and codecs.

struct Block {
  int64_t count = 0;
  std::string_view data;  // still encoded with the file's codec
};

struct Container {
  SchemaPtr schema;
  std::string codec;
  std::vector<Block> blocks;
  std::string_view header;  // magic, file metadata and sync marker, as written
  std::string_view sync;
};

Result<Container> ParseContainer(std::string_view bytes) {
  if (bytes.empty()) return Fail(ErrorKind::kBadRequest, "empty input");
  if (bytes.size() < kMagic.size() || bytes.substr(0, kMagic.size()) != kMagic) {
    return Fail(ErrorKind::kBadRequest, "not an Avro object container file (bad magic)");
  }
  Decoder d(bytes.substr(kMagic.size()));

  // File metadata: a map<bytes>, encoded like any Avro map.
  std::optional<std::string_view> schema_json;
  Container out;
  out.codec = "null";
  for (;;) {
    int64_t count = 0;
    FIRN_RETURN_IF_ERROR(d.ReadBlockCount(&count));
    if (count == 0) break;
    if (static_cast<uint64_t>(count) > d.remaining()) {
      return Fail(ErrorKind::kBadRequest, "unexpected end of data in file header");
    }
    for (int64_t i = 0; i < count; ++i) {
      std::string_view key;
      std::string_view value;
      FIRN_RETURN_IF_ERROR(d.ReadBytes(&key));
      FIRN_RETURN_IF_ERROR(d.ReadBytes(&value));
      if (key == "avro.schema") schema_json = value;
      if (key == "avro.codec") out.codec = std::string(value);
    }
  }
  std::string_view sync;
  FIRN_RETURN_IF_ERROR(d.ReadRaw(kSyncSize, &sync));
  if (!schema_json) return Fail(ErrorKind::kBadRequest, "file header has no avro.schema");
  out.sync = sync;
  out.header = bytes.substr(0, static_cast<size_t>(sync.data() + sync.size() - bytes.data()));

  while (!d.AtEnd()) {
    Block block;
    int64_t size = 0;
    FIRN_RETURN_IF_ERROR(d.ReadLong(&block.count));
    FIRN_RETURN_IF_ERROR(d.ReadLong(&size));
    if (block.count < 0 || size < 0) {
      return Fail(ErrorKind::kBadRequest, "negative block count or size");
    }
    if (static_cast<uint64_t>(size) > d.remaining()) {
      return Fail(ErrorKind::kBadRequest, "data block truncated");
    }
    FIRN_RETURN_IF_ERROR(d.ReadRaw(static_cast<size_t>(size), &block.data));
    std::string_view marker;
    if (!d.ReadRaw(kSyncSize, &marker) || marker != sync) {
      return Fail(ErrorKind::kBadRequest, "sync marker missing or wrong after data block");
    }
    out.blocks.push_back(block);
  }

  FIRN_ASSIGN_OR_RETURN(out.schema, ParseSchema(*schema_json));
  return out;
}

// Avro "deflate" is raw RFC 1951 deflate without zlib header or checksum.
Status Inflate(std::string_view in, int64_t budget, std::string* out) {
  z_stream zs{};
  if (inflateInit2(&zs, -15) != Z_OK) {
    return Fail(ErrorKind::kInternal, "zlib initialisation failed");
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, inflateEnd);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(std::min<size_t>(in.size(), UINT32_MAX));
  out->clear();
  size_t chunk = std::max<size_t>(in.size() * 4, 4096);
  for (;;) {
    const size_t used = zs.total_out;
    if (static_cast<int64_t>(used + chunk) > budget) {
      if (static_cast<int64_t>(used) >= budget) {
        return Fail(ErrorKind::kBadRequest, "decompressed data exceeds limit");
      }
      chunk = static_cast<size_t>(budget) - used;
    }
    out->resize(used + chunk);
    zs.next_out = reinterpret_cast<Bytef*>(out->data() + used);
    zs.avail_out = static_cast<uInt>(chunk);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) break;
    if (rc == Z_OK) continue;
    if (rc == Z_MEM_ERROR) return Fail(ErrorKind::kInternal, "zlib out of memory");
    // Z_BUF_ERROR with input left cannot happen while output space is offered; treat as corrupt.
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      return Fail(ErrorKind::kBadRequest, "deflate block truncated");
    }
    return Fail(ErrorKind::kBadRequest, "corrupt deflate block");
  }
  out->resize(zs.total_out);
  return Ok();
}

// Avro's zig-zag varint.
void WriteLong(std::string& out, int64_t value) {
  uint64_t n = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7f) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
}

// Raw RFC 1951 deflate, as Avro's "deflate" codec wants it.
Result<std::string> Deflate(std::string_view in) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Fail(ErrorKind::kInternal, "zlib initialisation failed");
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, deflateEnd);
  std::string out(deflateBound(&zs, static_cast<uLong>(in.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
    return Fail(ErrorKind::kInternal, "zlib deflate failed");
  }
  out.resize(zs.total_out);
  return out;
}

// Copies values of a writer schema from a Decoder to an output, rewriting the strings of the
// path fields on the way. Counted blocks of arrays and maps are re-written with plain counts
// (their byte sizes would no longer hold).
class PathCopier {
 public:
  PathCopier(std::string_view from, std::string_view to) : from_(from), to_(to) {}

  size_t rewritten() const { return rewritten_; }
  // Bounds the work on one block of `size` bytes (hostile input: huge counts of zero-width
  // items), as the decoder's own budget does.
  void StartBlock(size_t size) { steps_left_ = static_cast<int64_t>(size) * 8 + 4096; }

  Status Copy(Decoder& d, avro_schema_t schema, std::string_view field, int depth,
              std::string& out) {
    if (depth > kMaxDepth) return Fail(ErrorKind::kBadRequest, "values nested too deeply");
    if (--steps_left_ < 0) return Fail(ErrorKind::kBadRequest, "too many values for block size");
    schema = Unlink(schema);
    if (schema == nullptr) return Fail(ErrorKind::kBadRequest, "unresolved named type");
    if (is_avro_union(schema)) {
      int64_t index = 0;
      FIRN_RETURN_IF_ERROR(d.ReadLong(&index));
      if (index < 0 || static_cast<uint64_t>(index) >= avro_schema_union_size(schema)) {
        return Fail(ErrorKind::kBadRequest, "union branch index out of range");
      }
      WriteLong(out, index);
      return Copy(d, avro_schema_union_branch(schema, static_cast<int>(index)), field, depth + 1,
                  out);
    }
    std::string_view raw;
    int64_t number = 0;
    switch (avro_typeof(schema)) {
      case AVRO_NULL:
        return Ok();
      case AVRO_BOOLEAN:
        FIRN_RETURN_IF_ERROR(d.ReadRaw(1, &raw));
        out.append(raw);
        return Ok();
      case AVRO_INT32:
      case AVRO_INT64:
      case AVRO_ENUM:
        FIRN_RETURN_IF_ERROR(d.ReadLong(&number));
        WriteLong(out, number);
        return Ok();
      case AVRO_FLOAT:
        FIRN_RETURN_IF_ERROR(d.ReadRaw(4, &raw));
        out.append(raw);
        return Ok();
      case AVRO_DOUBLE:
        FIRN_RETURN_IF_ERROR(d.ReadRaw(8, &raw));
        out.append(raw);
        return Ok();
      case AVRO_BYTES:
        FIRN_RETURN_IF_ERROR(d.ReadBytes(&raw));
        WriteLong(out, static_cast<int64_t>(raw.size()));
        out.append(raw);
        return Ok();
      case AVRO_STRING: {
        FIRN_RETURN_IF_ERROR(d.ReadBytes(&raw));
        const bool path = field == "manifest_path" || field == "file_path" ||
                          field == "referenced_data_file";
        if (path && raw.starts_with(from_)) {
          const std::string changed = to_ + std::string(raw.substr(from_.size()));
          WriteLong(out, static_cast<int64_t>(changed.size()));
          out.append(changed);
          ++rewritten_;
          return Ok();
        }
        WriteLong(out, static_cast<int64_t>(raw.size()));
        out.append(raw);
        return Ok();
      }
      case AVRO_FIXED: {
        const int64_t size = avro_schema_fixed_size(schema);
        if (size < 0) return Fail(ErrorKind::kBadRequest, "invalid fixed size");
        FIRN_RETURN_IF_ERROR(d.ReadRaw(static_cast<size_t>(size), &raw));
        out.append(raw);
        return Ok();
      }
      case AVRO_RECORD: {
        const size_t n = avro_schema_record_size(schema);
        for (size_t i = 0; i < n; ++i) {
          const char* name = avro_schema_record_field_name(schema, static_cast<int>(i));
          avro_schema_t f = avro_schema_record_field_get_by_index(schema, static_cast<int>(i));
          if (name == nullptr || f == nullptr) {
            return Fail(ErrorKind::kBadRequest, "malformed record schema");
          }
          FIRN_RETURN_IF_ERROR(Copy(d, f, name, depth + 1, out));
        }
        return Ok();
      }
      case AVRO_ARRAY:
      case AVRO_MAP: {
        const bool is_map = is_avro_map(schema);
        avro_schema_t item =
            is_map ? avro_schema_map_values(schema) : avro_schema_array_items(schema);
        for (;;) {
          int64_t count = 0;
          FIRN_RETURN_IF_ERROR(d.ReadBlockCount(&count));
          WriteLong(out, count);
          if (count == 0) return Ok();
          for (int64_t i = 0; i < count; ++i) {
            if (is_map) {
              FIRN_RETURN_IF_ERROR(d.ReadBytes(&raw));
              WriteLong(out, static_cast<int64_t>(raw.size()));
              out.append(raw);
            }
            FIRN_RETURN_IF_ERROR(Copy(d, item, "", depth + 1, out));
          }
        }
      }
      case AVRO_UNION:
      case AVRO_LINK:
        break;
    }
    return Fail(ErrorKind::kBadRequest, "unexpected schema type");
  }

 private:
  const std::string_view from_;
  const std::string to_;
  size_t rewritten_ = 0;
  int64_t steps_left_ = 0;
};

// Decodes every block of `file` (its codec checked, inflated within the budget) and hands it
// to `each`, which must consume exactly its records; trailing bytes are refused.
Status ForEachBlock(const Container& file,
                    const std::function<Status(Decoder&, const Block&)>& each) {
  if (file.codec != "null" && file.codec != "deflate") {
    return Fail(ErrorKind::kBadRequest, "unsupported codec '" + Clip(file.codec) + "'");
  }
  std::string inflated;
  int64_t budget = kMaxDecodedBytes;
  for (const Block& block : file.blocks) {
    std::string_view data = block.data;
    if (file.codec == "deflate") {
      FIRN_RETURN_IF_ERROR(Inflate(block.data, budget, &inflated));
      budget -= static_cast<int64_t>(inflated.size());
      data = inflated;
    }
    Decoder d(data);
    FIRN_RETURN_IF_ERROR(each(d, block));
    if (!d.AtEnd()) return Fail(ErrorKind::kBadRequest, "data block has trailing bytes");
  }
  return Ok();
}

Result<std::string> RewriteImpl(std::string_view bytes, std::string_view from,
                                std::string_view to, size_t* rewritten) {
  FIRN_ASSIGN_OR_RETURN(Container file, ParseContainer(bytes));
  avro_schema_t record = Unlink(file.schema.get());
  PathCopier copier(from, to);
  std::string out(file.header);
  FIRN_RETURN_IF_ERROR(ForEachBlock(file, [&](Decoder& d, const Block& block) -> Status {
    copier.StartBlock(d.remaining());
    std::string encoded;
    encoded.reserve(d.remaining() + 64);
    for (int64_t i = 0; i < block.count; ++i) {
      FIRN_RETURN_IF_ERROR(copier.Copy(d, record, "", 0, encoded));
    }
    if (file.codec == "deflate") {
      FIRN_ASSIGN_OR_RETURN(encoded, Deflate(encoded));
    }
    WriteLong(out, block.count);
    WriteLong(out, static_cast<int64_t>(encoded.size()));
    out.append(encoded);
    out.append(file.sync);
    return Ok();
  }));
  if (rewritten) *rewritten = copier.rewritten();
  return out;
}

// Decodes every record of every block with `read_one`, which must consume exactly one record.
template <typename Entry>
Result<std::vector<Entry>> ReadAll(
    const Container& file, const std::function<Status(Decoder&, Entry*)>& read_one) {
  std::vector<Entry> entries;
  FIRN_RETURN_IF_ERROR(ForEachBlock(file, [&](Decoder& d, const Block& block) -> Status {
    for (int64_t i = 0; i < block.count; ++i) {
      Entry entry;
      FIRN_RETURN_IF_ERROR(read_one(d, &entry));
      entries.push_back(std::move(entry));
    }
    return Ok();
  }));
  return entries;
}

template <typename T>
Result<T> WithContext(Result<T> result, std::string_view what) {
  if (result) return result;
  Error error = std::move(result).error();
  error.message = "Cannot read " + std::string(what) + ": " + error.message;
  return Fail(std::move(error));
}

// ---------------------------------------------------------------------------------------------
// Iceberg projections.

Result<std::vector<ManifestListEntry>> ReadManifestListImpl(std::string_view bytes) {
  FIRN_ASSIGN_OR_RETURN(Container file, ParseContainer(bytes));
  avro_schema_t record = Unlink(file.schema.get());
  if (!is_avro_record(record)) {
    return Fail(ErrorKind::kBadRequest, "writer schema is not a record");
  }
  FIRN_RETURN_IF_ERROR(RequireFields(record, "manifest_file",
                                     {"manifest_path", "manifest_length", "partition_spec_id"}));
  const std::function<Status(Decoder&, ManifestListEntry*)> read_one =
      [record](Decoder& d, ManifestListEntry* e) -> Status {
    return ReadRecord(d, record, [&](std::string_view name, avro_schema_t s) -> Result<bool> {
      if (name == "manifest_path") {
        FIRN_ASSIGN_OR_RETURN(e->manifest_path, ReadRequiredString(d, s, name));
      } else if (name == "manifest_length") {
        FIRN_ASSIGN_OR_RETURN(e->manifest_length, ReadRequiredLong(d, s, name));
      } else if (name == "partition_spec_id") {
        FIRN_ASSIGN_OR_RETURN(e->partition_spec_id, ReadRequiredInt(d, s, name));
      } else if (name == "content") {
        FIRN_ASSIGN_OR_RETURN(std::optional<int32_t> content, ReadOptionalInt(d, s, name));
        e->content = content.value_or(0);
      } else if (name == "added_snapshot_id") {
        FIRN_ASSIGN_OR_RETURN(e->added_snapshot_id, ReadOptionalLong(d, s, name));
      } else {
        return false;
      }
      return true;
    });
  };
  return ReadAll(file, read_one);
}

Result<std::vector<ManifestFileEntry>> ReadManifestImpl(std::string_view bytes) {
  FIRN_ASSIGN_OR_RETURN(Container file, ParseContainer(bytes));
  avro_schema_t record = Unlink(file.schema.get());
  if (!is_avro_record(record)) {
    return Fail(ErrorKind::kBadRequest, "writer schema is not a record");
  }
  FIRN_RETURN_IF_ERROR(RequireFields(record, "manifest_entry", {"status", "data_file"}));
  avro_schema_t data_file = StaticRecord(
      avro_schema_record_field_get_by_index(record, FieldIndex(record, "data_file")));
  if (data_file == nullptr) {
    return Fail(ErrorKind::kBadRequest, "field 'data_file' is not a record");
  }
  FIRN_RETURN_IF_ERROR(RequireFields(data_file, "data_file",
                                     {"file_path", "file_size_in_bytes", "record_count"}));

  const auto read_data_file = [](Decoder& d, avro_schema_t s, ManifestFileEntry* e) -> Status {
    FIRN_ASSIGN_OR_RETURN(avro_schema_t rec, d.Resolve(s));
    if (is_avro_null(rec)) return NullRequired("data_file");
    if (!is_avro_record(rec)) return WrongType("data_file", rec, "record");
    return ReadRecord(d, rec, [&](std::string_view name, avro_schema_t f) -> Result<bool> {
      if (name == "file_path") {
        FIRN_ASSIGN_OR_RETURN(e->file_path, ReadRequiredString(d, f, name));
      } else if (name == "file_size_in_bytes") {
        FIRN_ASSIGN_OR_RETURN(e->file_size_in_bytes, ReadRequiredLong(d, f, name));
      } else if (name == "record_count") {
        FIRN_ASSIGN_OR_RETURN(e->record_count, ReadRequiredLong(d, f, name));
      } else if (name == "content") {
        FIRN_ASSIGN_OR_RETURN(std::optional<int32_t> content, ReadOptionalInt(d, f, name));
        e->content = content.value_or(0);
      } else {
        return false;
      }
      return true;
    });
  };
  const std::function<Status(Decoder&, ManifestFileEntry*)> read_one =
      [record, read_data_file](Decoder& d, ManifestFileEntry* e) -> Status {
    return ReadRecord(d, record, [&](std::string_view name, avro_schema_t s) -> Result<bool> {
      if (name == "status") {
        FIRN_ASSIGN_OR_RETURN(e->status, ReadRequiredInt(d, s, name));
      } else if (name == "data_file") {
        FIRN_RETURN_IF_ERROR(read_data_file(d, s, e));
      } else {
        return false;
      }
      return true;
    });
  };
  return ReadAll(file, read_one);
}

}  // namespace

Result<std::vector<ManifestListEntry>> ReadManifestList(std::string_view avro_bytes) {
  return WithContext(ReadManifestListImpl(avro_bytes), "manifest list");
}

Result<std::vector<ManifestFileEntry>> ReadManifest(std::string_view avro_bytes) {
  return WithContext(ReadManifestImpl(avro_bytes), "manifest");
}

Result<std::string> RewriteManifestPaths(std::string_view avro_bytes, std::string_view from,
                                         std::string_view to, size_t* rewritten) {
  return WithContext(RewriteImpl(avro_bytes, from, to, rewritten), "manifest file to rewrite");
}

}  // namespace firn::io
