#include "metadata/create_table.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <set>
#include <utility>

#include "common/macros.h"
#include "common/uuid.h"
#include "metadata/serde.h"
#include "metadata/types.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {

constexpr std::array<std::string_view, 9> kReservedProperties = {
    "format-version",        "uuid",           "snapshot-count",
    "current-snapshot-id",   "current-snapshot-summary", "current-snapshot-timestamp-ms",
    "current-schema",        "default-partition-spec",   "default-sort-order",
};

// Java's AssignFreshIds: numbers a struct's fields before descending into their types.
class FreshIdAssigner {
 public:
  json::array Struct(const json::array& fields) {
    json::array out = fields;
    for (json::value& f : out) Renumber(f.as_object(), "id");
    for (json::value& f : out) {
      json::object& field = f.as_object();
      field["type"] = Type(field.at("type"));
    }
    return out;
  }

  int last_id() const { return next_id_; }
  std::optional<int> NewId(int old_id) const {
    auto it = old_to_new_.find(old_id);
    if (it == old_to_new_.end()) return std::nullopt;
    return it->second;
  }

 private:
  json::value Type(const json::value& type) {
    if (!type.is_object()) return type;
    json::object out = type.get_object();
    std::string_view kind = out.at("type").get_string();
    if (kind == "struct") {
      out["fields"] = Struct(out.at("fields").get_array());
    } else if (kind == "list") {
      Renumber(out, "element-id");
      out["element"] = Type(out.at("element"));
    } else if (kind == "map") {
      Renumber(out, "key-id");
      Renumber(out, "value-id");
      out["key"] = Type(out.at("key"));
      out["value"] = Type(out.at("value"));
    }
    return out;
  }

  void Renumber(json::object& o, std::string_view key) {
    int old_id = static_cast<int>(o.at(key).to_number<int64_t>());
    int new_id = ++next_id_;
    old_to_new_.emplace(old_id, new_id);  // ids are unique: SchemaFromJson checked
    o[key] = new_id;
  }

  int next_id_ = 0;
  std::map<int, int> old_to_new_;
};

Result<int> FormatVersion(const std::map<std::string, std::string>& properties) {
  auto it = properties.find(std::string(kFormatVersionProperty));
  if (it == properties.end()) return kDefaultFormatVersion;
  const std::string& text = it->second;
  int version = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), version);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Fail(ErrorKind::kIllegalArgument, "Invalid format-version property: not an integer");
  }
  if (version < 1 || version > kMaxFormatVersion) {
    return Fail(ErrorKind::kIllegalArgument,
                "Unsupported format version: v" + std::to_string(version) + " (supported: v1-v" +
                    std::to_string(kMaxFormatVersion) + ")");
  }
  return version;
}

Result<int> Rebind(const FreshIdAssigner& ids, int old_id, std::string_view what) {
  std::optional<int> id = ids.NewId(old_id);
  if (!id) {
    return Fail(ErrorKind::kIllegalArgument, "Cannot find source column " +
                                                 std::to_string(old_id) + " for " +
                                                 std::string(what));
  }
  return *id;
}

Status RebindSources(const FreshIdAssigner& ids, int& source_id, std::vector<int>& source_ids,
                     std::string_view what) {
  FIRN_ASSIGN_OR_RETURN(source_id, Rebind(ids, source_id, what));
  for (int& id : source_ids) {
    FIRN_ASSIGN_OR_RETURN(id, Rebind(ids, id, what));
  }
  return Ok();
}

Result<PartitionSpec> FreshSpec(const std::optional<json::value>& request,
                                const FreshIdAssigner& ids, const Schema& schema) {
  PartitionSpec spec;  // spec-id 0
  if (!request) return spec;
  FIRN_ASSIGN_OR_RETURN(PartitionSpec given, PartitionSpecFromJson(*request));
  // Java: partition names are unique and do not shadow a column, except identity(column).
  std::map<std::string, int> columns;
  ForEachFieldNode(schema.fields, [&](const FieldNode& n) { columns.emplace(n.path, n.id); });
  std::set<std::string> names;
  int next_field_id = kPartitionFieldIdStart;
  for (PartitionField& f : given.fields) {
    FIRN_RETURN_IF_ERROR(RebindSources(ids, f.source_id, f.source_ids, "partition field"));
    if (!names.insert(f.name).second) {
      return Fail(ErrorKind::kIllegalArgument, "Cannot use partition name more than once");
    }
    auto column = columns.find(f.name);
    if (column != columns.end() &&
        !(f.transform == "identity" && f.source_ids.empty() && column->second == f.source_id)) {
      return Fail(ErrorKind::kIllegalArgument,
                  "Cannot create partition from name that exists in schema");
    }
    f.field_id = next_field_id++;
    spec.fields.push_back(std::move(f));
  }
  return spec;
}

Result<SortOrder> FreshSortOrder(const std::optional<json::value>& request,
                                 const FreshIdAssigner& ids) {
  SortOrder order;  // unsorted: order-id 0
  if (!request) return order;
  FIRN_ASSIGN_OR_RETURN(SortOrder given, SortOrderFromJson(*request));
  if (given.fields.empty()) return order;
  order.order_id = 1;
  for (SortField& f : given.fields) {
    FIRN_RETURN_IF_ERROR(RebindSources(ids, f.source_id, f.source_ids, "sort field"));
    order.fields.push_back(std::move(f));
  }
  return order;
}

}  // namespace

bool IsReservedTableProperty(std::string_view key) {
  return std::find(kReservedProperties.begin(), kReservedProperties.end(), key) !=
         kReservedProperties.end();
}

Result<TableMetadata> NewTableMetadata(const CreateTableInput& in, int64_t now_ms) {
  if (in.location.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "Cannot create table: location is required");
  }
  FIRN_ASSIGN_OR_RETURN(int format_version, FormatVersion(in.properties));
  FIRN_ASSIGN_OR_RETURN(Schema given, SchemaFromJson(in.schema));

  FreshIdAssigner ids;
  Schema schema;  // schema-id 0
  schema.fields = ids.Struct(given.fields);
  for (int old_id : given.identifier_field_ids) {
    FIRN_ASSIGN_OR_RETURN(int id, Rebind(ids, old_id, "identifier field"));
    schema.identifier_field_ids.push_back(id);
  }
  FIRN_RETURN_IF_ERROR(ValidateSchemaTypes(schema, format_version));
  FIRN_ASSIGN_OR_RETURN(PartitionSpec spec, FreshSpec(in.partition_spec, ids, schema));
  FIRN_ASSIGN_OR_RETURN(SortOrder order, FreshSortOrder(in.write_order, ids));

  TableMetadata m;
  m.format_version = format_version;
  m.table_uuid = NewUuidV4();
  m.location = in.location;
  m.last_sequence_number = 0;
  m.last_updated_ms = now_ms;
  m.last_column_id = ids.last_id();
  m.last_partition_id = kUnpartitionedLastPartitionId + static_cast<int>(spec.fields.size());
  m.schemas.push_back(std::move(schema));
  m.current_schema_id = 0;
  m.partition_specs.push_back(std::move(spec));
  m.default_spec_id = 0;
  m.default_sort_order_id = order.order_id;
  m.sort_orders.push_back(std::move(order));
  for (const auto& [key, value] : in.properties) {
    if (!IsReservedTableProperty(key)) m.properties.emplace(key, value);
  }
  if (format_version >= 3) m.next_row_id = 0;
  return m;
}

}  // namespace firn::metadata
