#include "rest/json_fields.h"

#include <boost/json/parse.hpp>

#include "catalog/input_rules.h"
#include "common/macros.h"
#include "metadata/serde.h"

namespace firn::rest {
namespace {

std::unexpected<Error> FieldError(std::string_view key, std::string_view expected) {
  return Fail(ErrorKind::kBadRequest, "Invalid request body: field '" + std::string(key) +
                                          "' must be " + std::string(expected));
}

}  // namespace

Result<boost::json::value> ParseJsonBody(std::string_view body) {
  boost::system::error_code ec;
  boost::json::parse_options opts;
  opts.max_depth = 64;
  boost::json::value v = boost::json::parse(body, ec, {}, opts);
  if (ec) {
    return Fail(ErrorKind::kBadRequest, "Malformed JSON request body: " + ec.message());
  }
  if (!metadata::AllNumbersFinite(v)) {
    return Fail(ErrorKind::kBadRequest, "Malformed JSON request body: number out of range");
  }
  return v;
}

Result<const boost::json::object*> AsObject(const boost::json::value& v, std::string_view what) {
  if (!v.is_object()) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid request body: " + std::string(what) + " must be a JSON object");
  }
  return &v.get_object();
}

Result<boost::json::object> RequestObject(std::string_view body) {
  FIRN_ASSIGN_OR_RETURN(boost::json::value json, ParseJsonBody(body));
  FIRN_RETURN_IF_ERROR(AsObject(json, "request"));
  return std::move(json.get_object());
}

Result<std::string> RequiredString(const boost::json::object& o, std::string_view key) {
  const boost::json::value* v = o.if_contains(key);
  if (!v || !v->is_string()) return FieldError(key, "a string (required)");
  return std::string(v->get_string());
}

Result<std::optional<std::string>> OptionalString(const boost::json::object& o,
                                                  std::string_view key) {
  const boost::json::value* v = o.if_contains(key);
  if (!v || v->is_null()) return std::optional<std::string>();
  if (!v->is_string()) return FieldError(key, "a string");
  return std::optional<std::string>(std::string(v->get_string()));
}

Result<bool> OptionalBool(const boost::json::object& o, std::string_view key, bool fallback) {
  const boost::json::value* v = o.if_contains(key);
  if (!v || v->is_null()) return fallback;
  if (!v->is_bool()) return FieldError(key, "a boolean");
  return v->get_bool();
}

Result<store::Properties> StringMap(const boost::json::object& o, std::string_view key) {
  store::Properties out;
  const boost::json::value* v = o.if_contains(key);
  if (!v || v->is_null()) return out;
  if (!v->is_object()) return FieldError(key, "an object of string values");
  for (const auto& [k, val] : v->get_object()) {
    if (!val.is_string()) return FieldError(key, "an object of string values");
    out.emplace(std::string(k), std::string(val.get_string()));
  }
  return out;
}

Result<const boost::json::value*> RequiredObject(const boost::json::object& o,
                                                 std::string_view key) {
  const boost::json::value* v = o.if_contains(key);
  if (!v || !v->is_object()) return FieldError(key, "an object (required)");
  return v;
}

Result<const boost::json::value*> OptionalArray(const boost::json::object& o,
                                                std::string_view key) {
  const boost::json::value* v = o.if_contains(key);
  if (!v || v->is_null()) return nullptr;
  if (!v->is_array()) return FieldError(key, "an array");
  return v;
}

Result<const boost::json::value*> RequiredArray(const boost::json::object& o,
                                                std::string_view key) {
  const boost::json::value* v = o.if_contains(key);
  if (!v || !v->is_array()) return FieldError(key, "an array (required)");
  return v;
}

Result<std::optional<std::vector<std::string>>> OptionalStringArray(const boost::json::object& o,
                                                                    std::string_view key) {
  const boost::json::value* v = o.if_contains(key);
  if (!v || v->is_null()) return std::optional<std::vector<std::string>>();
  if (!v->is_array()) return FieldError(key, "an array of strings");
  std::vector<std::string> out;
  for (const auto& item : v->get_array()) {
    if (!item.is_string()) return FieldError(key, "an array of strings");
    out.emplace_back(item.get_string());
  }
  return std::optional<std::vector<std::string>>(std::move(out));
}

Result<store::Namespace> NamespaceField(const boost::json::object& o, std::string_view key) {
  FIRN_ASSIGN_OR_RETURN(auto levels, OptionalStringArray(o, key));
  if (!levels || levels->empty()) return FieldError(key, "a non-empty array of strings");
  for (const std::string& level : *levels) {
    if (level.empty()) return FieldError(key, "an array of non-empty strings");
  }
  FIRN_RETURN_IF_ERROR(catalog::ValidateNamespace(*levels));
  return std::move(*levels);
}

Result<store::Identifier> IdentifierField(const boost::json::object& o, std::string_view key) {
  const boost::json::value* v = o.if_contains(key);
  if (!v || !v->is_object()) return FieldError(key, "a table identifier object");
  const auto& id = v->get_object();
  store::Identifier out;
  // An identifier in the root namespace has an empty namespace array.
  const boost::json::value* ns = id.if_contains("namespace");
  if (!ns || !ns->is_array()) return FieldError(std::string(key) + ".namespace", "an array");
  for (const auto& level : ns->get_array()) {
    if (!level.is_string()) return FieldError(std::string(key) + ".namespace", "an array of strings");
    out.ns.emplace_back(level.get_string());
  }
  const boost::json::value* name = id.if_contains("name");
  if (!name || !name->is_string() || name->get_string().empty()) {
    return FieldError(std::string(key) + ".name", "a non-empty string");
  }
  out.name = std::string(name->get_string());
  FIRN_RETURN_IF_ERROR(catalog::ValidateIdentifier(std::string(key) + " name", out));
  return out;
}

boost::json::array NamespaceToJson(const store::Namespace& ns) {
  boost::json::array a;
  for (const auto& level : ns) a.emplace_back(level);
  return a;
}

boost::json::object IdentifierToJson(const store::Identifier& id) {
  boost::json::object o;
  o["namespace"] = NamespaceToJson(id.ns);
  o["name"] = id.name;
  return o;
}

}  // namespace firn::rest
