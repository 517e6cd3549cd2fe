// Small typed readers for the JSON of commit requests (requirements and updates).
//
// Internal to metadata/. Every failure is kBadRequest with a message that names the field and
// the object being parsed ("Cannot parse update add-schema: missing field 'schema'"); the
// input's values are never echoed. Thread-safety: stateless helpers over caller-owned JSON.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace firn::metadata::json_read {

// `text` cut to at most `max_chars` bytes on a UTF-8 boundary (for echoing a name in an error).
std::string Truncate(std::string_view text, size_t max_chars = 64);

// Reads fields of one JSON object; `what` names the object in error messages.
class FieldReader {
 public:
  FieldReader(const boost::json::object& object, std::string what)
      : object_(object), what_(std::move(what)) {}

  // The raw value, or kBadRequest "missing field" when absent.
  Result<const boost::json::value*> Required(std::string_view key) const;
  // nullptr when absent.
  const boost::json::value* Find(std::string_view key) const;

  Result<std::string> String(std::string_view key) const;
  Result<int64_t> Int64(std::string_view key) const;
  Result<int> Int(std::string_view key) const;
  // Absent or JSON null → nullopt.
  Result<std::optional<int64_t>> OptionalInt64(std::string_view key) const;
  Result<std::optional<int>> OptionalInt(std::string_view key) const;
  Result<std::vector<int64_t>> Int64Array(std::string_view key) const;
  Result<std::vector<int>> IntArray(std::string_view key) const;
  Result<std::vector<std::string>> StringArray(std::string_view key) const;
  Result<std::map<std::string, std::string>> StringMap(std::string_view key) const;
  // The field's value must be a JSON object.
  Result<const boost::json::object*> Object(std::string_view key) const;

  // kBadRequest "Cannot parse <what>: <problem>".
  Error Problem(std::string_view problem) const;
  // kBadRequest "Cannot parse <what>: field '<key>' must be <expected>".
  Error WrongType(std::string_view key, std::string_view expected) const;

 private:
  const boost::json::object& object_;
  std::string what_;
};

// Integer conversions shared by the readers; nullopt when out of range or not an integer.
std::optional<int64_t> AsInt64(const boost::json::value& value);
std::optional<int> AsInt(const boost::json::value& value);

}  // namespace firn::metadata::json_read
