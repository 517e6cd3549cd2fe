// View requirements: the preconditions a view commit asserts (REST spec `ViewRequirement`,
// discriminated by `type`; the spec has exactly one, assert-view-uuid).
//
// Pure values and functions; thread-safe. Parsing fails with kBadRequest naming the field or
// the unknown type; CheckViewRequirement fails with kCommitFailed and Java's exact
// "Requirement failed: ..." message.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/result.h"
#include "metadata/view_metadata.h"

namespace firn::metadata {

// The view UUID equals `uuid` (case-insensitive).
struct AssertViewUuid {
  static constexpr std::string_view kType = "assert-view-uuid";
  std::string uuid;
  friend bool operator==(const AssertViewUuid&, const AssertViewUuid&) = default;
};

using ViewRequirement = std::variant<AssertViewUuid>;

// Unknown `type` → kBadRequest "Cannot parse view requirement: unknown type '<type>'".
Result<ViewRequirement> ParseViewRequirement(const boost::json::value& json);
Result<std::vector<ViewRequirement>> ParseViewRequirements(const boost::json::value& json);

boost::json::object ViewRequirementToJson(const ViewRequirement& requirement);
std::string_view ViewRequirementType(const ViewRequirement& requirement);

// Checks one requirement against the view's current metadata.
Status CheckViewRequirement(const ViewRequirement& requirement, const ViewMetadata& base);
Status CheckViewRequirements(const std::vector<ViewRequirement>& requirements,
                             const ViewMetadata& base);

}  // namespace firn::metadata
