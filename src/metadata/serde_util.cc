#include "metadata/serde_util.h"

#include <boost/json/parse.hpp>

#include <cmath>
#include <limits>
#include <utility>

#include "common/macros.h"
#include "common/strings.h"
#include "metadata/serde.h"

namespace firn::metadata {

namespace json = boost::json;

std::optional<int64_t> AsInt64(const json::value& v) {
  if (v.is_int64()) return v.get_int64();
  constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (v.is_uint64() && v.get_uint64() <= kMax) return static_cast<int64_t>(v.get_uint64());
  return std::nullopt;
}

std::optional<int> AsInt(const json::value& v) {
  std::optional<int64_t> n = AsInt64(v);
  if (!n || *n < std::numeric_limits<int>::min() || *n > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(*n);
}

Result<JsonReader> JsonReader::Of(const json::value& value, std::string_view context) {
  if (!value.is_object()) {
    return Fail(ErrorKind::kBadRequest,
                "Cannot parse " + std::string(context) + ": not a JSON object");
  }
  return JsonReader(value.get_object(), context);
}

const json::value* JsonReader::Find(std::string_view key) const {
  const json::value* v = object_->if_contains(key);
  if (v == nullptr || v->is_null()) return nullptr;
  return v;
}

bool JsonReader::Has(std::string_view key) const { return Find(key) != nullptr; }

std::unexpected<Error> JsonReader::Missing(std::string_view key) const {
  return Fail(ErrorKind::kBadRequest,
              "Cannot parse " + context_ + ": missing field '" + std::string(key) + "'");
}

std::unexpected<Error> JsonReader::WrongType(std::string_view key,
                                             std::string_view expected) const {
  return Fail(ErrorKind::kBadRequest, "Cannot parse " + context_ + ": field '" +
                                          std::string(key) + "' must be " + std::string(expected));
}

std::unexpected<Error> JsonReader::Invalid(std::string_view key, std::string_view why) const {
  return Fail(ErrorKind::kBadRequest, "Cannot parse " + context_ + ": field '" +
                                          std::string(key) + "' " + std::string(why));
}

std::optional<bool> AsBool(const json::value& v) {
  if (!v.is_bool()) return std::nullopt;
  return v.get_bool();
}

std::optional<std::string> AsString(const json::value& v) {
  if (!v.is_string()) return std::nullopt;
  return std::string(v.get_string());
}

std::optional<const json::array*> AsArray(const json::value& v) {
  if (!v.is_array()) return std::nullopt;
  return &v.get_array();
}

std::optional<const json::object*> AsObject(const json::value& v) {
  if (!v.is_object()) return std::nullopt;
  return &v.get_object();
}

namespace {
// The optional array and object getters answer nullptr for an absent field.
template <typename Pointer>
Result<Pointer> OrNull(Result<std::optional<Pointer>> read) {
  if (!read) return std::unexpected(std::move(read).error());
  return read->value_or(nullptr);
}
}  // namespace

// Every getter is one of two forms over a converter that answers nullopt for a value of the
// wrong type, so the messages stay uniform.
template <typename T, typename Convert>
Result<std::optional<T>> JsonReader::Optional(std::string_view key, Convert convert,
                                              std::string_view expected) const {
  const json::value* v = Find(key);
  if (v == nullptr) return std::optional<T>();
  std::optional<T> out = convert(*v);
  if (!out) return WrongType(key, expected);
  return out;
}

template <typename T, typename Convert>
Result<T> JsonReader::Present(std::string_view key, Convert convert,
                              std::string_view expected) const {
  FIRN_ASSIGN_OR_RETURN(std::optional<T> out, Optional<T>(key, convert, expected));
  if (!out) return Missing(key);
  return std::move(*out);
}

Result<std::optional<int64_t>> JsonReader::OptLong(std::string_view key) const {
  return Optional<int64_t>(key, AsInt64, "a long");
}

Result<int64_t> JsonReader::Long(std::string_view key) const {
  return Present<int64_t>(key, AsInt64, "a long");
}

Result<std::optional<int>> JsonReader::OptInt(std::string_view key) const {
  return Optional<int>(key, AsInt, "an int");
}

Result<int> JsonReader::Int(std::string_view key) const {
  return Present<int>(key, AsInt, "an int");
}

Result<bool> JsonReader::Bool(std::string_view key) const {
  return Present<bool>(key, AsBool, "a boolean");
}

Result<std::optional<std::string>> JsonReader::OptString(std::string_view key) const {
  return Optional<std::string>(key, AsString, "a string");
}

Result<std::string> JsonReader::String(std::string_view key) const {
  return Present<std::string>(key, AsString, "a string");
}

Result<const json::array*> JsonReader::OptArray(std::string_view key) const {
  return OrNull(Optional<const json::array*>(key, AsArray, "a list"));
}

Result<const json::array*> JsonReader::Array(std::string_view key) const {
  return Present<const json::array*>(key, AsArray, "a list");
}

Result<const json::object*> JsonReader::OptObject(std::string_view key) const {
  return OrNull(Optional<const json::object*>(key, AsObject, "an object"));
}

Result<std::string> JsonReader::LowerEither(std::string_view key, std::string_view a,
                                            std::string_view b) const {
  FIRN_ASSIGN_OR_RETURN(std::string value, String(key));
  value = ToLower(value);
  if (value != a && value != b) {
    return Invalid(key, "must be \"" + std::string(a) + "\" or \"" + std::string(b) + "\"");
  }
  return value;
}

Result<const json::object*> JsonReader::Object(std::string_view key) const {
  return Present<const json::object*>(key, AsObject, "an object");
}

Result<std::vector<int>> JsonReader::IntList(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const json::array* a, OptArray(key));
  std::vector<int> out;
  if (a == nullptr) return out;
  out.reserve(a->size());
  for (const json::value& item : *a) {
    std::optional<int> n = AsInt(item);
    if (!n) return WrongType(key, "a list of ints");
    out.push_back(*n);
  }
  return out;
}

Result<std::map<std::string, std::string>> JsonReader::StringMap(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const json::object* o, OptObject(key));
  std::map<std::string, std::string> out;
  if (o == nullptr) return out;
  for (const auto& [k, v] : *o) {
    if (!v.is_string()) return WrongType(key, "a map of strings");
    out.emplace(std::string(k), std::string(v.get_string()));
  }
  return out;
}

Result<json::value> ParseJsonDocument(std::string_view text, std::string_view what) {
  // Boost's default depth (32) is too shallow for deeply nested schemas.
  constexpr size_t kMaxJsonDepth = 512;
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = kMaxJsonDepth;
  json::value value = json::parse(text, ec, {}, options);
  if (ec) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse " + std::string(what) + ": invalid JSON");
  }
  if (!AllNumbersFinite(value)) {
    return Fail(ErrorKind::kBadRequest,
                "Cannot parse " + std::string(what) + ": number out of range");
  }
  return value;
}

bool AllNumbersFinite(const json::value& root) {
  std::vector<const json::value*> pending{&root};
  while (!pending.empty()) {
    const json::value* v = pending.back();
    pending.pop_back();
    switch (v->kind()) {
      case json::kind::double_:
        if (!std::isfinite(v->get_double())) return false;
        break;
      case json::kind::array:
        for (const json::value& item : v->get_array()) pending.push_back(&item);
        break;
      case json::kind::object:
        for (const auto& member : v->get_object()) pending.push_back(&member.value());
        break;
      default:
        break;
    }
  }
  return true;
}

json::object StringObject(const std::map<std::string, std::string>& map) {
  json::object out;
  out.reserve(map.size());
  for (const auto& [k, v] : map) out.emplace(k, v);
  return out;
}

}  // namespace firn::metadata
