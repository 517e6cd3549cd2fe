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
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/macros.h"
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
  // A string compared case-insensitively: its lowercase form, which must be `a` or `b`
  // ("field '<key>' must be \"<a>\" or \"<b>\"").
  Result<std::string> LowerEither(std::string_view key, std::string_view a,
                                  std::string_view b) const;
  // Optional list of ints (empty when absent).
  Result<std::vector<int>> IntList(std::string_view key) const;
  // Optional string→string map (empty when absent); every value must be a string.
  Result<std::map<std::string, std::string>> StringMap(std::string_view key) const;

  // The getter above for a value of type V (int, int64_t, std::string or their optionals, a
  // required array).
  template <typename V>
  Result<V> Get(std::string_view key) const {
    if constexpr (std::is_same_v<V, int>) {
      return Int(key);
    } else if constexpr (std::is_same_v<V, std::optional<int>>) {
      return OptInt(key);
    } else if constexpr (std::is_same_v<V, int64_t>) {
      return Long(key);
    } else if constexpr (std::is_same_v<V, std::optional<int64_t>>) {
      return OptLong(key);
    } else if constexpr (std::is_same_v<V, std::string>) {
      return String(key);
    } else if constexpr (std::is_same_v<V, const boost::json::array*>) {
      return Array(key);
    } else {
      static_assert(std::is_same_v<V, std::optional<std::string>>, "no getter for this type");
      return OptString(key);
    }
  }

  std::unexpected<Error> Missing(std::string_view key) const;
  std::unexpected<Error> WrongType(std::string_view key, std::string_view expected) const;
  std::unexpected<Error> Invalid(std::string_view key, std::string_view why) const;

 private:
  JsonReader(const boost::json::object& object, std::string_view context)
      : object_(&object), context_(context) {}
  const boost::json::value* Find(std::string_view key) const;
  // The field converted by `convert` (nullopt: the value has the wrong type, "must be
  // <expected>"); absent is nullopt, or for Present "missing".
  template <typename T, typename Convert>
  Result<std::optional<T>> Optional(std::string_view key, Convert convert,
                                    std::string_view expected) const;
  template <typename T, typename Convert>
  Result<T> Present(std::string_view key, Convert convert, std::string_view expected) const;

  const boost::json::object* object_;
  std::string context_;
};

// Exact integer value of `v` if it is an integral JSON number (int64/uint64) that fits; both
// JSON readers of metadata/ (this one and json_read::FieldReader) convert through these and
// the others below, which answer nullopt for a value of another JSON type.
std::optional<int64_t> AsInt64(const boost::json::value& v);
std::optional<int> AsInt(const boost::json::value& v);
std::optional<bool> AsBool(const boost::json::value& v);
std::optional<std::string> AsString(const boost::json::value& v);
std::optional<const boost::json::array*> AsArray(const boost::json::value& v);
std::optional<const boost::json::object*> AsObject(const boost::json::value& v);

// Every element of the array at `key`, each read by `parse` (Result<T>(const value&)); the first
// failure is the answer. RequiredList fails "missing" when the array is absent, OptionalList
// returns an empty list.
template <typename T, typename Parse>
Result<std::vector<T>> RequiredList(const JsonReader& r, std::string_view key, Parse parse);
template <typename T, typename Parse>
Result<std::vector<T>> OptionalList(const JsonReader& r, std::string_view key, Parse parse);

// `text` parsed as one JSON document, nested as deep as schemas go; kBadRequest
// "Cannot parse <what>: invalid JSON" otherwise.
Result<boost::json::value> ParseJsonDocument(std::string_view text, std::string_view what);

// Writer helpers. JsonArray: every item written by `write` (a function or a member pointer
// giving its JSON, e.g. SchemaToJson, &StatisticsFile::json) or, without one, as it is (ints,
// strings). StringObject: a JSON object from a string map.
template <typename T, typename Write>
boost::json::array JsonArray(const std::vector<T>& items, Write write) {
  boost::json::array out;
  out.reserve(items.size());
  for (const T& item : items) out.emplace_back(std::invoke(write, item));
  return out;
}
template <typename T>
boost::json::array JsonArray(const std::vector<T>& items) {
  return JsonArray(items, [](const T& item) -> const T& { return item; });
}
boost::json::object StringObject(const std::map<std::string, std::string>& map);

// A plain record's JSON as one list of fields, so its reader and writer cannot drift apart:
// each Field is a member of T stored at `Key`, read by the JsonReader getter for the member's
// type (int, int64_t, std::string or their optionals) unless `Get` (const JsonReader&, key)
// reads it, and written in the list's order, an optional only when set. Read fails on the
// first field that does.
template <auto Member, const std::string_view& Key, auto Get = nullptr>
struct Field {
  template <typename T>
  static Status Read(const JsonReader& r, T& out) {
    using Value = std::remove_cvref_t<decltype(out.*Member)>;
    if constexpr (std::is_null_pointer_v<decltype(Get)>) {
      FIRN_ASSIGN_OR_RETURN(out.*Member, r.template Get<Value>(Key));
    } else {
      FIRN_ASSIGN_OR_RETURN(out.*Member, Get(r, Key));
    }
    return Ok();
  }
  template <typename T>
  static void Write(const T& in, boost::json::object& out) {
    const auto& value = in.*Member;
    if constexpr (requires { value.has_value(); }) {
      if (value) out[Key] = *value;
    } else {
      out[Key] = value;
    }
  }
};

// For records kept as their JSON object (statistics files, encryption keys): a required field
// of type V that is only checked, and the whole object stored in `Member`. Read-only.
template <typename V, const std::string_view& Key>
struct Checked {
  template <typename T>
  static Status Read(const JsonReader& r, T&) {
    FIRN_RETURN_IF_ERROR(r.template Get<V>(Key));
    return Ok();
  }
};

template <auto Member>
struct WholeObject {
  template <typename T>
  static Status Read(const JsonReader& r, T& out) {
    out.*Member = r.object();
    return Ok();
  }
};

template <typename T, typename... Fields>
struct JsonRecord {
  static Result<T> Read(const boost::json::value& json, std::string_view context) {
    FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(json, context));
    T out;
    Status status = Ok();
    // Stops at the first field that fails.
    (void)((status = Fields::Read(r, out)) && ...);
    if (!status) return std::unexpected(std::move(status).error());
    return out;
  }
  static boost::json::object Write(const T& in) {
    boost::json::object out;
    (Fields::Write(in, out), ...);
    return out;
  }
};

namespace serde_util_internal {
template <typename T, typename Parse>
Result<std::vector<T>> ParseEach(const boost::json::array* items, Parse parse) {
  std::vector<T> out;
  if (items == nullptr) return out;
  out.reserve(items->size());
  for (const boost::json::value& item : *items) {
    FIRN_ASSIGN_OR_RETURN(T parsed, parse(item));
    out.push_back(std::move(parsed));
  }
  return out;
}
}  // namespace serde_util_internal

template <typename T, typename Parse>
Result<std::vector<T>> RequiredList(const JsonReader& r, std::string_view key, Parse parse) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::array* items, r.Array(key));
  return serde_util_internal::ParseEach<T>(items, parse);
}

template <typename T, typename Parse>
Result<std::vector<T>> OptionalList(const JsonReader& r, std::string_view key, Parse parse) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::array* items, r.OptArray(key));
  return serde_util_internal::ParseEach<T>(items, parse);
}

}  // namespace firn::metadata
