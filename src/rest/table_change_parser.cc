#include "rest/table_change_parser.h"

#include "common/macros.h"
#include "rest/json_fields.h"

namespace firn::rest {

Result<catalog::TableChange> ParseTableChange(const boost::json::value& json,
                                              const store::Identifier* path_id) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "commit request"));
  catalog::TableChange change;
  if (path_id) {
    change.id = *path_id;
  } else {
    FIRN_ASSIGN_OR_RETURN(change.id, IdentifierField(*body, "identifier"));
  }
  const boost::json::value* requirements = body->if_contains("requirements");
  if (requirements && !requirements->is_null()) {
    if (!requirements->is_array()) {
      return Fail(ErrorKind::kBadRequest, "Invalid request body: field 'requirements' must be an array");
    }
    for (const auto& r : requirements->get_array()) {
      FIRN_ASSIGN_OR_RETURN(auto parsed, metadata::ParseTableRequirement(r));
      change.requirements.push_back(std::move(parsed));
    }
  }
  const boost::json::value* updates = body->if_contains("updates");
  if (!updates || !updates->is_array()) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid request body: field 'updates' must be an array (required)");
  }
  for (const auto& u : updates->get_array()) {
    FIRN_ASSIGN_OR_RETURN(auto parsed, metadata::ParseTableUpdate(u));
    change.updates.push_back(std::move(parsed));
  }
  return change;
}

}  // namespace firn::rest
