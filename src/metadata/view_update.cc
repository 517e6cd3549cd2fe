#include "metadata/view_update.h"

#include "common/macros.h"
#include "metadata/table_update_json.h"
#include "metadata/view_serde.h"

namespace firn::metadata {

namespace {
constexpr std::string_view kActionKey = "action";
constexpr std::string_view kViewVersionKey = "view-version";
constexpr std::string_view kViewVersionIdKey = "view-version-id";

using json_read::FieldReader;

// The shared actions, parsed by the table parser. Copies (they are small) rather than moves
// through std::optional, which trips g++ 12's -Wmaybe-uninitialized at -O3.
template <typename... Ts>
bool TakeShared(const TableUpdate& in, ViewUpdate& out) {
  return ((std::holds_alternative<Ts>(in) ? (out = std::get<Ts>(in), true) : false) || ...);
}
}  // namespace

Result<ViewUpdate> ParseViewUpdate(const boost::json::value& json) {
  if (!json.is_object()) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse view update: not a JSON object");
  }
  const boost::json::object& object = json.get_object();
  FIRN_ASSIGN_OR_RETURN(std::string action, FieldReader(object, "update").String(kActionKey));
  if (action == AddViewVersion::kAction) {
    FieldReader r(object, "update " + action);
    FIRN_ASSIGN_OR_RETURN(const boost::json::value* version, r.Required(kViewVersionKey));
    FIRN_ASSIGN_OR_RETURN(ViewVersion parsed, ViewVersionFromJson(*version));
    return AddViewVersion{std::move(parsed)};
  }
  if (action == SetCurrentViewVersion::kAction) {
    FieldReader r(object, "update " + action);
    FIRN_ASSIGN_OR_RETURN(int id, r.Int(kViewVersionIdKey));
    return SetCurrentViewVersion{id};
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
  if (!json.is_array()) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse view updates: not a JSON array");
  }
  std::vector<ViewUpdate> out;
  out.reserve(json.get_array().size());
  for (const boost::json::value& item : json.get_array()) {
    FIRN_ASSIGN_OR_RETURN(ViewUpdate update, ParseViewUpdate(item));
    out.push_back(std::move(update));
  }
  return out;
}

std::string_view ViewUpdateAction(const ViewUpdate& update) {
  return std::visit([](const auto& u) { return std::decay_t<decltype(u)>::kAction; }, update);
}

boost::json::object ViewUpdateToJson(const ViewUpdate& update) {
  return std::visit(
      [](const auto& u) -> boost::json::object {
        using T = std::decay_t<decltype(u)>;
        if constexpr (std::is_same_v<T, AddViewVersion>) {
          boost::json::object out;
          out[kActionKey] = T::kAction;
          out[kViewVersionKey] = ViewVersionToJson(u.view_version);
          return out;
        } else if constexpr (std::is_same_v<T, SetCurrentViewVersion>) {
          boost::json::object out;
          out[kActionKey] = T::kAction;
          out[kViewVersionIdKey] = u.view_version_id;
          return out;
        } else {
          return TableUpdateToJson(TableUpdate(u));
        }
      },
      update);
}

}  // namespace firn::metadata
