// Small typed readers for the JSON of commit requests (requirements and updates).
//
// Internal to metadata/. Every failure is kBadRequest with a message that names the field and
// the object being parsed ("Cannot parse update add-schema: missing field 'schema'"); the
// input's values are never echoed. Thread-safety: stateless helpers over caller-owned JSON.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "common/macros.h"
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
  // The field converted by `convert` (nullopt: the value has the wrong type, "must be
  // <expected>"): required, optional (absent or null → nullopt), or an array of such values.
  template <typename T, typename Convert>
  Result<T> Converted(std::string_view key, Convert convert, std::string_view expected) const;
  template <typename T, typename Convert>
  Result<std::optional<T>> OptionalConverted(std::string_view key, Convert convert,
                                             std::string_view expected) const;
  template <typename T, typename Convert>
  Result<std::vector<T>> ConvertedArray(std::string_view key, Convert convert,
                                        std::string_view expected) const;

  const boost::json::object& object_;
  std::string what_;
};

// One entry of a parser table: objects whose tag field ("type", "action") equals `tag`.
template <typename T>
struct TaggedParser {
  std::string_view tag;
  Result<T> (*parse)(const FieldReader&);
};

// The spec name of a requirement (its kType) or update (its kAction) struct.
template <typename U>
constexpr std::string_view TagOf() {
  if constexpr (requires { U::kType; }) {
    return U::kType;
  } else {
    return U::kAction;
  }
}

// The spec name of the alternative `tagged` (a variant of such structs) holds.
template <typename Variant>
std::string_view HeldTag(const Variant& tagged) {
  return std::visit([](const auto& u) { return TagOf<std::decay_t<decltype(u)>>(); }, tagged);
}

// The JSON value at `key` read by a serde.h-style parser (`Result<X> FromJson(const value&)`),
// for use as a FieldParser reader.
template <auto FromJson>
auto Nested(const FieldReader& r, std::string_view key)
    -> decltype(FromJson(std::declval<const boost::json::value&>())) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* json, r.Required(key));
  return FromJson(*json);
}

// The parser table entry of struct U (an alternative of T) whose one member is the field `Key`
// as read by `Read`: a FieldReader getter or a function (const FieldReader&, key) such as
// Nested. Most requirements and updates are such a struct.
template <typename T, typename U, auto Read, const std::string_view& Key>
constexpr TaggedParser<T> FieldParser() {
  return {TagOf<U>(), [](const FieldReader& r) -> Result<T> {
            FIRN_ASSIGN_OR_RETURN(auto value, std::invoke(Read, r, Key));
            return U{std::move(value)};
          }};
}

// A JSON object whose `tag_key` field picks its parser from `parsers`. `what` ("requirement")
// names it in errors: "Cannot parse <what>: not a JSON object", "... unknown <tag_key> '<tag>'";
// the parser reads it as "<what> <tag>".
template <typename T>
Result<T> ParseTagged(const boost::json::value& json, std::string_view what,
                      std::string_view tag_key, std::span<const TaggedParser<T>> parsers) {
  if (!json.is_object()) {
    return Fail(ErrorKind::kBadRequest,
                "Cannot parse " + std::string(what) + ": not a JSON object");
  }
  const boost::json::object& object = json.get_object();
  FIRN_ASSIGN_OR_RETURN(std::string tag, FieldReader(object, std::string(what)).String(tag_key));
  for (const TaggedParser<T>& entry : parsers) {
    if (entry.tag == tag) return entry.parse(FieldReader(object, std::string(what) + " " + tag));
  }
  return Fail(ErrorKind::kBadRequest, "Cannot parse " + std::string(what) + ": unknown " +
                                          std::string(tag_key) + " '" + Truncate(tag) + "'");
}

// A JSON array of items read by `parse_one`; `what` ("updates") names it in the error
// "Cannot parse <what>: not a JSON array". The first item that fails is the answer.
template <typename T>
Result<std::vector<T>> ParseArray(const boost::json::value& json, std::string_view what,
                                  Result<T> (*parse_one)(const boost::json::value&)) {
  if (!json.is_array()) {
    return Fail(ErrorKind::kBadRequest,
                "Cannot parse " + std::string(what) + ": not a JSON array");
  }
  std::vector<T> out;
  out.reserve(json.get_array().size());
  for (const boost::json::value& item : json.get_array()) {
    FIRN_ASSIGN_OR_RETURN(T parsed, parse_one(item));
    out.push_back(std::move(parsed));
  }
  return out;
}

}  // namespace firn::metadata::json_read
