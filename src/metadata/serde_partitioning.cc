// Partition spec and sort order JSON (table spec, Appendix C).
#include <cctype>
#include <utility>

#include "common/macros.h"
#include "metadata/serde.h"
#include "metadata/serde_util.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {
constexpr std::string_view kSpecId = "spec-id";
constexpr std::string_view kOrderId = "order-id";
constexpr std::string_view kFields = "fields";
constexpr std::string_view kSourceId = "source-id";
constexpr std::string_view kSourceIds = "source-ids";
constexpr std::string_view kFieldId = "field-id";
constexpr std::string_view kName = "name";
constexpr std::string_view kTransform = "transform";
constexpr std::string_view kDirection = "direction";
constexpr std::string_view kNullOrder = "null-order";

struct Sources {
  int source_id = 0;
  std::vector<int> source_ids;
};

// `source-id` for single-argument transforms, `source-ids` for multi-argument ones (v3). A
// one-element `source-ids` is folded into `source-id` so both spellings compare equal.
Result<Sources> ReadSources(const JsonReader& r) {
  Sources s;
  FIRN_ASSIGN_OR_RETURN(std::optional<int> id, r.OptInt(kSourceId));
  if (id) {
    s.source_id = *id;
    return s;
  }
  if (!r.Has(kSourceIds)) return r.Missing(kSourceId);
  FIRN_ASSIGN_OR_RETURN(std::vector<int> ids, r.IntList(kSourceIds));
  if (ids.empty()) return r.Invalid(kSourceIds, "must not be empty");
  s.source_id = ids.front();
  if (ids.size() > 1) s.source_ids = std::move(ids);
  return s;
}

void WriteSources(json::object& out, int source_id, const std::vector<int>& source_ids) {
  if (source_ids.empty()) {
    out[kSourceId] = source_id;
  } else {
    out[kSourceIds] = IntArray(source_ids);
  }
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Result<PartitionField> PartitionFieldFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "partition field"));
  PartitionField field;
  FIRN_ASSIGN_OR_RETURN(Sources sources, ReadSources(r));
  field.source_id = sources.source_id;
  field.source_ids = std::move(sources.source_ids);
  FIRN_ASSIGN_OR_RETURN(field.field_id, r.OptInt(kFieldId));
  FIRN_ASSIGN_OR_RETURN(field.name, r.String(kName));
  FIRN_ASSIGN_OR_RETURN(field.transform, r.String(kTransform));
  return field;
}

Result<SortField> SortFieldFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "sort field"));
  SortField field;
  FIRN_ASSIGN_OR_RETURN(field.transform, r.String(kTransform));
  FIRN_ASSIGN_OR_RETURN(Sources sources, ReadSources(r));
  field.source_id = sources.source_id;
  field.source_ids = std::move(sources.source_ids);
  FIRN_ASSIGN_OR_RETURN(std::string direction, r.String(kDirection));
  field.direction = Lower(std::move(direction));
  if (field.direction != "asc" && field.direction != "desc") {
    return r.Invalid(kDirection, "must be \"asc\" or \"desc\"");
  }
  FIRN_ASSIGN_OR_RETURN(std::string null_order, r.String(kNullOrder));
  field.null_order = Lower(std::move(null_order));
  if (field.null_order != "nulls-first" && field.null_order != "nulls-last") {
    return r.Invalid(kNullOrder, "must be \"nulls-first\" or \"nulls-last\"");
  }
  return field;
}
}  // namespace

Result<PartitionSpec> PartitionSpecFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "partition spec"));
  PartitionSpec spec;
  // spec-id is read-only in REST requests; stored metadata always carries it.
  FIRN_ASSIGN_OR_RETURN(std::optional<int> id, r.OptInt(kSpecId));
  spec.spec_id = id.value_or(0);
  FIRN_ASSIGN_OR_RETURN(const json::array* fields, r.Array(kFields));
  for (const json::value& f : *fields) {
    FIRN_ASSIGN_OR_RETURN(PartitionField field, PartitionFieldFromJson(f));
    spec.fields.push_back(std::move(field));
  }
  return spec;
}

json::object PartitionSpecToJson(const PartitionSpec& spec) {
  json::array fields;
  fields.reserve(spec.fields.size());
  for (const PartitionField& f : spec.fields) {
    json::object out;
    out[kName] = f.name;
    out[kTransform] = f.transform;
    WriteSources(out, f.source_id, f.source_ids);
    if (f.field_id) out[kFieldId] = *f.field_id;
    fields.emplace_back(std::move(out));
  }
  json::object out;
  out[kSpecId] = spec.spec_id;
  out[kFields] = std::move(fields);
  return out;
}

Result<SortOrder> SortOrderFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "sort order"));
  SortOrder order;
  FIRN_ASSIGN_OR_RETURN(order.order_id, r.Int(kOrderId));
  FIRN_ASSIGN_OR_RETURN(const json::array* fields, r.Array(kFields));
  for (const json::value& f : *fields) {
    FIRN_ASSIGN_OR_RETURN(SortField field, SortFieldFromJson(f));
    order.fields.push_back(std::move(field));
  }
  return order;
}

json::object SortOrderToJson(const SortOrder& order) {
  json::array fields;
  fields.reserve(order.fields.size());
  for (const SortField& f : order.fields) {
    json::object out;
    out[kTransform] = f.transform;
    WriteSources(out, f.source_id, f.source_ids);
    out[kDirection] = f.direction;
    out[kNullOrder] = f.null_order;
    fields.emplace_back(std::move(out));
  }
  json::object out;
  out[kOrderId] = order.order_id;
  out[kFields] = std::move(fields);
  return out;
}

}  // namespace firn::metadata
