#include "metadata/view_requirement.h"

#include <fmt/format.h>

#include "common/macros.h"
#include "common/strings.h"
#include "metadata/json_keys.h"
#include "metadata/table_update_json.h"

namespace firn::metadata {

namespace {

constexpr json_read::TaggedParser<ViewRequirement> kParsers[] = {
    json_read::FieldParser<ViewRequirement, AssertViewUuid, &json_read::FieldReader::String,
                           kUuid>(),
};

}  // namespace

Result<ViewRequirement> ParseViewRequirement(const boost::json::value& json) {
  return json_read::ParseTagged<ViewRequirement>(json, "view requirement", kType, kParsers);
}

Result<std::vector<ViewRequirement>> ParseViewRequirements(const boost::json::value& json) {
  return json_read::ParseArray(json, "view requirements", &ParseViewRequirement);
}

std::string_view ViewRequirementType(const ViewRequirement& requirement) {
  return json_read::HeldTag(requirement);
}

boost::json::object ViewRequirementToJson(const ViewRequirement& requirement) {
  boost::json::object out;
  out[kType] = ViewRequirementType(requirement);
  const auto& r = std::get<AssertViewUuid>(requirement);
  out[kUuid] = r.uuid;
  return out;
}

Status CheckViewRequirement(const ViewRequirement& requirement, const ViewMetadata& base) {
  const auto& r = std::get<AssertViewUuid>(requirement);
  if (EqualsIgnoreCase(r.uuid, base.view_uuid)) return Ok();
  return Fail(ErrorKind::kCommitFailed,
              fmt::format("Requirement failed: view UUID does not match: expected {} != {}",
                          base.view_uuid, r.uuid));
}

Status CheckViewRequirements(const std::vector<ViewRequirement>& requirements,
                             const ViewMetadata& base) {
  for (const ViewRequirement& requirement : requirements) {
    FIRN_RETURN_IF_ERROR(CheckViewRequirement(requirement, base));
  }
  return Ok();
}

}  // namespace firn::metadata
