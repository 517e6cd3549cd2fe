// View updates: the changes a view commit applies, in order (REST spec `ViewUpdate`,
// discriminated by `action`). view_builder.h gives them their meaning.
//
// The six actions views share with tables reuse the table update structs (and their parsers);
// add-view-version and set-current-view-version are view-only. A table-only action is
// kBadRequest "Cannot parse view update: action '<action>' does not apply to views"; an unknown
// action is kBadRequest "Cannot parse update: unknown action '<action>'".
// Pure values and functions; thread-safe.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string_view>
#include <variant>
#include <vector>

#include "common/result.h"
#include "metadata/table_update.h"
#include "metadata/view_metadata.h"

namespace firn::metadata {

struct AddViewVersion {
  static constexpr std::string_view kAction = "add-view-version";
  ViewVersion view_version;  // version-id is reassigned on apply; schema-id -1 = last added
  friend bool operator==(const AddViewVersion&, const AddViewVersion&) = default;
};

struct SetCurrentViewVersion {
  static constexpr std::string_view kAction = "set-current-view-version";
  int view_version_id = kLastAdded;  // -1: the version added last in this commit
  friend bool operator==(const SetCurrentViewVersion&, const SetCurrentViewVersion&) = default;
};

using ViewUpdate = std::variant<AssignUuid, UpgradeFormatVersion, AddSchema, SetLocation,
                                SetProperties, RemoveProperties, AddViewVersion,
                                SetCurrentViewVersion>;

Result<ViewUpdate> ParseViewUpdate(const boost::json::value& json);
Result<std::vector<ViewUpdate>> ParseViewUpdates(const boost::json::value& json);

boost::json::object ViewUpdateToJson(const ViewUpdate& update);
std::string_view ViewUpdateAction(const ViewUpdate& update);

}  // namespace firn::metadata
