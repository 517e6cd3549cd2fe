#include "metadata/view_update.h"

#include "common/macros.h"
#include "metadata/json_keys.h"
#include "metadata/table_update_json.h"
#include "metadata/view_serde.h"

namespace firn::metadata {

namespace {

using json_read::FieldReader;

// The shared actions, parsed by the table parser. Copies (they are small) rather than moves
// through std::optional, which trips g++ 12's -Wmaybe-uninitialized at -O3.
template <typename... Ts>
bool TakeShared(const TableUpdate& in, ViewUpdate& out) {
  return ((std::holds_alternative<Ts>(in) ? (out = std::get<Ts>(in), true) : false) || ...);
}

// The view-only actions; every other one goes to the table parser.
constexpr json_read::TaggedParser<ViewUpdate> kViewOnly[] = {
    json_read::FieldParser<ViewUpdate, AddViewVersion, &json_read::Nested<&ViewVersionFromJson>,
                           kViewVersion>(),
    json_read::FieldParser<ViewUpdate, SetCurrentViewVersion, &FieldReader::Int,
                           kViewVersionId>(),
};
}  // namespace

Result<ViewUpdate> ParseViewUpdate(const boost::json::value& json) {
  if (!json.is_object()) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse view update: not a JSON object");
  }
  const boost::json::object& object = json.get_object();
  FIRN_ASSIGN_OR_RETURN(std::string action, FieldReader(object, "update").String(kAction));
  for (const json_read::TaggedParser<ViewUpdate>& entry : kViewOnly) {
    if (entry.tag == action) return entry.parse(FieldReader(object, "update " + action));
  }
  FIRN_ASSIGN_OR_RETURN(TableUpdate table_update, ParseTableUpdate(json));
  ViewUpdate view_update;
  if (!TakeShared<AssignUuid, UpgradeFormatVersion, AddSchema, SetLocation, SetProperties,
                  RemoveProperties>(table_update, view_update)) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse view update: action '" +
                                            json_read::Truncate(action) +
                                            "' does not apply to views");
  }
  return view_update;
}

Result<std::vector<ViewUpdate>> ParseViewUpdates(const boost::json::value& json) {
  return json_read::ParseArray(json, "view updates", &ParseViewUpdate);
}

std::string_view ViewUpdateAction(const ViewUpdate& update) {
  return json_read::HeldTag(update);
}

boost::json::object ViewUpdateToJson(const ViewUpdate& update) {
  return std::visit(
      [](const auto& u) -> boost::json::object {
        using T = std::decay_t<decltype(u)>;
        if constexpr (std::is_same_v<T, AddViewVersion>) {
          boost::json::object out;
          out[kAction] = T::kAction;
          out[kViewVersion] = ViewVersionToJson(u.view_version);
          return out;
        } else if constexpr (std::is_same_v<T, SetCurrentViewVersion>) {
          boost::json::object out;
          out[kAction] = T::kAction;
          out[kViewVersionId] = u.view_version_id;
          return out;
        } else {
          return TableUpdateToJson(TableUpdate(u));
        }
      },
      update);
}

}  // namespace firn::metadata
