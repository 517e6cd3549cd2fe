// Typed field access on JSON objects for the metadata parsers (internal to metadata/).
//
// A JsonReader wraps one object plus a context ("snapshot", "partition field") used in error
// messages. Every failure is kBadRequest and names the context and the field, never the value.
// `null` counts as absent: optional getters return nullopt, required getters fail "missing".
// Thread-safety: a reader borrows the object; it is a cheap value, use it on one thread.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace firn::metadata {

class JsonReader {
 public:
  // Fails unless `json` is an object: "Cannot parse <context>: not a JSON object".
  static Result<JsonReader> Of(const boost::json::value& json, std::string_view context);
  static JsonReader Of(const boost::json::object& json, std::string_view context) {
    return JsonReader(json, context);
  }
  // A temporary would dangle: the reader borrows.
  static Result<JsonReader> Of(boost::json::value&&, std::string_view) = delete;

  const boost::json::object& object() const { return *object_; }
  // Present and not null.
  bool Has(std::string_view key) const;

  Result<int> Int(std::string_view key) const;
  Result<std::optional<int>> OptInt(std::string_view key) const;
  Result<int64_t> Long(std::string_view key) const;
  Result<std::optional<int64_t>> OptLong(std::string_view key) const;
  Result<bool> Bool(std::string_view key) const;
  Result<std::string> String(std::string_view key) const;
  Result<std::optional<std::string>> OptString(std::string_view key) const;
  // Required / optional arrays and objects; the optional forms return nullptr when absent.
  Result<const boost::json::array*> Array(std::string_view key) const;
  Result<const boost::json::array*> OptArray(std::string_view key) const;
  Result<const boost::json::object*> Object(std::string_view key) const;
  Result<const boost::json::object*> OptObject(std::string_view key) const;
  // Optional list of ints (empty when absent).
  Result<std::vector<int>> IntList(std::string_view key) const;
  // Optional string→string map (empty when absent); every value must be a string.
  Result<std::map<std::string, std::string>> StringMap(std::string_view key) const;

  std::unexpected<Error> Missing(std::string_view key) const;
  std::unexpected<Error> WrongType(std::string_view key, std::string_view expected) const;
  std::unexpected<Error> Invalid(std::string_view key, std::string_view why) const;

 private:
  JsonReader(const boost::json::object& object, std::string_view context)
      : object_(&object), context_(context) {}
  const boost::json::value* Find(std::string_view key) const;

  const boost::json::object* object_;
  std::string context_;
};

// Exact integer value of `v` if it is an integral JSON number (int64/uint64) fitting int64.
std::optional<int64_t> AsInt64(const boost::json::value& v);

// Writer helpers: JSON arrays from ints, JSON objects from string maps.
boost::json::array IntArray(const std::vector<int>& ints);
boost::json::object StringObject(const std::map<std::string, std::string>& map);

}  // namespace firn::metadata
