#include "metadata/serde_util.h"

#include <limits>
#include <utility>

#include "common/macros.h"

namespace firn::metadata {

namespace json = boost::json;

std::optional<int64_t> AsInt64(const json::value& v) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64() && v.get_uint64() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return static_cast<int64_t>(v.get_uint64());
  }
  return std::nullopt;
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

Result<std::optional<int64_t>> JsonReader::OptLong(std::string_view key) const {
  const json::value* v = Find(key);
  if (v == nullptr) return std::optional<int64_t>();
  std::optional<int64_t> n = AsInt64(*v);
  if (!n) return WrongType(key, "a long");
  return n;
}

Result<int64_t> JsonReader::Long(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(std::optional<int64_t> n, OptLong(key));
  if (!n) return Missing(key);
  return *n;
}

Result<std::optional<int>> JsonReader::OptInt(std::string_view key) const {
  const json::value* v = Find(key);
  if (v == nullptr) return std::optional<int>();
  std::optional<int64_t> n = AsInt64(*v);
  if (!n || *n < std::numeric_limits<int>::min() || *n > std::numeric_limits<int>::max()) {
    return WrongType(key, "an int");
  }
  return std::optional<int>(static_cast<int>(*n));
}

Result<int> JsonReader::Int(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(std::optional<int> n, OptInt(key));
  if (!n) return Missing(key);
  return *n;
}

Result<bool> JsonReader::Bool(std::string_view key) const {
  const json::value* v = Find(key);
  if (v == nullptr) return Missing(key);
  if (!v->is_bool()) return WrongType(key, "a boolean");
  return v->get_bool();
}

Result<std::optional<std::string>> JsonReader::OptString(std::string_view key) const {
  const json::value* v = Find(key);
  if (v == nullptr) return std::optional<std::string>();
  if (!v->is_string()) return WrongType(key, "a string");
  return std::optional<std::string>(std::string(v->get_string()));
}

Result<std::string> JsonReader::String(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(std::optional<std::string> s, OptString(key));
  if (!s) return Missing(key);
  return std::move(*s);
}

Result<const json::array*> JsonReader::OptArray(std::string_view key) const {
  const json::value* v = Find(key);
  if (v == nullptr) return static_cast<const json::array*>(nullptr);
  if (!v->is_array()) return WrongType(key, "a list");
  return &v->get_array();
}

Result<const json::array*> JsonReader::Array(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const json::array* a, OptArray(key));
  if (a == nullptr) return Missing(key);
  return a;
}

Result<const json::object*> JsonReader::OptObject(std::string_view key) const {
  const json::value* v = Find(key);
  if (v == nullptr) return static_cast<const json::object*>(nullptr);
  if (!v->is_object()) return WrongType(key, "an object");
  return &v->get_object();
}

Result<const json::object*> JsonReader::Object(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const json::object* o, OptObject(key));
  if (o == nullptr) return Missing(key);
  return o;
}

Result<std::vector<int>> JsonReader::IntList(std::string_view key) const {
  FIRN_ASSIGN_OR_RETURN(const json::array* a, OptArray(key));
  std::vector<int> out;
  if (a == nullptr) return out;
  out.reserve(a->size());
  for (const json::value& item : *a) {
    std::optional<int64_t> n = AsInt64(item);
    if (!n || *n < std::numeric_limits<int>::min() || *n > std::numeric_limits<int>::max()) {
      return WrongType(key, "a list of ints");
    }
    out.push_back(static_cast<int>(*n));
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

json::array IntArray(const std::vector<int>& ints) {
  json::array out;
  out.reserve(ints.size());
  for (int i : ints) out.emplace_back(i);
  return out;
}

json::object StringObject(const std::map<std::string, std::string>& map) {
  json::object out;
  out.reserve(map.size());
  for (const auto& [k, v] : map) out.emplace(k, v);
  return out;
}

}  // namespace firn::metadata
