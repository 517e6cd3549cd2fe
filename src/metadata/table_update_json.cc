#include "metadata/table_update_json.h"

#include <boost/json/array.hpp>

#include <limits>

#include "common/macros.h"

namespace firn::metadata::json_read {

std::string Truncate(std::string_view text, size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  size_t end = max_chars;
  // Never cut a UTF-8 sequence in half: back up over continuation bytes (10xxxxxx).
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end));
}

std::optional<int64_t> AsInt64(const boost::json::value& value) {
  if (value.is_int64()) return value.get_int64();
  if (value.is_uint64() &&
      value.get_uint64() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return static_cast<int64_t>(value.get_uint64());
  }
  return std::nullopt;
}

std::optional<int> AsInt(const boost::json::value& value) {
  std::optional<int64_t> wide = AsInt64(value);
  if (!wide || *wide < std::numeric_limits<int>::min() ||
      *wide > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(*wide);
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

Result<std::string> FieldReader::String(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* value, Required(key));
  if (!value->is_string()) return Fail(WrongType(key, "a string"));
  return std::string(value->get_string());
}

Result<int64_t> FieldReader::Int64(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* value, Required(key));
  std::optional<int64_t> number = AsInt64(*value);
  if (!number) return Fail(WrongType(key, "a 64-bit integer"));
  return *number;
}

Result<int> FieldReader::Int(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* value, Required(key));
  std::optional<int> number = AsInt(*value);
  if (!number) return Fail(WrongType(key, "a 32-bit integer"));
  return *number;
}

Result<std::optional<int64_t>> FieldReader::OptionalInt64(std::string_view key) const {
  const boost::json::value* value = Find(key);
  if (value == nullptr || value->is_null()) return std::optional<int64_t>();
  std::optional<int64_t> number = AsInt64(*value);
  if (!number) return Fail(WrongType(key, "a 64-bit integer or null"));
  return number;
}

Result<std::optional<int>> FieldReader::OptionalInt(std::string_view key) const {
  const boost::json::value* value = Find(key);
  if (value == nullptr || value->is_null()) return std::optional<int>();
  std::optional<int> number = AsInt(*value);
  if (!number) return Fail(WrongType(key, "a 32-bit integer or null"));
  return number;
}

Result<std::vector<int64_t>> FieldReader::Int64Array(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* value, Required(key));
  if (!value->is_array()) return Fail(WrongType(key, "an array of 64-bit integers"));
  std::vector<int64_t> out;
  out.reserve(value->get_array().size());
  for (const boost::json::value& item : value->get_array()) {
    std::optional<int64_t> number = AsInt64(item);
    if (!number) return Fail(WrongType(key, "an array of 64-bit integers"));
    out.push_back(*number);
  }
  return out;
}

Result<std::vector<int>> FieldReader::IntArray(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* value, Required(key));
  if (!value->is_array()) return Fail(WrongType(key, "an array of 32-bit integers"));
  std::vector<int> out;
  out.reserve(value->get_array().size());
  for (const boost::json::value& item : value->get_array()) {
    std::optional<int> number = AsInt(item);
    if (!number) return Fail(WrongType(key, "an array of 32-bit integers"));
    out.push_back(*number);
  }
  return out;
}

Result<std::vector<std::string>> FieldReader::StringArray(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* value, Required(key));
  if (!value->is_array()) return Fail(WrongType(key, "an array of strings"));
  std::vector<std::string> out;
  out.reserve(value->get_array().size());
  for (const boost::json::value& item : value->get_array()) {
    if (!item.is_string()) return Fail(WrongType(key, "an array of strings"));
    out.emplace_back(item.get_string());
  }
  return out;
}

Result<std::map<std::string, std::string>> FieldReader::StringMap(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* value, Required(key));
  if (!value->is_object()) return Fail(WrongType(key, "an object of strings"));
  std::map<std::string, std::string> out;
  for (const auto& [name, item] : value->get_object()) {
    if (!item.is_string()) return Fail(WrongType(key, "an object of strings"));
    out.emplace(std::string(name), std::string(item.get_string()));
  }
  return out;
}

Result<const boost::json::object*> FieldReader::Object(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* value, Required(key));
  if (!value->is_object()) return Fail(WrongType(key, "an object"));
  return &value->get_object();
}

}  // namespace firn::metadata::json_read
