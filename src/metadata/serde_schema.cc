// Schema JSON (table spec, Appendix C "Schemas") and schema checks by format version.
#include <algorithm>
#include <set>
#include <utility>

#include "common/macros.h"
#include "metadata/json_keys.h"
#include "metadata/serde.h"
#include "metadata/serde_util.h"
#include "metadata/types.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {
constexpr int kDefaultValuesMinFormatVersion = 3;

bool HasNonNull(const json::object& field, std::string_view key) {
  const json::value* v = field.if_contains(key);
  return v != nullptr && !v->is_null();
}
}  // namespace

Result<Schema> SchemaFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "schema"));
  FIRN_ASSIGN_OR_RETURN(std::string type, r.String(kType));
  if (type != "struct") return r.Invalid(kType, "must be \"struct\"");
  Schema schema;
  // schema-id is optional in v1 and read-only (absent) in REST requests.
  FIRN_ASSIGN_OR_RETURN(std::optional<int> id, r.OptInt(kSchemaId));
  schema.schema_id = id.value_or(0);
  FIRN_ASSIGN_OR_RETURN(schema.identifier_field_ids, r.IntList(kIdentifierFieldIds));
  FIRN_ASSIGN_OR_RETURN(const json::array* fields, r.Array(kFields));
  FIRN_ASSIGN_OR_RETURN(schema.fields, NormalizeStructFields(*fields));

  // Java rejects both: ids and full names index the schema.
  std::set<int> ids;
  std::set<std::string> names;
  bool duplicate_id = false;
  bool duplicate_name = false;
  ForEachFieldNode(schema.fields, [&](const FieldNode& node) {
    duplicate_id = duplicate_id || !ids.insert(node.id).second;
    duplicate_name = duplicate_name || !names.insert(node.path).second;
  });
  if (duplicate_id) return r.Invalid(kFields, "contain a duplicate field id");
  if (duplicate_name) return r.Invalid(kFields, "contain a duplicate field name");
  for (int id : schema.identifier_field_ids) {
    if (!ids.contains(id)) return r.Invalid(kIdentifierFieldIds, "references a missing field");
  }
  return schema;
}

json::object SchemaToJson(const Schema& schema) {
  json::object out;
  out[kType] = "struct";
  out[kSchemaId] = schema.schema_id;
  if (!schema.identifier_field_ids.empty()) {
    out[kIdentifierFieldIds] = JsonArray(schema.identifier_field_ids);
  }
  out[kFields] = schema.fields;
  return out;
}

Status ValidateSchemaTypes(const Schema& schema, int format_version) {
  std::string problem;
  ForEachFieldNode(schema.fields, [&](const FieldNode& node) {
    if (!problem.empty()) return;
    if (node.type->is_string()) {
      Result<PrimitiveType> type = ParsePrimitiveType(node.type->get_string());
      if (!type) return;  // cannot happen on a parsed schema
      if (type->min_format_version > format_version) {
        problem = "Invalid type for " + node.path + ": " + type->base +
                  " is not supported until v" + std::to_string(type->min_format_version);
        return;
      }
      bool null_only = type->base == "unknown" || type->base == "variant" ||
                       type->base == "geometry" || type->base == "geography";
      if (type->base == "unknown" && node.required) {
        problem = "Invalid field " + node.path + ": unknown type must be optional";
        return;
      }
      if (null_only && node.field != nullptr &&
          (HasNonNull(*node.field, kInitialDefault) || HasNonNull(*node.field, kWriteDefault))) {
        problem = "Invalid default for " + node.path + ": " + type->base +
                  " columns must default to null";
        return;
      }
    }
    if (node.field != nullptr && format_version < kDefaultValuesMinFormatVersion) {
      for (std::string_view key : {kInitialDefault, kWriteDefault}) {
        if (HasNonNull(*node.field, key)) {
          problem = "Invalid " + std::string(key) + " for " + node.path +
                    ": non-null default is not supported until v" +
                    std::to_string(kDefaultValuesMinFormatVersion);
          return;
        }
      }
    }
  });
  if (!problem.empty()) {
    return Fail(ErrorKind::kValidation,
                "Invalid schema for v" + std::to_string(format_version) + ": " + problem);
  }
  return Ok();
}

int MaxFieldId(const Schema& schema) {
  int max_id = 0;
  ForEachFieldNode(schema.fields,
                   [&](const FieldNode& node) { max_id = std::max(max_id, node.id); });
  return max_id;
}

bool SameSchemaStructure(const Schema& a, const Schema& b) {
  // Fields are canonical after parsing, and boost::json object equality ignores key order.
  std::vector<int> ids_a = a.identifier_field_ids;
  std::vector<int> ids_b = b.identifier_field_ids;
  std::sort(ids_a.begin(), ids_a.end());
  std::sort(ids_b.begin(), ids_b.end());
  return ids_a == ids_b && a.fields == b.fields;
}

}  // namespace firn::metadata
