#include "metadata/view_requirement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "common/macros.h"
#include "metadata/table_update_json.h"

namespace firn::metadata {

namespace {
constexpr std::string_view kTypeKey = "type";
constexpr std::string_view kUuidKey = "uuid";

using json_read::FieldReader;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}
}  // namespace

Result<ViewRequirement> ParseViewRequirement(const boost::json::value& json) {
  if (!json.is_object()) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse view requirement: not a JSON object");
  }
  FIRN_ASSIGN_OR_RETURN(std::string type,
                        FieldReader(json.get_object(), "view requirement").String(kTypeKey));
  if (type == AssertViewUuid::kType) {
    FieldReader r(json.get_object(), "view requirement " + type);
    FIRN_ASSIGN_OR_RETURN(std::string uuid, r.String(kUuidKey));
    return AssertViewUuid{std::move(uuid)};
  }
  return Fail(ErrorKind::kBadRequest,
              "Cannot parse view requirement: unknown type '" + json_read::Truncate(type) + "'");
}

Result<std::vector<ViewRequirement>> ParseViewRequirements(const boost::json::value& json) {
  if (!json.is_array()) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse view requirements: not a JSON array");
  }
  std::vector<ViewRequirement> out;
  out.reserve(json.get_array().size());
  for (const boost::json::value& item : json.get_array()) {
    FIRN_ASSIGN_OR_RETURN(ViewRequirement requirement, ParseViewRequirement(item));
    out.push_back(std::move(requirement));
  }
  return out;
}

std::string_view ViewRequirementType(const ViewRequirement& requirement) {
  return std::visit([](const auto& r) { return std::decay_t<decltype(r)>::kType; }, requirement);
}

boost::json::object ViewRequirementToJson(const ViewRequirement& requirement) {
  boost::json::object out;
  out[kTypeKey] = ViewRequirementType(requirement);
  const auto& r = std::get<AssertViewUuid>(requirement);
  out[kUuidKey] = r.uuid;
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
