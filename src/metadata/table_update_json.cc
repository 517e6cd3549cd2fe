#include "metadata/table_update_json.h"

#include <boost/json/array.hpp>

#include "common/macros.h"
#include "metadata/serde_util.h"

namespace firn::metadata::json_read {

std::string Truncate(std::string_view text, size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  size_t end = max_chars;
  // Never cut a UTF-8 sequence in half: back up over continuation bytes (10xxxxxx).
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end));
}

Error FieldReader::Problem(std::string_view problem) const {
  return Error(ErrorKind::kBadRequest, "Cannot parse " + what_ + ": " + std::string(problem));
}

Error FieldReader::WrongType(std::string_view key, std::string_view expected) const {
  return Problem("field '" + std::string(key) + "' must be " + std::string(expected));
}

const boost::json::value* FieldReader::Find(std::string_view key) const {
  return object_.if_contains(key);
}

Result<const boost::json::value*> FieldReader::Required(std::string_view key) const {
  const boost::json::value* value = Find(key);
  if (value == nullptr) return Fail(Problem("missing field '" + std::string(key) + "'"));
  return value;
}

// Every typed getter is one of three forms over a converter that answers nullopt for a value
// of the wrong type, so the messages stay uniform: "field 'k' must be <expected>".
template <typename T, typename Convert>
Result<T> FieldReader::Converted(std::string_view key, Convert convert,
                                 std::string_view expected) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* value, Required(key));
  std::optional<T> out = convert(*value);
  if (!out) return Fail(WrongType(key, expected));
  return std::move(*out);
}

template <typename T, typename Convert>
Result<std::optional<T>> FieldReader::OptionalConverted(std::string_view key, Convert convert,
                                                        std::string_view expected) const {
  const boost::json::value* value = Find(key);
  if (value == nullptr || value->is_null()) return std::optional<T>();
  std::optional<T> out = convert(*value);
  if (!out) return Fail(WrongType(key, expected));
  return out;
}

template <typename T, typename Convert>
Result<std::vector<T>> FieldReader::ConvertedArray(std::string_view key, Convert convert,
                                                   std::string_view expected) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* value, Required(key));
  if (!value->is_array()) return Fail(WrongType(key, expected));
  std::vector<T> out;
  out.reserve(value->get_array().size());
  for (const boost::json::value& item : value->get_array()) {
    std::optional<T> converted = convert(item);
    if (!converted) return Fail(WrongType(key, expected));
    out.push_back(std::move(*converted));
  }
  return out;
}

Result<std::string> FieldReader::String(std::string_view key) const {
  return Converted<std::string>(key, AsString, "a string");
}

Result<int64_t> FieldReader::Int64(std::string_view key) const {
  return Converted<int64_t>(key, AsInt64, "a 64-bit integer");
}

Result<int> FieldReader::Int(std::string_view key) const {
  return Converted<int>(key, AsInt, "a 32-bit integer");
}

Result<std::optional<int64_t>> FieldReader::OptionalInt64(std::string_view key) const {
  return OptionalConverted<int64_t>(key, AsInt64, "a 64-bit integer or null");
}

Result<std::optional<int>> FieldReader::OptionalInt(std::string_view key) const {
  return OptionalConverted<int>(key, AsInt, "a 32-bit integer or null");
}

Result<std::vector<int64_t>> FieldReader::Int64Array(std::string_view key) const {
  return ConvertedArray<int64_t>(key, AsInt64, "an array of 64-bit integers");
}

Result<std::vector<int>> FieldReader::IntArray(std::string_view key) const {
  return ConvertedArray<int>(key, AsInt, "an array of 32-bit integers");
}

Result<std::vector<std::string>> FieldReader::StringArray(std::string_view key) const {
  return ConvertedArray<std::string>(key, AsString, "an array of strings");
}

Result<std::map<std::string, std::string>> FieldReader::StringMap(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::object* object,
                        Converted<const boost::json::object*>(key, AsObject,
                                                              "an object of strings"));
  std::map<std::string, std::string> out;
  for (const auto& [name, item] : *object) {
    if (!item.is_string()) return Fail(WrongType(key, "an object of strings"));
    out.emplace(std::string(name), std::string(item.get_string()));
  }
  return out;
}

Result<const boost::json::object*> FieldReader::Object(std::string_view key) const {
  return Converted<const boost::json::object*>(key, AsObject, "an object");
}

}  // namespace firn::metadata::json_read
