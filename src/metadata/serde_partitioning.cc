// Partition spec and sort order JSON (table spec, Appendix C).
#include <utility>

#include "common/macros.h"
#include "metadata/json_keys.h"
#include "metadata/serde.h"
#include "metadata/serde_util.h"

namespace firn::metadata {

namespace json = boost::json;

namespace {

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
    out[kSourceIds] = JsonArray(source_ids);
  }
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

json::object PartitionFieldToJson(const PartitionField& f) {
  json::object out;
  out[kName] = f.name;
  out[kTransform] = f.transform;
  WriteSources(out, f.source_id, f.source_ids);
  if (f.field_id) out[kFieldId] = *f.field_id;
  return out;
}

Result<SortField> SortFieldFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "sort field"));
  SortField field;
  FIRN_ASSIGN_OR_RETURN(field.transform, r.String(kTransform));
  FIRN_ASSIGN_OR_RETURN(Sources sources, ReadSources(r));
  field.source_id = sources.source_id;
  field.source_ids = std::move(sources.source_ids);
  FIRN_ASSIGN_OR_RETURN(field.direction, r.LowerEither(kDirection, "asc", "desc"));
  FIRN_ASSIGN_OR_RETURN(field.null_order,
                        r.LowerEither(kNullOrder, "nulls-first", "nulls-last"));
  return field;
}

json::object SortFieldToJson(const SortField& f) {
  json::object out;
  out[kTransform] = f.transform;
  WriteSources(out, f.source_id, f.source_ids);
  out[kDirection] = f.direction;
  out[kNullOrder] = f.null_order;
  return out;
}
}  // namespace

Result<PartitionSpec> PartitionSpecFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "partition spec"));
  PartitionSpec spec;
  // spec-id is read-only in REST requests; stored metadata always carries it.
  FIRN_ASSIGN_OR_RETURN(std::optional<int> id, r.OptInt(kSpecId));
  spec.spec_id = id.value_or(0);
  FIRN_ASSIGN_OR_RETURN(spec.fields,
                        RequiredList<PartitionField>(r, kFields, PartitionFieldFromJson));
  return spec;
}

json::object PartitionSpecToJson(const PartitionSpec& spec) {
  json::object out;
  out[kSpecId] = spec.spec_id;
  out[kFields] = JsonArray(spec.fields, PartitionFieldToJson);
  return out;
}

Result<SortOrder> SortOrderFromJson(const json::value& value) {
  FIRN_ASSIGN_OR_RETURN(JsonReader r, JsonReader::Of(value, "sort order"));
  SortOrder order;
  FIRN_ASSIGN_OR_RETURN(order.order_id, r.Int(kOrderId));
  FIRN_ASSIGN_OR_RETURN(order.fields, RequiredList<SortField>(r, kFields, SortFieldFromJson));
  return order;
}

json::object SortOrderToJson(const SortOrder& order) {
  json::object out;
  out[kOrderId] = order.order_id;
  out[kFields] = JsonArray(order.fields, SortFieldToJson);
  return out;
}

}  // namespace firn::metadata
