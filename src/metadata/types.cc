#include "metadata/types.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <utility>

#include "common/macros.h"
#include "common/strings.h"
#include "metadata/json_keys.h"
#include "metadata/serde_util.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {

struct SimpleType {
  std::string_view name;
  int min_format_version;
};
constexpr std::array<SimpleType, 16> kSimpleTypes = {{
    {"boolean", 1}, {"int", 1}, {"long", 1}, {"float", 1}, {"double", 1}, {"date", 1},
    {"time", 1}, {"timestamp", 1}, {"timestamptz", 1}, {"string", 1}, {"uuid", 1},
    {"binary", 1}, {"variant", 3}, {"unknown", 3}, {"timestamp_ns", 3}, {"timestamptz_ns", 3},
}};
constexpr std::array<std::string_view, 5> kEdgeAlgorithms = {"spherical", "vincenty", "thomas",
                                                             "andoyer", "karney"};

std::optional<int> ParseNumber(std::string_view s) {
  s = Trim(s);
  int n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return n;
}

// If `text` is "<prefix><open>args<close>", returns the args.
std::optional<std::string_view> Args(std::string_view text, std::string_view prefix, char open,
                                     char close) {
  if (text.size() < prefix.size() + 2 || !StartsWithIgnoreCase(text, prefix)) {
    return std::nullopt;
  }
  std::string_view rest = Trim(text.substr(prefix.size()));
  if (rest.size() < 2 || rest.front() != open || rest.back() != close) return std::nullopt;
  return rest.substr(1, rest.size() - 2);
}

std::unexpected<Error> BadType(std::string_view why) {
  return Fail(ErrorKind::kBadRequest, "Cannot parse type: " + std::string(why));
}

Result<json::object> NormalizeField(const json::value& value);

Result<json::value> NormalizeNested(const json::object& object) {
  JsonReader r = JsonReader::Of(object, "type");
  FIRN_ASSIGN_OR_RETURN(std::string type, r.String(kType));
  json::object out;
  if (type == "struct") {
    FIRN_ASSIGN_OR_RETURN(const json::array* fields, r.Array(kFields));
    FIRN_ASSIGN_OR_RETURN(json::array normalized, NormalizeStructFields(*fields));
    out[kType] = "struct";
    out[kFields] = std::move(normalized);
  } else if (type == "list") {
    FIRN_ASSIGN_OR_RETURN(int element_id, r.Int(kElementId));
    FIRN_ASSIGN_OR_RETURN(bool element_required, r.Bool(kElementRequired));
    if (!r.Has(kElement)) return r.Missing(kElement);
    FIRN_ASSIGN_OR_RETURN(json::value element, NormalizeType(object.at(kElement)));
    out[kType] = "list";
    out[kElementId] = element_id;
    out[kElement] = std::move(element);
    out[kElementRequired] = element_required;
  } else if (type == "map") {
    FIRN_ASSIGN_OR_RETURN(int key_id, r.Int(kKeyId));
    FIRN_ASSIGN_OR_RETURN(int value_id, r.Int(kValueId));
    FIRN_ASSIGN_OR_RETURN(bool value_required, r.Bool(kValueRequired));
    if (!r.Has(kKey)) return r.Missing(kKey);
    if (!r.Has(kValue)) return r.Missing(kValue);
    FIRN_ASSIGN_OR_RETURN(json::value key, NormalizeType(object.at(kKey)));
    FIRN_ASSIGN_OR_RETURN(json::value value, NormalizeType(object.at(kValue)));
    out[kType] = "map";
    out[kKeyId] = key_id;
    out[kKey] = std::move(key);
    out[kValueId] = value_id;
    out[kValue] = std::move(value);
    out[kValueRequired] = value_required;
  } else {
    return BadType("unknown nested type (expected struct, list or map)");
  }
  return json::value(std::move(out));
}

Result<json::object> NormalizeField(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "struct field"));
  FIRN_ASSIGN_OR_RETURN(int id, r.Int(kId));
  FIRN_ASSIGN_OR_RETURN(std::string name, r.String(kName));
  FIRN_ASSIGN_OR_RETURN(bool required, r.Bool(kRequired));
  FIRN_ASSIGN_OR_RETURN(std::optional<std::string> doc, r.OptString(kDoc));
  if (!r.Has(kType)) return r.Missing(kType);
  FIRN_ASSIGN_OR_RETURN(json::value type, NormalizeType(r.object().at(kType)));
  json::object out;
  out[kId] = id;
  out[kName] = name;
  out[kRequired] = required;
  out[kType] = std::move(type);
  if (doc) out[kDoc] = *doc;
  // Defaults are kept verbatim (Appendix D single-value JSON); null means "no default".
  if (r.Has(kInitialDefault)) out[kInitialDefault] = r.object().at(kInitialDefault);
  if (r.Has(kWriteDefault)) out[kWriteDefault] = r.object().at(kWriteDefault);
  return out;
}

void Walk(const json::value& type, const std::string& path,
          const std::function<void(const FieldNode&)>& visit);

void WalkFields(const json::array& fields, const std::string& prefix,
                const std::function<void(const FieldNode&)>& visit) {
  for (const json::value& f : fields) {
    const json::object& field = f.get_object();
    std::string path = prefix.empty() ? std::string(field.at(kName).get_string())
                                      : prefix + "." + std::string(field.at(kName).get_string());
    const json::value& type = field.at(kType);
    visit(FieldNode{static_cast<int>(field.at(kId).to_number<int64_t>()), path,
                    field.at(kRequired).get_bool(), &type, &field});
    Walk(type, path, visit);
  }
}

void Walk(const json::value& type, const std::string& path,
          const std::function<void(const FieldNode&)>& visit) {
  if (!type.is_object()) return;
  const json::object& o = type.get_object();
  std::string_view kind = o.at(kType).get_string();
  if (kind == "struct") {
    WalkFields(o.at(kFields).get_array(), path, visit);
  } else if (kind == "list") {
    std::string child = path + ".element";
    const json::value& element = o.at(kElement);
    visit(FieldNode{static_cast<int>(o.at(kElementId).to_number<int64_t>()), child,
                    o.at(kElementRequired).get_bool(), &element, nullptr});
    Walk(element, child, visit);
  } else if (kind == "map") {
    std::string key_path = path + ".key";
    std::string value_path = path + ".value";
    const json::value& key = o.at(kKey);
    const json::value& value = o.at(kValue);
    visit(FieldNode{static_cast<int>(o.at(kKeyId).to_number<int64_t>()), key_path, true, &key,
                    nullptr});
    Walk(key, key_path, visit);
    visit(FieldNode{static_cast<int>(o.at(kValueId).to_number<int64_t>()), value_path,
                    o.at(kValueRequired).get_bool(), &value, nullptr});
    Walk(value, value_path, visit);
  }
}

}  // namespace

Result<PrimitiveType> ParsePrimitiveType(std::string_view raw) {
  std::string_view text = Trim(raw);
  std::string lower = ToLower(text);
  for (const SimpleType& t : kSimpleTypes) {
    if (lower == t.name) return PrimitiveType{std::string(t.name), std::string(t.name),
                                              t.min_format_version};
  }
  if (auto args = Args(text, "fixed", '[', ']')) {
    std::optional<int> length = ParseNumber(*args);
    if (!length || *length < 1) return BadType("invalid fixed length");
    return PrimitiveType{"fixed[" + std::to_string(*length) + "]", "fixed", 1};
  }
  if (auto args = Args(text, "decimal", '(', ')')) {
    size_t comma = args->find(',');
    std::optional<int> precision = ParseNumber(args->substr(0, comma));
    std::optional<int> scale = comma == std::string_view::npos
                                   ? std::nullopt
                                   : ParseNumber(args->substr(comma + 1));
    if (!precision || !scale) return BadType("invalid decimal parameters");
    if (*precision < 1 || *precision > 38) return BadType("decimal precision must be 1..38");
    // Java writes "decimal(P, S)".
    return PrimitiveType{
        "decimal(" + std::to_string(*precision) + ", " + std::to_string(*scale) + ")",
        "decimal", 1, *precision, *scale};
  }
  if (lower == "geometry") return PrimitiveType{"geometry", "geometry", 3};
  if (auto args = Args(text, "geometry", '(', ')')) {
    std::string_view crs = Trim(*args);
    if (crs.empty() || crs.find(',') != std::string_view::npos) {
      return BadType("invalid geometry CRS");
    }
    return PrimitiveType{"geometry(" + std::string(crs) + ")", "geometry", 3};
  }
  if (lower == "geography") return PrimitiveType{"geography", "geography", 3};
  if (auto args = Args(text, "geography", '(', ')')) {
    size_t comma = args->find(',');
    std::string_view crs = Trim(args->substr(0, comma));
    if (crs.empty()) return BadType("invalid geography CRS");
    if (comma == std::string_view::npos) {
      return PrimitiveType{"geography(" + std::string(crs) + ")", "geography", 3};
    }
    std::string algorithm = ToLower(Trim(args->substr(comma + 1)));
    if (std::find(kEdgeAlgorithms.begin(), kEdgeAlgorithms.end(), algorithm) ==
        kEdgeAlgorithms.end()) {
      return BadType("invalid geography edge-interpolation algorithm");
    }
    return PrimitiveType{"geography(" + std::string(crs) + ", " + algorithm + ")", "geography",
                         3};
  }
  return BadType("unknown primitive type");
}

Result<json::value> NormalizeType(const json::value& type) {
  if (type.is_string()) {
    FIRN_ASSIGN_OR_RETURN(PrimitiveType p, ParsePrimitiveType(type.get_string()));
    return json::value(p.name);
  }
  if (type.is_object()) return NormalizeNested(type.get_object());
  return BadType("a type must be a string or an object");
}

Result<json::array> NormalizeStructFields(const json::value& fields) {
  if (!fields.is_array()) return BadType("struct 'fields' must be a list");
  json::array out;
  out.reserve(fields.get_array().size());
  for (const json::value& f : fields.get_array()) {
    FIRN_ASSIGN_OR_RETURN(json::object field, NormalizeField(f));
    out.emplace_back(std::move(field));
  }
  return out;
}

void ForEachFieldNode(const json::array& struct_fields,
                      const std::function<void(const FieldNode&)>& visit) {
  WalkFields(struct_fields, "", visit);
}

}  // namespace firn::metadata
