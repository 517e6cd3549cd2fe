#include "metadata/schema_compat.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "metadata/json_keys.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {

constexpr int kV3 = 3;

using NodesById = std::unordered_map<int, FieldNode>;

NodesById IndexById(const Schema& schema) {
  NodesById nodes;
  ForEachFieldNode(schema.fields, [&](const FieldNode& node) { nodes.emplace(node.id, node); });
  return nodes;
}

// A type in words: its primitive name, or "struct", "list", "map".
std::string TypeName(const json::value& type) {
  if (type.is_string()) return std::string(type.get_string());
  return std::string(type.get_object().at(kType).get_string());
}

bool AllowedTypeChange(const json::value& from, const json::value& to, int format_version) {
  if (from.is_string()) {
    if (from == to) return true;
    Result<PrimitiveType> a = ParsePrimitiveType(from.get_string());
    if (!a) return false;
    if (to.is_string()) {
      Result<PrimitiveType> b = ParsePrimitiveType(to.get_string());
      return b && IsTypePromotion(*a, *b, format_version);
    }
    // v3: a field of the unknown type (always null) may become a nested type too.
    return a->base == "unknown" && format_version >= kV3;
  }
  // Nested to nested of the same kind: its children are compared by id on their own.
  return to.is_object() && TypeName(from) == TypeName(to);
}

std::string FieldName(const FieldNode& node) {
  return std::string(node.field->at(kName).get_string());
}

// The breaking change of one field, or nullopt.
std::optional<SchemaBreak> FieldBreak(const FieldNode& old, const NodesById& now,
                                      int format_version) {
  auto it = now.find(old.id);
  if (it == now.end()) return SchemaBreak{SchemaBreakKind::kDropped, old.id, old.path, {}, {}};
  const FieldNode& next = it->second;
  if (!AllowedTypeChange(*old.type, *next.type, format_version)) {
    return SchemaBreak{SchemaBreakKind::kTypeChanged, old.id, old.path, TypeName(*old.type),
                       TypeName(*next.type)};
  }
  if (old.field != nullptr && next.field != nullptr && FieldName(old) != FieldName(next)) {
    return SchemaBreak{SchemaBreakKind::kRenamed, old.id, old.path, {}, FieldName(next)};
  }
  if (!old.required && next.required) {
    return SchemaBreak{SchemaBreakKind::kMadeRequired, old.id, old.path, {}, {}};
  }
  return std::nullopt;
}

std::vector<int> Sorted(std::vector<int> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

// "[id, name]": the fields' paths (their ids when a path is unknown).
std::string FieldList(const std::vector<int>& ids, const NodesById& nodes) {
  std::string out = "[";
  for (size_t i = 0; i < ids.size(); ++i) {
    auto it = nodes.find(ids[i]);
    out += (i ? ", " : "") + (it == nodes.end() ? "id " + std::to_string(ids[i]) : it->second.path);
  }
  return out + "]";
}

}  // namespace

bool IsTypePromotion(const PrimitiveType& from, const PrimitiveType& to, int format_version) {
  if (from.base == "int") return to.base == "long";
  if (from.base == "float") return to.base == "double";
  if (from.base == "decimal") {
    return to.base == "decimal" && to.scale == from.scale && to.precision > from.precision;
  }
  // Not to timestamptz or timestamptz_ns: a date carries no zone to convert from.
  if (from.base == "date" && format_version >= kV3) {
    return to.base == "timestamp" || to.base == "timestamp_ns";
  }
  // v3: the unknown type (always null) may become any type.
  return from.base == "unknown" && format_version >= kV3;
}

std::vector<SchemaBreak> BreakingSchemaChanges(const Schema& from, const Schema& to,
                                               int format_version) {
  const NodesById now = IndexById(to);
  std::vector<SchemaBreak> breaks;
  std::string hidden;  // "<path>." of the last dropped or retyped field: its children follow it
  ForEachFieldNode(from.fields, [&](const FieldNode& old) {
    if (!hidden.empty() && std::string_view(old.path).starts_with(hidden)) return;
    hidden.clear();
    std::optional<SchemaBreak> change = FieldBreak(old, now, format_version);
    if (!change) return;
    if (change->kind == SchemaBreakKind::kDropped || change->kind == SchemaBreakKind::kTypeChanged) {
      hidden = old.path + ".";
    }
    breaks.push_back(std::move(*change));
  });
  const std::vector<int> old_ids = Sorted(from.identifier_field_ids);
  const std::vector<int> new_ids = Sorted(to.identifier_field_ids);
  if (old_ids != new_ids) {
    breaks.push_back(SchemaBreak{SchemaBreakKind::kIdentifierFields, 0, {},
                                 FieldList(old_ids, IndexById(from)), FieldList(new_ids, now)});
  }
  return breaks;
}

std::string DescribeSchemaBreak(const SchemaBreak& change) {
  const std::string column =
      "column '" + change.path + "' (id " + std::to_string(change.field_id) + ")";
  switch (change.kind) {
    case SchemaBreakKind::kDropped: return column + " would be dropped";
    case SchemaBreakKind::kTypeChanged:
      return column + " would change type from " + change.from + " to " + change.to +
             ", which is not a type promotion";
    case SchemaBreakKind::kRenamed: return column + " would be renamed to '" + change.to + "'";
    case SchemaBreakKind::kMadeRequired: return column + " would change from optional to required";
    case SchemaBreakKind::kIdentifierFields:
      return "the identifier fields would change from " + change.from + " to " + change.to;
  }
  return column + " would change";
}

}  // namespace firn::metadata
