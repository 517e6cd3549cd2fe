#include "io/avro_schema.h"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <set>

#include "common/macros.h"

namespace firn::io::avro {
namespace {
constexpr size_t kMaxReasonChars = 200;
constexpr int kMaxSchemaJsonDepth = 256;
}  // namespace

// ---------------------------------------------------------------------------------------------
// Avro C access (schema JSON only), serialised because Avro C's error text is global.

std::mutex& AvroCMutex() {
  static std::mutex mu;
  return mu;
}

void SchemaDeleter::operator()(avro_obj_t* schema) const {
  std::lock_guard lock(AvroCMutex());
  avro_schema_decref(schema);
}

std::string Clip(std::string_view text) {
  if (text.size() <= kMaxReasonChars) return std::string(text);
  return std::string(text.substr(0, kMaxReasonChars)) + "...";
}

namespace {

// A structural check of the writer schema JSON before Avro C parses it. Avro C 1.11.1 leaks the
// schema it was building on most of its error paths (a named type defined twice, an unknown
// type name, a field without a type, an invalid identifier, ...), and on some of them the
// partial schema it hands back is already freed, so it can be neither released nor kept. The
// check refuses what Avro C would refuse, so hostile files never reach those paths (found by
// tests/fuzz manifest). Names: a dotted name is full, else it takes the type's own
// "namespace", else the enclosing named type's; a reference may use the full or the short name.
class SchemaChecker {
 public:
  Status Check(const boost::json::value& v) { return Type(v, "", 0); }

 private:
  static bool IsIdentifier(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) {
      return false;
    }
    return std::all_of(s.begin(), s.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
  }
  static bool IsFullName(std::string_view s) {
    while (true) {
      size_t dot = s.find('.');
      if (!IsIdentifier(s.substr(0, dot))) return false;
      if (dot == std::string_view::npos) return true;
      s.remove_prefix(dot + 1);
    }
  }
  static bool IsPrimitive(std::string_view t) {
    return t == "null" || t == "boolean" || t == "int" || t == "long" || t == "float" ||
           t == "double" || t == "bytes" || t == "string";
  }
  static std::unexpected<Error> Invalid(std::string_view why) {
    return Fail(ErrorKind::kBadRequest, "invalid writer schema: " + Clip(why));
  }
  bool Known(std::string_view name) const {
    return full_.contains(std::string(name)) || short_.contains(std::string(name));
  }

  // Registers a named type; returns the namespace its members inherit.
  Result<std::string> Define(const boost::json::object& o, const std::string& ns) {
    const boost::json::value* name = o.if_contains("name");
    if (!name || !name->is_string() || !IsFullName(name->as_string())) {
      return Invalid("a named type needs a valid \"name\"");
    }
    std::string full(name->as_string());
    if (full.find('.') == std::string::npos) {
      const boost::json::value* own = o.if_contains("namespace");
      std::string space = own && own->is_string() ? std::string(own->as_string()) : ns;
      if (!space.empty()) full = space + "." + full;
    }
    if (!full_.insert(full).second) return Invalid("type '" + full + "' defined twice");
    size_t dot = full.rfind('.');
    short_.insert(dot == std::string::npos ? full : full.substr(dot + 1));
    return dot == std::string::npos ? std::string() : full.substr(0, dot);
  }

  Status Type(const boost::json::value& v, const std::string& ns, int depth) {
    if (depth > kMaxSchemaJsonDepth) return Invalid("nested too deeply");
    if (v.is_string()) {
      std::string_view t = v.as_string();
      if (IsPrimitive(t) || Known(t)) return Ok();
      return Invalid("unknown type '" + std::string(t) + "'");
    }
    if (v.is_array()) {
      for (const auto& branch : v.as_array()) {
        if (branch.is_array()) return Invalid("a union directly inside a union");
        FIRN_RETURN_IF_ERROR(Type(branch, ns, depth + 1));
      }
      return Ok();
    }
    if (!v.is_object()) return Invalid("a type must be a string, an array or an object");
    const boost::json::object& o = v.as_object();
    const boost::json::value* type = o.if_contains("type");
    if (!type || !type->is_string()) return Invalid("\"type\" must be a string");
    std::string_view t = type->as_string();
    if (t == "record" || t == "error") {
      FIRN_ASSIGN_OR_RETURN(std::string inner, Define(o, ns));
      const boost::json::value* fields = o.if_contains("fields");
      if (!fields || !fields->is_array()) return Invalid("a record needs \"fields\"");
      for (const auto& f : fields->as_array()) {
        const boost::json::object* field = f.if_object();
        const boost::json::value* name = field ? field->if_contains("name") : nullptr;
        if (!name || !name->is_string() || !IsIdentifier(name->as_string())) {
          return Invalid("a record field needs a valid \"name\"");
        }
        const boost::json::value* ft = field->if_contains("type");
        if (!ft) return Invalid("a record field needs a \"type\"");
        FIRN_RETURN_IF_ERROR(Type(*ft, inner, depth + 1));
      }
      return Ok();
    }
    if (t == "enum") {
      FIRN_RETURN_IF_ERROR(Define(o, ns));
      const boost::json::value* symbols = o.if_contains("symbols");
      if (!symbols || !symbols->is_array()) return Invalid("an enum needs \"symbols\"");
      for (const auto& sym : symbols->as_array()) {
        if (!sym.is_string()) return Invalid("enum symbols must be strings");
      }
      return Ok();
    }
    if (t == "fixed") {
      FIRN_RETURN_IF_ERROR(Define(o, ns));
      const boost::json::value* size = o.if_contains("size");
      if (!size || !size->is_int64() || size->as_int64() < 0) {
        return Invalid("a fixed type needs an integer \"size\"");
      }
      return Ok();
    }
    if (t == "array" || t == "map") {
      const boost::json::value* inner = o.if_contains(t == "array" ? "items" : "values");
      if (!inner) return Invalid(t == "array" ? "an array needs items" : "a map needs values");
      return Type(*inner, ns, depth + 1);
    }
    if (IsPrimitive(t) || Known(t)) return Ok();
    return Invalid("unknown type '" + std::string(t) + "'");
  }

  std::set<std::string> full_;
  std::set<std::string> short_;
};

}  // namespace

Result<SchemaPtr> ParseSchema(std::string_view json) {
  boost::system::error_code ec;
  boost::json::parse_options options;
  options.max_depth = kMaxSchemaJsonDepth;
  boost::json::value parsed = boost::json::parse(json, ec, {}, options);
  if (ec) return Fail(ErrorKind::kBadRequest, "invalid writer schema: not JSON");
  FIRN_RETURN_IF_ERROR(SchemaChecker().Check(parsed));

  std::lock_guard lock(AvroCMutex());
  avro_schema_t schema = nullptr;
  if (avro_schema_from_json_length(json.data(), json.size(), &schema) != 0 || schema == nullptr) {
    // Not reached for schemas SchemaChecker accepts, as far as we know. Whatever Avro C hands
    // back here may already be freed, so it is not touched.
    return Fail(ErrorKind::kBadRequest, "invalid writer schema: " + Clip(avro_strerror()));
  }
  return SchemaPtr(schema);
}

std::string_view TypeName(avro_schema_t schema) {
  switch (avro_typeof(schema)) {
    case AVRO_STRING: return "string";
    case AVRO_BYTES: return "bytes";
    case AVRO_INT32: return "int";
    case AVRO_INT64: return "long";
    case AVRO_FLOAT: return "float";
    case AVRO_DOUBLE: return "double";
    case AVRO_BOOLEAN: return "boolean";
    case AVRO_NULL: return "null";
    case AVRO_RECORD: return "record";
    case AVRO_ENUM: return "enum";
    case AVRO_FIXED: return "fixed";
    case AVRO_MAP: return "map";
    case AVRO_ARRAY: return "array";
    case AVRO_UNION: return "union";
    case AVRO_LINK: return "link";
  }
  return "unknown";
}

avro_schema_t Unlink(avro_schema_t schema) {
  // Links point at a named type defined elsewhere; the depth cap guards a malformed cycle.
  for (int i = 0; i < kMaxDepth && is_avro_link(schema); ++i) {
    schema = avro_schema_link_target(schema);
  }
  return schema;
}

// Index of the record field called `name`, or -1. Iterates by index: a by-name miss in Avro C
// would write its global error buffer outside our mutex.
int FieldIndex(avro_schema_t record, std::string_view name) {
  const size_t n = avro_schema_record_size(record);
  for (size_t i = 0; i < n; ++i) {
    const char* field = avro_schema_record_field_name(record, static_cast<int>(i));
    if (field != nullptr && name == field) return static_cast<int>(i);
  }
  return -1;
}

// The record behind `schema` (unwrapping links and an optional [null, record] union), or null.
avro_schema_t StaticRecord(avro_schema_t schema) {
  schema = Unlink(schema);
  if (schema != nullptr && is_avro_union(schema)) {
    for (size_t i = 0; i < avro_schema_union_size(schema); ++i) {
      avro_schema_t branch = Unlink(avro_schema_union_branch(schema, static_cast<int>(i)));
      if (is_avro_record(branch)) return branch;
    }
    return nullptr;
  }
  return is_avro_record(schema) ? schema : nullptr;
}

Status RequireFields(avro_schema_t record, std::string_view record_name,
                     std::initializer_list<std::string_view> names) {
  for (std::string_view name : names) {
    if (FieldIndex(record, name) < 0) {
      return Fail(ErrorKind::kBadRequest,
                  "writer schema of " + std::string(record_name) + " has no field '" +
                      std::string(name) + "'");
    }
  }
  return Ok();
}

}  // namespace firn::io::avro
