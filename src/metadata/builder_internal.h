// Helpers shared by builder.cc and builder_validate.cc. Internal to metadata/.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "metadata/table_metadata.h"

namespace firn::metadata::builder_internal {

inline constexpr std::string_view kMainBranch = "main";
inline constexpr std::string_view kBranch = "branch";
inline constexpr std::string_view kTag = "tag";
inline constexpr std::string_view kVoidTransform = "void";
inline constexpr int64_t kClockSkewToleranceMs = 60'000;
inline constexpr int kRowLineageFormatVersion = 3;

// Every field id in the schema's field tree (struct fields, list elements, map keys/values).
std::unordered_set<int> CollectFieldIds(const Schema& schema);

// Source column ids of a partition or sort field (source-ids when set, else source-id).
template <typename Field>
std::vector<int> SourceIds(const Field& field) {
  if (!field.source_ids.empty()) return field.source_ids;
  return {field.source_id};
}

}  // namespace firn::metadata::builder_internal
