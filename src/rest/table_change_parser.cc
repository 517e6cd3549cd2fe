#include "rest/table_change_parser.h"

#include "common/macros.h"
#include "metadata/table_requirement.h"
#include "metadata/table_update.h"
#include "metadata/view_requirement.h"
#include "metadata/view_update.h"
#include "rest/json_fields.h"

namespace firn::rest {
namespace {

// The optional "requirements" and the required "updates" of a commit request `body`, parsed
// into `change` by the table or the view metadata parsers.
template <typename Change, typename ParseRequirements, typename ParseUpdates>
Status ParseRequirementsAndUpdates(const boost::json::object& body, Change& change,
                                   ParseRequirements parse_requirements,
                                   ParseUpdates parse_updates) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* requirements,
                        OptionalArray(body, "requirements"));
  if (requirements) {
    FIRN_ASSIGN_OR_RETURN(change.requirements, parse_requirements(*requirements));
  }
  FIRN_ASSIGN_OR_RETURN(const boost::json::value* updates, RequiredArray(body, "updates"));
  FIRN_ASSIGN_OR_RETURN(change.updates, parse_updates(*updates));
  return Ok();
}

}  // namespace

Result<catalog::TableChange> ParseTableChange(const boost::json::value& json,
                                              const store::Identifier* path_id) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "commit request"));
  catalog::TableChange change;
  if (path_id) {
    change.id = *path_id;
  } else {
    FIRN_ASSIGN_OR_RETURN(change.id, IdentifierField(*body, "identifier"));
  }
  FIRN_RETURN_IF_ERROR(ParseRequirementsAndUpdates(*body, change,
                                                   metadata::ParseTableRequirements,
                                                   metadata::ParseTableUpdates));
  return change;
}

Result<catalog::ViewChange> ParseViewChange(const boost::json::value& json,
                                            const store::Identifier& path_id) {
  FIRN_ASSIGN_OR_RETURN(const boost::json::object* body, AsObject(json, "commit request"));
  catalog::ViewChange change;
  change.id = path_id;
  FIRN_RETURN_IF_ERROR(ParseRequirementsAndUpdates(*body, change,
                                                   metadata::ParseViewRequirements,
                                                   metadata::ParseViewUpdates));
  return change;
}

}  // namespace firn::rest
