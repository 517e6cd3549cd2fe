// The Iceberg type system as it appears in schema JSON (table spec, Appendix C).
//
// Schema field trees are kept as JSON (see table_metadata.h). These helpers check a tree's
// shape, bring it to canonical form (known keys only, Java's key order, canonical primitive
// names, so equal schemas compare equal), and walk it.
// Errors: shape problems are kBadRequest naming the key, never echoing the input.
// Thread-safety: pure functions.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <string>
#include <string_view>

#include "common/result.h"

namespace firn::metadata {

struct PrimitiveType {
  std::string name;            // canonical text, e.g. "long", "decimal(9, 2)", "fixed[16]"
  std::string base;            // "long", "decimal", "fixed", "geometry", ...
  int min_format_version = 1;  // first table format version that allows the type
  int precision = 0;           // decimal only
  int scale = 0;               // decimal only
};

// Parses a primitive type name (case-insensitive, as Java). kBadRequest for unknown names and
// for out-of-range parameters (decimal precision > 38, fixed length < 1).
Result<PrimitiveType> ParsePrimitiveType(std::string_view text);

// Validates a type (primitive string or struct/list/map object) and returns its canonical form.
Result<boost::json::value> NormalizeType(const boost::json::value& type);
// Validates and canonicalises the `fields` array of a struct (or a schema).
Result<boost::json::array> NormalizeStructFields(const boost::json::value& fields);

// One node of a normalized field tree: a struct field, a list element, a map key or value.
struct FieldNode {
  int id = 0;
  std::string path;                          // dotted: "a.b", "tags.element", "m.key"
  bool required = false;
  const boost::json::value* type = nullptr;  // the node's type JSON
  const boost::json::object* field = nullptr;  // the struct field object; nullptr otherwise
};

// Visits every node of a normalized tree, parents before children, in document order.
void ForEachFieldNode(const boost::json::array& struct_fields,
                      const std::function<void(const FieldNode&)>& visit);

}  // namespace firn::metadata
