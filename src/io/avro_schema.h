// The writer-schema side of manifest reading (manifest_reader.cc): a structural check of the
// schema JSON, its parse by Avro C (the one part of Avro C Firn uses, serialised because its
// error text is global), and lookups on the parsed schema.
//
// Thread-safety: ParseSchema and SchemaPtr's release take the Avro C mutex; the lookups read an
// immutable parsed schema. Errors: kBadRequest naming what is wrong with the schema (clipped).
// Internal to io/.
#pragma once

#include <avro.h>

#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "common/result.h"

namespace firn::io::avro {

inline constexpr int kMaxDepth = 64;  // links followed, nesting decoded

std::mutex& AvroCMutex();

struct SchemaDeleter {
  void operator()(avro_obj_t* schema) const;
};
using SchemaPtr = std::unique_ptr<avro_obj_t, SchemaDeleter>;

// At most 200 characters of `text` (error reasons quote file content).
std::string Clip(std::string_view text);
// Checks, then parses, a writer schema.
Result<SchemaPtr> ParseSchema(std::string_view json);
std::string_view TypeName(avro_schema_t schema);
// The named type a link points at (bounded).
avro_schema_t Unlink(avro_schema_t schema);
// Index of the record field called `name`, or -1.
int FieldIndex(avro_schema_t record, std::string_view name);
// The record behind `schema` (unwrapping links and an optional [null, record] union), or null.
avro_schema_t StaticRecord(avro_schema_t schema);
Status RequireFields(avro_schema_t record, std::string_view record_name,
                     std::initializer_list<std::string_view> names);

}  // namespace firn::io::avro
