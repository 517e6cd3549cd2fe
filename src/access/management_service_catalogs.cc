// ManagementService: catalogs (list, create, get, update, delete).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

#include "access/management_service.h"
#include "access/management_service_internal.h"
#include "catalog/location_ownership.h"
#include "catalog/schema_policy.h"
#include "catalog/soft_delete.h"
#include "common/clock.h"
#include "common/macros.h"
#include "common/strings.h"

namespace firn::access {
namespace {

using auth::Privilege;
namespace json = boost::json;

constexpr std::string_view kStorageTypes[] = {"S3", "GCS", "AZURE", "FILE"};
// Fields derived from the record, never stored in the body.
constexpr std::string_view kDerivedFields[] = {"entityVersion", "createTimestamp",
                                               "lastUpdateTimestamp"};

std::string Object(std::string_view catalog) { return "catalog " + std::string(catalog); }

Result<Properties> StringProperties(const json::value* v) {
  Properties out;
  if (!v || v->is_null()) return out;
  if (!v->is_object()) {
    return Fail(ErrorKind::kBadRequest, "Invalid catalog: 'properties' must be an object");
  }
  for (const auto& [k, val] : v->as_object()) {
    if (!val.is_string()) {
      return Fail(ErrorKind::kBadRequest,
                  "Invalid catalog: property '" + std::string(k) + "' must be a string");
    }
    out.emplace(std::string(k), std::string(val.as_string()));
  }
  return out;
}

// Firn's own catalog settings, checked where they are set rather than when first used.
Status CheckFirnSettings(const Properties& props) {
  FIRN_RETURN_IF_ERROR(catalog::CheckSchemaEvolutionProperty("catalog", props));
  if (auto it = props.find(std::string(catalog::kDropRetentionProperty)); it != props.end()) {
    FIRN_RETURN_IF_ERROR(catalog::ParseDuration(it->second));
  }
  return Ok();
}

json::object PropertiesJson(const Properties& p) {
  json::object o;
  for (const auto& [k, v] : p) o[k] = v;
  return o;
}

Status ValidateStorage(const json::value* v, const std::set<std::string>& storage_names) {
  if (!v || !v->is_object()) {
    return Fail(ErrorKind::kBadRequest, "Invalid catalog: 'storageConfigInfo' is required");
  }
  const json::object& s = v->as_object();
  const json::value* type = s.if_contains("storageType");
  if (!type || !type->is_string() ||
      std::find(std::begin(kStorageTypes), std::end(kStorageTypes),
                std::string_view(type->as_string())) == std::end(kStorageTypes)) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid catalog: storageConfigInfo.storageType must be one of S3, GCS, AZURE, "
                "FILE");
  }
  // The keys Firn uses to reach the store are server-side settings, named by storageName;
  // a body that tries to carry one is refused before anything is stored or logged.
  for (const auto& [key, value] : s) {
    const std::string lower = ToLower(key);
    for (std::string_view word : {"secret", "accesskey", "access-key", "access_key",
                                  "sessiontoken", "session-token", "password", "credential"}) {
      if (lower.find(word) != std::string::npos) {
        return Fail(ErrorKind::kBadRequest,
                    "Invalid catalog: storageConfigInfo may not carry storage keys ('" +
                        std::string(key) +
                        "'); the server's keys are named by storageName in its configuration");
      }
    }
  }
  for (std::string_view key : {"roleArn", "externalId", "region", "endpoint", "endpointInternal",
                               "stsEndpoint", "storageName"}) {
    const json::value* f = s.if_contains(key);
    if (f && !f->is_null() && !f->is_string()) {
      return Fail(ErrorKind::kBadRequest, "Invalid catalog: storageConfigInfo." +
                                              std::string(key) + " must be a string");
    }
  }
  for (std::string_view key : {"pathStyleAccess", "stsUnavailable"}) {
    const json::value* f = s.if_contains(key);
    if (f && !f->is_null() && !f->is_bool()) {
      return Fail(ErrorKind::kBadRequest, "Invalid catalog: storageConfigInfo." +
                                              std::string(key) + " must be a boolean");
    }
  }
  for (std::string_view key : {"endpoint", "endpointInternal", "stsEndpoint"}) {
    const json::value* f = s.if_contains(key);
    if (f && f->is_string() && !f->as_string().empty()) {
      const std::string_view e = f->as_string();
      const std::string_view rest = e.starts_with("https://") ? e.substr(8)
                                    : e.starts_with("http://") ? e.substr(7)
                                                               : std::string_view();
      if (rest.empty() || rest.find_first_of("/?#@ ") != std::string_view::npos) {
        return Fail(ErrorKind::kBadRequest, "Invalid catalog: storageConfigInfo." +
                                                std::string(key) +
                                                " must be http(s)://host[:port]");
      }
    }
  }
  if (const json::value* n = s.if_contains("storageName");
      n && n->is_string() && !n->as_string().empty() &&
      !storage_names.contains(std::string(n->as_string()))) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid catalog: storageConfigInfo.storageName '" +
                    std::string(n->as_string()) +
                    "' names no server-side key set of this server (s3-key-sets)");
  }
  if (const json::value* a = s.if_contains("allowedLocations"); a && !a->is_null()) {
    if (!a->is_array()) {
      return Fail(ErrorKind::kBadRequest,
                  "Invalid catalog: storageConfigInfo.allowedLocations must be an array");
    }
    for (const auto& l : a->as_array()) {
      if (!l.is_string() || l.as_string().empty()) {
        return Fail(ErrorKind::kBadRequest,
                    "Invalid catalog: allowedLocations entries must be non-empty strings");
      }
    }
  }
  return Ok();
}

std::string_view StorageType(const json::object& body) {
  const json::value* s = body.if_contains("storageConfigInfo");
  if (!s || !s->is_object()) return {};
  const json::value* t = s->as_object().if_contains("storageType");
  return t && t->is_string() ? std::string_view(t->as_string()) : std::string_view();
}

json::object WithVersions(json::object body, int64_t version, int64_t created, int64_t updated) {
  body["entityVersion"] = version;
  body["createTimestamp"] = created;
  body["lastUpdateTimestamp"] = updated;
  return body;
}

json::object ResponseOf(const CatalogEntry& e) {
  boost::system::error_code ec;
  json::value v = json::parse(e.body, ec);
  json::object body = (!ec && v.is_object()) ? std::move(v.as_object()) : json::object();
  return WithVersions(std::move(body), e.entity_version, e.created_ms, e.updated_ms);
}

const CatalogEntry* FindEntry(const RealmState& realm, std::string_view name) {
  auto it = realm.catalogs.find(name);
  return it == realm.catalogs.end() ? nullptr : &it->second;
}

// What decides where a catalog's data may go: only a service admin may change it.
bool SameStorage(const catalog::CatalogInfo& a, const catalog::CatalogInfo& b) {
  auto shared = [](const catalog::CatalogInfo& c) {
    auto it = c.properties.find(std::string(catalog::kSharedLocationsProperty));
    return it == c.properties.end() ? std::string() : it->second;
  };
  return a.base_location == b.base_location && a.allowed_locations == b.allowed_locations &&
         a.storage_type == b.storage_type && a.storage == b.storage && shared(a) == shared(b);
}

}  // namespace

std::vector<std::string> ManagementService::VisibleCatalogs(const ManagementContext& ctx) const {
  auto snap = ReadSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  // Everything with the rule's privilege on the service, else the catalogs where the caller
  // holds it (or something satisfying it) or holds any catalog role.
  const auth::PrivilegeSet& list = auth::RuleOf(auth::Operation::kListCatalogs).on_target;
  bool all = Holds(ctx, list, Root(ctx));
  std::vector<std::string> roles;
  std::vector<CatalogRoleAssignment> links;
  if (!all) {
    roles = ActiveRoles(ctx, *snap);
    links = mgmt::CatalogRoleLinks(realm);
  }
  auto holds_role_in = [&](const std::string& catalog) {
    for (const auto& l : links) {
      if (l.catalog == catalog &&
          std::find(roles.begin(), roles.end(), l.principal_role) != roles.end()) {
        return true;
      }
    }
    return false;
  };
  std::vector<std::string> out;
  for (const auto& [name, entry] : realm.catalogs) {
    if (all || Holds(ctx, list, OnCatalog(ctx, name)) || holds_role_in(name)) {
      out.push_back(name);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::vector<json::object>> ManagementService::ListCatalogs(const ManagementContext& ctx) {
  auto snap = ReadSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  std::vector<json::object> result;
  for (const std::string& name : VisibleCatalogs(ctx)) {
    if (auto it = realm.catalogs.find(name); it != realm.catalogs.end()) {
      result.push_back(ResponseOf(it->second));
    }
  }
  return result;
}

Result<json::object> ManagementService::CreateCatalog(const ManagementContext& ctx,
                                                      const json::object& catalog) {
  static constexpr auth::Operation kOp = auth::Operation::kCreateCatalog;
  const json::value* name_v = catalog.if_contains("name");
  std::string name = name_v && name_v->is_string() ? std::string(name_v->as_string()) : "";
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, name, Object(name)));
  if (!name_v || !name_v->is_string()) {
    return Fail(ErrorKind::kBadRequest, "Invalid catalog: 'name' is required");
  }
  FIRN_RETURN_IF_ERROR(mgmt::ValidateName("catalog", name));
  json::object body = catalog;
  for (std::string_view f : kDerivedFields) body.erase(f);
  if (const json::value* t = body.if_contains("type"); !t || t->is_null()) {
    body["type"] = "INTERNAL";
  } else if (!t->is_string() || (t->as_string() != "INTERNAL" && t->as_string() != "EXTERNAL")) {
    return Fail(ErrorKind::kBadRequest, "Invalid catalog: 'type' must be INTERNAL or EXTERNAL");
  } else if (t->as_string() == "EXTERNAL") {
    return Fail(ErrorKind::kBadRequest,
                "EXTERNAL catalogs are not supported by Firn; create an INTERNAL catalog");
  }
  FIRN_ASSIGN_OR_RETURN(Properties props, StringProperties(body.if_contains("properties")));
  FIRN_RETURN_IF_ERROR(CheckFirnSettings(props));
  auto base = props.find("default-base-location");
  if (base == props.end() || base->second.empty()) {
    return Fail(ErrorKind::kBadRequest,
                "Invalid catalog: properties.default-base-location is required");
  }
  FIRN_RETURN_IF_ERROR(ValidateStorage(body.if_contains("storageConfigInfo"), options_.storage_names));
  std::string body_json = json::serialize(body);
  FIRN_ASSIGN_OR_RETURN(catalog::CatalogInfo info, CatalogInfoFromBody(name, body_json));
  // Inside the operator's storage roots and apart from every other catalog, in every realm.
  auto claim = catalog::CheckedCatalogClaim(catalogs_, ctx.realm, info, options_.storage_roots);
  if (!claim) {
    AuditFailure(ctx, kOp, name, Object(name), claim.error());
    return Fail(claim.error());
  }

  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  if (FindEntry(realm, name)) {
    Error e(ErrorKind::kAlreadyExists, "Catalog already exists: " + name);
    AuditFailure(ctx, kOp, name, Object(name), e);
    return std::unexpected(std::move(e));
  }

  std::vector<store::AccessWrite> writes;
  writes.push_back(mgmt::Create(EncodeCatalog(ctx.realm, name, body_json)));
  writes.back().claim = std::move(*claim);
  // Polaris gives every new catalog a catalog_admin role held by service_admin.
  RoleInfo admin;
  admin.name = std::string(kCatalogAdminRole);
  admin.catalog = name;
  writes.push_back(mgmt::Create(EncodeCatalogRole(ctx.realm, admin)));
  for (Privilege p : {Privilege::kCATALOG_MANAGE_ACCESS, Privilege::kCATALOG_MANAGE_CONTENT}) {
    PrivilegeGrantInfo g;
    g.catalog = name;
    g.grantee = admin.name;
    g.type = auth::SecurableType::kCatalog;
    g.privilege = p;
    store::AccessWrite w = mgmt::Create(EncodePrivilegeGrant(ctx.realm, g));
    w.op = store::AccessWrite::Op::kUpsert;
    writes.push_back(std::move(w));
  }
  if (realm.principal_roles.contains(kServiceAdminRole)) {
    store::AccessWrite w = mgmt::Create(EncodeCatalogRoleGrant(
        ctx.realm, {name, std::string(kServiceAdminRole), admin.name}));
    w.op = store::AccessWrite::Op::kUpsert;
    writes.push_back(std::move(w));
  }
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, name, Object(name), writes));

  if (const CatalogEntry* e = FindEntry(mgmt::RealmOf(*state_.Current(), ctx.realm), name)) {
    return ResponseOf(*e);
  }
  int64_t now = NowMillis();
  return WithVersions(std::move(body), 1, now, now);
}

Result<json::object> ManagementService::GetCatalog(const ManagementContext& ctx,
                                                   std::string_view name) {
  FIRN_RETURN_IF_ERROR(Require(ctx, auth::Operation::kGetCatalog, name));
  auto snap = ReadSnapshot();
  const CatalogEntry* e = FindEntry(mgmt::RealmOf(*snap, ctx.realm), name);
  if (!e) return mgmt::NotFound("Catalog", name);
  return ResponseOf(*e);
}

Result<json::object> ManagementService::UpdateCatalog(const ManagementContext& ctx,
                                                      std::string_view name,
                                                      const CatalogUpdate& update) {
  static constexpr auth::Operation kOp = auth::Operation::kUpdateCatalog;
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, name, Object(name)));
  auto snap = WriteSnapshot();
  const CatalogEntry* e = FindEntry(mgmt::RealmOf(*snap, ctx.realm), name);
  if (!e) return mgmt::NotFound("Catalog", name);
  if (update.current_entity_version && *update.current_entity_version != e->entity_version) {
    Error err(ErrorKind::kCommitFailed,
              "The entity version doesn't match the currentEntityVersion of " + Object(name) +
                  "; retry after fetching the latest version");
    AuditFailure(ctx, kOp, name, Object(name), err);
    return std::unexpected(std::move(err));
  }
  json::object body = ResponseOf(*e);
  for (std::string_view f : kDerivedFields) body.erase(f);
  if (update.properties) {
    Properties props = *update.properties;
    // Like Polaris: the base location stays unless the update names a new one.
    if (!props.contains("default-base-location")) {
      auto old = e->info->properties.find("default-base-location");
      if (old != e->info->properties.end()) props.emplace(old->first, old->second);
    }
    if (props["default-base-location"].empty()) {
      return Fail(ErrorKind::kBadRequest,
                  "Invalid catalog: properties.default-base-location must not be empty");
    }
    FIRN_RETURN_IF_ERROR(CheckFirnSettings(props));
    body["properties"] = PropertiesJson(props);
  }
  if (update.storage_config_info) {
    json::value storage = *update.storage_config_info;
    FIRN_RETURN_IF_ERROR(ValidateStorage(&storage, options_.storage_names));
    std::string_view old_type = StorageType(body);
    std::string_view new_type = storage.as_object().at("storageType").as_string();
    if (!old_type.empty() && old_type != new_type) {
      return Fail(ErrorKind::kBadRequest, "Cannot change the storage type of a catalog from " +
                                              std::string(old_type) + " to " +
                                              std::string(new_type));
    }
    body["storageConfigInfo"] = std::move(storage);
  }
  const std::string body_json = json::serialize(body);
  FIRN_ASSIGN_OR_RETURN(catalog::CatalogInfo next, CatalogInfoFromBody(name, body_json));
  // Where the catalog's data may go is the service's, not the catalog's, to decide: moving the
  // base or the allowed locations (or sharing locations) needs SERVICE_MANAGE_ACCESS, so a
  // CATALOG_MANAGE_CONTENT holder cannot widen the catalog to the host.
  if (!SameStorage(*e->info, next)) {
    FIRN_RETURN_IF_ERROR(
        RequireForWrite(ctx, auth::Operation::kUpdateCatalogStorage, name, Object(name)));
  }
  auto claim = catalog::CheckedCatalogClaim(catalogs_, ctx.realm, next, options_.storage_roots);
  if (!claim) {
    AuditFailure(ctx, kOp, name, Object(name), claim.error());
    return Fail(claim.error());
  }
  std::vector<store::AccessWrite> writes{
      mgmt::Update(EncodeCatalog(ctx.realm, name, body_json), e->entity_version)};
  writes.back().claim = std::move(*claim);
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, name, Object(name), writes));
  if (const CatalogEntry* now = FindEntry(mgmt::RealmOf(*state_.Current(), ctx.realm), name)) {
    return ResponseOf(*now);
  }
  return WithVersions(std::move(body), e->entity_version + 1, e->created_ms, NowMillis());
}

Status ManagementService::DeleteCatalog(const ManagementContext& ctx, std::string_view name) {
  static constexpr auth::Operation kOp = auth::Operation::kDeleteCatalog;
  FIRN_RETURN_IF_ERROR(RequireForWrite(ctx, kOp, name, Object(name)));
  auto snap = WriteSnapshot();
  const RealmState& realm = mgmt::RealmOf(*snap, ctx.realm);
  const CatalogEntry* e = FindEntry(realm, name);
  if (!e) return mgmt::NotFound("Catalog", name);
  store::PageRequest one;
  one.size = 1;
  FIRN_ASSIGN_OR_RETURN(auto page, catalogs_.ListNamespaces(
                                       store::CatalogScope{ctx.realm, std::string(name)}, {}, one));
  if (!page.items.empty()) {
    // Polaris answers a non-empty catalog with 400 BadRequest.
    Error err(ErrorKind::kBadRequest,
              "Catalog '" + std::string(name) + "' cannot be dropped, it is not empty");
    AuditFailure(ctx, kOp, name, Object(name), err);
    return std::unexpected(std::move(err));
  }
  std::vector<store::AccessWrite> writes{
      mgmt::Delete(EncodeCatalog(ctx.realm, name, ""), e->entity_version)};
  // Everything scoped to the catalog goes with it: its roles, their assignments and grants.
  if (auto roles = realm.catalog_roles.find(name); roles != realm.catalog_roles.end()) {
    for (const auto& [role_name, role] : roles->second) {
      writes.push_back(mgmt::Delete(EncodeCatalogRole(ctx.realm, role), std::nullopt));
    }
  }
  for (const auto& link : realm.links) {
    if (link.scope == name && (link.kind == store::AccessKind::kCatalogRoleGrant ||
                               link.kind == store::AccessKind::kPrivilegeGrant)) {
      writes.push_back(mgmt::Delete(link, std::nullopt));
    }
  }
  FIRN_RETURN_IF_ERROR(Apply(ctx, kOp, name, Object(name), writes));
  return Ok();
}

}  // namespace firn::access
