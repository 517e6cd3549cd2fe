#include "metadata/view_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

#include "common/macros.h"
#include "common/strings.h"
#include "common/uuid.h"
#include "metadata/serde.h"
#include "metadata/view_serde.h"

namespace firn::metadata {

namespace {

std::unexpected<Error> IllegalArgument(std::string message) {
  return Fail(ErrorKind::kIllegalArgument, std::move(message));
}

std::set<std::string> SqlDialects(const ViewVersion* version) {
  std::set<std::string> out;
  if (version == nullptr) return out;
  for (const ViewRepresentation& rep : version->representations) {
    if (rep.type == kSqlRepresentationType) out.insert(ToLower(rep.dialect));
  }
  return out;
}

// Java's PropertyUtil for the two view properties the builder reads.
Result<int> IntProperty(const std::map<std::string, std::string>& props, std::string_view key,
                        int fallback) {
  auto it = props.find(std::string(key));
  if (it == props.end()) return fallback;
  int value = 0;
  const std::string& text = it->second;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return IllegalArgument(fmt::format("Invalid {}: not an integer", key));
  }
  return value;
}

bool BoolProperty(const std::map<std::string, std::string>& props, std::string_view key) {
  auto it = props.find(std::string(key));
  return it != props.end() && EqualsIgnoreCase(it->second, "true");
}

// Mirrors Java's ViewMetadata.Builder: one instance per commit.
class Builder {
 public:
  // `base` null: a new view (no previous version to protect dialects of).
  Builder(const ViewMetadata* base, int64_t now_ms) : now_ms_(now_ms) {
    if (base != nullptr) {
      m_ = *base;
      if (const ViewVersion* current = base->CurrentVersion()) previous_version_ = *current;
    } else {
      m_.current_version_id = -1;
    }
  }

  bool changed() const { return changed_; }

  Status Apply(const ViewUpdate& update) {
    return std::visit([this](const auto& u) { return ApplyOne(u); }, update);
  }

  Status ApplyOne(const AssignUuid& u) {
    if (!m_.view_uuid.empty() && u.uuid != m_.view_uuid) {
      return IllegalArgument("Cannot reassign uuid");
    }
    if (u.uuid != m_.view_uuid) {
      m_.view_uuid = u.uuid;
      changed_ = true;
    }
    return Ok();
  }

  Status ApplyOne(const UpgradeFormatVersion& u) {
    if (u.format_version < m_.format_version) {
      return IllegalArgument(fmt::format("Cannot downgrade v{} view to v{}", m_.format_version,
                                         u.format_version));
    }
    if (u.format_version > kViewFormatVersion) {
      return IllegalArgument(fmt::format("Unsupported format version: {}", u.format_version));
    }
    if (u.format_version != m_.format_version) {
      m_.format_version = u.format_version;
      changed_ = true;
    }
    return Ok();
  }

  Status ApplyOne(const AddSchema& u) {
    AddSchemaInternal(u.schema);
    return Ok();
  }

  Status ApplyOne(const SetLocation& u) {
    if (u.location != m_.location) {
      m_.location = u.location;
      changed_ = true;
    }
    return Ok();
  }

  Status ApplyOne(const SetProperties& u) {
    if (u.updates.empty()) return Ok();
    for (const auto& [k, v] : u.updates) m_.properties[k] = v;
    changed_ = true;
    return Ok();
  }

  Status ApplyOne(const RemoveProperties& u) {
    if (u.removals.empty()) return Ok();
    for (const std::string& k : u.removals) m_.properties.erase(k);
    changed_ = true;
    return Ok();
  }

  Status ApplyOne(const AddViewVersion& u) {
    FIRN_ASSIGN_OR_RETURN(int id, AddVersionInternal(u.view_version));
    (void)id;
    return Ok();
  }

  Status ApplyOne(const SetCurrentViewVersion& u) { return SetCurrentVersionId(u.view_version_id); }

  // createView: the schema and the version become current together.
  Status SetCurrentVersion(ViewVersion version, const Schema& schema) {
    version.schema_id = AddSchemaInternal(schema);
    FIRN_ASSIGN_OR_RETURN(int id, AddVersionInternal(std::move(version)));
    return SetCurrentVersionId(id);
  }

  Result<ViewMetadata> Build() {
    if (m_.location.empty()) return IllegalArgument("Invalid location: null");
    if (m_.versions.empty()) return IllegalArgument("Invalid view: no versions were added");
    if (history_entry_) m_.version_log.push_back(*history_entry_);

    if (previous_version_ &&
        !BoolProperty(m_.properties, kReplaceDropDialectAllowedProperty)) {
      std::set<std::string> before = SqlDialects(&*previous_version_);
      std::set<std::string> after = SqlDialects(m_.CurrentVersion());
      if (!std::ranges::includes(after, before)) {
        return IllegalArgument(fmt::format(
            "Cannot replace view due to loss of view dialects ({}=false):\n"
            "Previous dialects: [{}]\nNew dialects: [{}]",
            kReplaceDropDialectAllowedProperty, fmt::join(before, ", "),
            fmt::join(after, ", ")));
      }
    }

    FIRN_ASSIGN_OR_RETURN(int history_size, IntProperty(m_.properties, kVersionHistorySizeProperty,
                                                        kVersionHistorySizeDefault));
    if (history_size <= 0) {
      return IllegalArgument(fmt::format("{} must be positive but was {}",
                                         kVersionHistorySizeProperty, history_size));
    }
    std::set<int> must_keep = added_version_ids_;
    must_keep.insert(m_.current_version_id);
    const size_t keep = std::max(must_keep.size(), static_cast<size_t>(history_size));
    if (m_.versions.size() > keep) ExpireVersions(keep);

    if (m_.view_uuid.empty()) m_.view_uuid = NewUuidV4();
    FIRN_RETURN_IF_ERROR(ValidateViewMetadata(m_));
    return m_;
  }

 private:
  // The id of an identical schema, else max(existing)+1 starting at 0.
  int AddSchemaInternal(const Schema& schema) {
    int new_id = kInitialViewSchemaId;
    for (const Schema& s : m_.schemas) {
      if (SameSchemaStructure(s, schema)) {
        if (added_schema_ids_.contains(s.schema_id)) last_added_schema_id_ = s.schema_id;
        return s.schema_id;
      }
      new_id = std::max(new_id, s.schema_id + 1);
    }
    return AddNew(m_.schemas, Schema(schema), &Schema::schema_id, new_id, added_schema_ids_,
                  last_added_schema_id_);
  }

  // Appends `item` under the fresh id `id`, added in this commit and now "last added".
  template <typename T>
  int AddNew(std::vector<T>& items, T item, int T::*id_member, int id, std::set<int>& added_ids,
             std::optional<int>& last_added) {
    item.*id_member = id;
    items.push_back(std::move(item));
    added_ids.insert(id);
    last_added = id;
    changed_ = true;
    return id;
  }

  static bool SameVersion(const ViewVersion& a, const ViewVersion& b) {
    return a.summary == b.summary && a.representations == b.representations &&
           a.default_catalog == b.default_catalog && a.default_namespace == b.default_namespace &&
           a.schema_id == b.schema_id;
  }

  Result<int> AddVersionInternal(ViewVersion version) {
    FIRN_ASSIGN_OR_RETURN(
        version.schema_id,
        ResolveLastAdded(version.schema_id, last_added_schema_id_,
                         "Cannot set last added schema: no schema has been added"));
    int new_id = kInitialViewVersionId;
    for (const ViewVersion& v : m_.versions) {
      if (SameVersion(v, version)) {
        last_added_version_id_ =
            added_version_ids_.contains(v.version_id) ? std::optional<int>(v.version_id)
                                                      : std::nullopt;
        return v.version_id;
      }
      new_id = std::max(new_id, v.version_id + 1);
    }
    if (m_.FindSchema(version.schema_id) == nullptr) {
      return IllegalArgument(
          fmt::format("Cannot add version with unknown schema: {}", version.schema_id));
    }
    std::set<std::string> dialects;
    for (const ViewRepresentation& rep : version.representations) {
      if (rep.type != kSqlRepresentationType) continue;
      std::string dialect = ToLower(rep.dialect);
      if (!dialects.insert(dialect).second) {
        return IllegalArgument("Invalid view version: Cannot add multiple queries for dialect " +
                               dialect);
      }
    }
    return AddNew(m_.versions, std::move(version), &ViewVersion::version_id, new_id,
                  added_version_ids_, last_added_version_id_);
  }

  Status SetCurrentVersionId(int requested) {
    FIRN_ASSIGN_OR_RETURN(int id,
                          ResolveLastAdded(requested, last_added_version_id_,
                                           "Cannot set last version id: no current version id"));
    if (id == m_.current_version_id) return Ok();
    const ViewVersion* version = m_.FindVersion(id);
    if (version == nullptr) {
      return IllegalArgument(fmt::format("Cannot set current version to unknown version: {}", id));
    }
    m_.current_version_id = id;
    // A version re-activated from the past is logged at the time of the switch.
    history_entry_ = ViewHistoryEntry{
        added_version_ids_.contains(id) ? version->timestamp_ms : now_ms_, id};
    changed_ = true;
    return Ok();
  }

  // Keeps the current version and the newest others, `keep` in all; then drops log entries up to
  // and including the last one that names an expired version, so the log has no gap.
  void ExpireVersions(size_t keep) {
    std::vector<int> ids;
    for (const ViewVersion& v : m_.versions) ids.push_back(v.version_id);
    std::ranges::sort(ids, std::greater<>());
    std::set<int> retained{m_.current_version_id};
    for (int id : ids) {
      if (retained.size() >= keep) break;
      retained.insert(id);
    }
    std::erase_if(m_.versions,
                  [&](const ViewVersion& v) { return !retained.contains(v.version_id); });
    std::vector<ViewHistoryEntry> log;
    for (const ViewHistoryEntry& e : m_.version_log) {
      if (retained.contains(e.version_id)) {
        log.push_back(e);
      } else {
        log.clear();
      }
    }
    m_.version_log = std::move(log);
  }

  ViewMetadata m_;
  int64_t now_ms_;
  bool changed_ = false;
  std::optional<ViewVersion> previous_version_;
  std::optional<int> last_added_schema_id_;
  std::optional<int> last_added_version_id_;
  std::set<int> added_schema_ids_;
  std::set<int> added_version_ids_;
  std::optional<ViewHistoryEntry> history_entry_;
};

}  // namespace

Result<ViewApplyResult> ApplyViewUpdates(const ViewMetadata& base,
                                         const std::vector<ViewUpdate>& updates, int64_t now_ms) {
  Builder builder(&base, now_ms);
  for (const ViewUpdate& update : updates) FIRN_RETURN_IF_ERROR(builder.Apply(update));
  if (!builder.changed()) return ViewApplyResult{base, false};
  FIRN_ASSIGN_OR_RETURN(ViewMetadata built, builder.Build());
  return ViewApplyResult{std::move(built), true};
}

Result<ViewMetadata> NewViewMetadata(const CreateViewInput& in, int64_t now_ms) {
  FIRN_ASSIGN_OR_RETURN(Schema schema, SchemaFromJson(in.schema));
  FIRN_ASSIGN_OR_RETURN(ViewVersion version, ViewVersionFromJson(in.view_version));
  if (version.representations.empty()) {
    return IllegalArgument("Cannot create view without specifying a query");
  }
  Builder builder(nullptr, now_ms);
  FIRN_RETURN_IF_ERROR(builder.ApplyOne(SetProperties{in.properties}));
  FIRN_RETURN_IF_ERROR(builder.ApplyOne(SetLocation{in.location}));
  FIRN_RETURN_IF_ERROR(builder.SetCurrentVersion(std::move(version), schema));
  return builder.Build();
}

}  // namespace firn::metadata
