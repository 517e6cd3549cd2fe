#include "access/object_grants.h"

#include <boost/json.hpp>
#include <spdlog/spdlog.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "access/access_records.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::access {
namespace {

using store::AccessKind;
using store::AccessRecord;
using store::AccessWrite;
using store::GrantsChange;

auth::SecurableType TypeOf(store::ObjectKind kind) {
  return kind == store::ObjectKind::kTable ? auth::SecurableType::kTable
                                           : auth::SecurableType::kView;
}

// The privilege grants in `records` on exactly this securable (undecodable rows are left alone:
// the snapshot skips them too).
std::vector<std::pair<const AccessRecord*, PrivilegeGrantInfo>> GrantsOn(
    const std::vector<AccessRecord>& records, auth::SecurableType type,
    const store::Namespace& ns, std::string_view name) {
  std::vector<std::pair<const AccessRecord*, PrivilegeGrantInfo>> out;
  for (const AccessRecord& record : records) {
    if (record.kind != AccessKind::kPrivilegeGrant) continue;
    auto grant = DecodePrivilegeGrant(record);
    if (!grant || grant->type != type || grant->namespace_levels != ns || grant->name != name) {
      continue;
    }
    out.emplace_back(&record, std::move(*grant));
  }
  return out;
}

AccessWrite DeleteOf(const AccessRecord& record) {
  AccessWrite w;
  w.op = AccessWrite::Op::kDelete;
  w.record = record;
  w.expected_version = record.entity_version;
  return w;
}

AccessWrite UpsertOf(std::string_view realm, const PrivilegeGrantInfo& grant) {
  AccessWrite w;
  w.op = AccessWrite::Op::kUpsert;
  w.record = EncodePrivilegeGrant(realm, grant);
  return w;
}

}  // namespace

store::GrantsPlan StoredObjectGrants::Rename(const store::CatalogScope& scope,
                                             store::ObjectKind kind,
                                             const store::Identifier& from,
                                             const store::Identifier& to) const {
  return [scope, kind, from, to](const std::vector<AccessRecord>& records,
                                 std::string_view) -> Result<GrantsChange> {
    GrantsChange change;
    for (auto& [record, grant] : GrantsOn(records, TypeOf(kind), from.ns, from.name)) {
      change.writes.push_back(DeleteOf(*record));
      grant.namespace_levels = to.ns;
      grant.name = to.name;
      change.writes.push_back(UpsertOf(scope.realm, grant));
    }
    return change;
  };
}

store::GrantsPlan StoredObjectGrants::Drop(const store::CatalogScope&, store::ObjectKind kind,
                                           const store::Identifier& id, bool keep) const {
  return [kind, id, keep](const std::vector<AccessRecord>& records,
                          std::string_view) -> Result<GrantsChange> {
    GrantsChange change;
    boost::json::array kept;
    for (const auto& [record, grant] : GrantsOn(records, TypeOf(kind), id.ns, id.name)) {
      change.writes.push_back(DeleteOf(*record));
      kept.push_back(boost::json::object{{"grantee", grant.grantee},
                                         {"privilege", auth::PrivilegeName(grant.privilege)}});
    }
    if (keep && !kept.empty()) change.stash = boost::json::serialize(kept);
    return change;
  };
}

store::GrantsPlan StoredObjectGrants::Restore(const store::CatalogScope& scope,
                                              store::ObjectKind kind,
                                              const store::Identifier& target) const {
  return [scope, kind, target](const std::vector<AccessRecord>& records,
                               std::string_view stash) -> Result<GrantsChange> {
    GrantsChange change;
    if (stash.empty()) return change;
    boost::system::error_code ec;
    const boost::json::value doc = boost::json::parse(stash, ec);
    if (ec || !doc.is_array()) {
      // Never fatal for the undrop: the object comes back, without the grants it cannot read.
      spdlog::warn(R"("msg":"dropped object's grants unreadable; restored without them")");
      return change;
    }
    std::set<std::string> roles;
    for (const AccessRecord& record : records) {
      if (record.kind == AccessKind::kCatalogRole) roles.insert(record.name);
    }
    for (const boost::json::value& item : doc.as_array()) {
      const auto* o = item.if_object();
      const auto* grantee = o ? o->if_contains("grantee") : nullptr;
      const auto* privilege = o ? o->if_contains("privilege") : nullptr;
      if (!grantee || !grantee->is_string() || !privilege || !privilege->is_string()) continue;
      auto parsed = auth::ParsePrivilege(privilege->as_string());
      // A role deleted meanwhile does not come back through its old grants.
      if (!parsed || !roles.contains(std::string(grantee->as_string()))) continue;
      PrivilegeGrantInfo grant;
      grant.catalog = scope.catalog;
      grant.grantee = std::string(grantee->as_string());
      grant.type = TypeOf(kind);
      grant.namespace_levels = target.ns;
      grant.name = target.name;
      grant.privilege = *parsed;
      if (!ValidatePrivilegeGrant(grant)) continue;
      change.writes.push_back(UpsertOf(scope.realm, grant));
    }
    return change;
  };
}

store::GrantsPlan StoredObjectGrants::DropNamespace(const store::CatalogScope&,
                                                    const store::Namespace& ns) const {
  return [ns](const std::vector<AccessRecord>& records,
              std::string_view) -> Result<GrantsChange> {
    GrantsChange change;
    for (const auto& [record, grant] : GrantsOn(records, auth::SecurableType::kNamespace, ns, "")) {
      change.writes.push_back(DeleteOf(*record));
    }
    return change;
  };
}

void StoredObjectGrants::Changed() const {
  if (state_ == nullptr) return;
  if (auto st = state_->Refresh(); !st) {
    spdlog::warn(R"("msg":"access refresh after a grants change failed","error":"{}")",
                 log::Escape(st.error().message));
  }
}

}  // namespace firn::access
