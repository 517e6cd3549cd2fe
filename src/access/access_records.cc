#include "access/access_records.h"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "common/macros.h"

namespace firn::access {
namespace {

using store::AccessKind;
using store::AccessRecord;

std::unexpected<Error> BadRow(const AccessRecord& r, std::string_view why) {
  return Fail(ErrorKind::kIllegalArgument, "Malformed access record",
              std::string(store::AccessKindName(r.kind)) + " '" + r.realm + "/" + r.scope + "/" +
                  r.name + "': " + std::string(why));
}

AccessRecord Record(std::string_view realm, AccessKind kind, std::string_view scope,
                    std::string name, std::string body) {
  AccessRecord r;
  r.realm = std::string(realm);
  r.kind = kind;
  r.scope = std::string(scope);
  r.name = std::move(name);
  r.body = std::move(body);
  return r;
}

Result<boost::json::object> ParseBody(const AccessRecord& r, AccessKind want) {
  if (r.kind != want) return BadRow(r, "unexpected kind");
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(r.body.empty() ? std::string_view("{}") : r.body, ec);
  if (ec || !v.is_object()) return BadRow(r, "body is not a JSON object");
  return std::move(v.as_object());
}

std::string Str(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

int64_t Int(const boost::json::object& o, std::string_view key, int64_t fallback = 0) {
  const auto* v = o.if_contains(key);
  if (!v) return fallback;
  if (v->is_int64()) return v->as_int64();
  if (v->is_uint64()) return static_cast<int64_t>(v->as_uint64());
  if (v->is_double()) return static_cast<int64_t>(v->as_double());
  return fallback;
}

bool Bool(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_bool() && v->as_bool();
}

boost::json::object PropsToJson(const Properties& p) {
  boost::json::object o;
  for (const auto& [k, v] : p) o[k] = v;
  return o;
}

Properties PropsFromJson(const boost::json::object& o, std::string_view key) {
  Properties out;
  const auto* v = o.if_contains(key);
  if (!v || !v->is_object()) return out;
  for (const auto& [k, val] : v->as_object()) {
    if (val.is_string()) {
      out.emplace(std::string(k), std::string(val.as_string()));
    } else {
      out.emplace(std::string(k), boost::json::serialize(val));
    }
  }
  return out;
}

std::vector<std::string> StrArray(const boost::json::object& o, std::string_view key) {
  std::vector<std::string> out;
  const auto* v = o.if_contains(key);
  if (!v || !v->is_array()) return out;
  for (const auto& e : v->as_array()) {
    if (e.is_string()) out.emplace_back(e.as_string());
  }
  return out;
}

void Stamp(const AccessRecord& r, int64_t& version, int64_t& created, int64_t& updated) {
  version = r.entity_version;
  created = r.created_ms;
  updated = r.updated_ms;
}

}  // namespace

std::optional<auth::SecurableType> ParseSecurableTypeKey(std::string_view s) {
  for (auto t : {auth::SecurableType::kRoot, auth::SecurableType::kCatalog,
                 auth::SecurableType::kNamespace, auth::SecurableType::kTable,
                 auth::SecurableType::kView}) {
    if (SecurableTypeKey(t) == s) return t;
  }
  return std::nullopt;
}

std::string_view SecurableTypeKey(auth::SecurableType t) {
  switch (t) {
    case auth::SecurableType::kRoot: return "root";
    case auth::SecurableType::kCatalog: return "catalog";
    case auth::SecurableType::kNamespace: return "namespace";
    case auth::SecurableType::kTable: return "table";
    case auth::SecurableType::kView: return "view";
  }
  return "root";
}

std::string JoinName(std::string_view a, std::string_view b) {
  std::string s(a);
  s.push_back(kNameSeparator);
  s.append(b);
  return s;
}

Result<std::pair<std::string, std::string>> SplitName(std::string_view name) {
  size_t i = name.find(kNameSeparator);
  if (i == std::string_view::npos || i == 0 || i + 1 == name.size()) {
    return Fail(ErrorKind::kIllegalArgument, "Malformed access record name");
  }
  return std::pair{std::string(name.substr(0, i)), std::string(name.substr(i + 1))};
}

// --- realm

AccessRecord EncodeRealm(std::string_view realm, int64_t created_ms) {
  boost::json::object o;
  o["created_ms"] = created_ms;
  return Record(realm, AccessKind::kRealm, "", std::string(realm), boost::json::serialize(o));
}

// --- signing key

namespace {

// What the seal binds a signing key to: its realm, kid and algorithm (JSON, so no separator
// can be smuggled inside a name).
std::string SigningKeyAssociatedData(std::string_view realm, std::string_view kid,
                                     std::string_view alg) {
  boost::json::array a{"firn signing key v1", realm, kid, alg};
  return boost::json::serialize(a);
}

}  // namespace

Result<AccessRecord> EncodeSigningKey(std::string_view realm, const auth::StoredKey& key,
                                      const auth::KeyEncryptionKeys& keks) {
  const auth::KeyEncryptionKey& kek = keks.primary();
  FIRN_ASSIGN_OR_RETURN(std::string sealed,
                        kek.Seal(key.private_key_pem,
                                 SigningKeyAssociatedData(realm, key.kid, key.alg)));
  boost::json::object o;
  o["alg"] = key.alg;
  o["kek_id"] = kek.id();
  o["sealed_private_key"] = std::move(sealed);
  o["created_at"] = key.created_at;
  o["active"] = key.active;
  o["verify_until"] = key.verify_until;
  return Record(realm, AccessKind::kSigningKey, "", key.kid, boost::json::serialize(o));
}

namespace {

// Every field but the key itself; `o` is the parsed body.
Result<SigningKeyRow> SigningKeyFields(const AccessRecord& r, const boost::json::object& o) {
  SigningKeyRow row;
  row.key.kid = r.name;
  row.key.alg = Str(o, "alg");
  row.key.created_at = Int(o, "created_at");
  row.key.active = Bool(o, "active");
  row.key.verify_until = Int(o, "verify_until");
  row.kek_id = Str(o, "kek_id");
  if (row.key.alg.empty()) return BadRow(r, "missing alg");
  if (Str(o, row.kek_id.empty() ? "private_key_pem" : "sealed_private_key").empty()) {
    return BadRow(r, "missing key");
  }
  return row;
}

}  // namespace

Result<SigningKeyRow> InspectSigningKey(const AccessRecord& r) {
  FIRN_ASSIGN_OR_RETURN(auto o, ParseBody(r, AccessKind::kSigningKey));
  return SigningKeyFields(r, o);
}

Result<auth::StoredKey> DecodeSigningKey(const AccessRecord& r,
                                         const auth::KeyEncryptionKeys& keks) {
  FIRN_ASSIGN_OR_RETURN(auto o, ParseBody(r, AccessKind::kSigningKey));
  FIRN_ASSIGN_OR_RETURN(SigningKeyRow row, SigningKeyFields(r, o));
  if (row.kek_id.empty()) {  // written by a version before sealing
    row.key.private_key_pem = Secret(Str(o, "private_key_pem"));
    return std::move(row.key);
  }
  const std::string where = "signing key '" + r.realm + "/" + r.name + "', KEK " + row.kek_id;
  const auth::KeyEncryptionKey* kek = keks.Find(row.kek_id);
  if (kek == nullptr) {
    return Fail(ErrorKind::kNotAuthorized,
                "Signing key is sealed with a key-encryption key this process does not hold",
                where);
  }
  auto pem = kek->Open(Str(o, "sealed_private_key"),
                       SigningKeyAssociatedData(r.realm, r.name, row.key.alg));
  if (!pem) {
    return Fail(ErrorKind::kNotAuthorized,
                "Signing key does not open with its key-encryption key (wrong KEK or a "
                "tampered row)",
                where);
  }
  row.key.private_key_pem = std::move(*pem);
  return std::move(row.key);
}

// --- principal

AccessRecord EncodePrincipal(std::string_view realm, const PrincipalInfo& p) {
  boost::json::object o;
  o["id"] = p.id;
  o["client_id"] = p.client_id;
  o["secret_hash"] = p.secret_hash;
  o["previous_secret_hash"] = p.previous_secret_hash;
  o["credential_version"] = p.credential_version;
  o["properties"] = PropsToJson(p.properties);
  return Record(realm, AccessKind::kPrincipal, "", p.name, boost::json::serialize(o));
}

Result<PrincipalInfo> DecodePrincipal(const AccessRecord& r) {
  FIRN_ASSIGN_OR_RETURN(auto o, ParseBody(r, AccessKind::kPrincipal));
  PrincipalInfo p;
  p.name = r.name;
  p.id = Str(o, "id");
  p.client_id = Str(o, "client_id");
  p.secret_hash = Str(o, "secret_hash");
  p.previous_secret_hash = Str(o, "previous_secret_hash");
  p.credential_version = Int(o, "credential_version", 1);
  p.properties = PropsFromJson(o, "properties");
  Stamp(r, p.entity_version, p.created_ms, p.updated_ms);
  if (p.id.empty() || p.client_id.empty()) return BadRow(r, "missing id or client_id");
  return p;
}

// --- principal role

AccessRecord EncodePrincipalRole(std::string_view realm, const RoleInfo& role) {
  boost::json::object o;
  o["properties"] = PropsToJson(role.properties);
  o["federated"] = role.federated;
  return Record(realm, AccessKind::kPrincipalRole, "", role.name, boost::json::serialize(o));
}

Result<RoleInfo> DecodePrincipalRole(const AccessRecord& r) {
  FIRN_ASSIGN_OR_RETURN(auto o, ParseBody(r, AccessKind::kPrincipalRole));
  RoleInfo role;
  role.name = r.name;
  role.properties = PropsFromJson(o, "properties");
  role.federated = Bool(o, "federated");
  Stamp(r, role.entity_version, role.created_ms, role.updated_ms);
  return role;
}

// --- catalog

AccessRecord EncodeCatalog(std::string_view realm, std::string_view name, std::string body) {
  return Record(realm, AccessKind::kCatalog, "", std::string(name), std::move(body));
}

std::string CatalogBodyFromInfo(const catalog::CatalogInfo& info) {
  boost::json::object o;
  o["type"] = "INTERNAL";
  o["name"] = info.name;
  Properties props = info.properties;
  if (!info.base_location.empty()) props["default-base-location"] = info.base_location;
  o["properties"] = PropsToJson(props);
  boost::json::object storage;
  storage["storageType"] = info.storage_type.empty() ? "FILE" : info.storage_type;
  boost::json::array allowed;
  for (const auto& l : info.allowed_locations) allowed.emplace_back(l);
  if (allowed.empty() && !info.base_location.empty()) allowed.emplace_back(info.base_location);
  storage["allowedLocations"] = std::move(allowed);
  const catalog::StorageProfile& p = info.storage;
  auto put = [&storage](std::string_view key, const std::string& value) {
    if (!value.empty()) storage[key] = value;
  };
  put("roleArn", p.role_arn);
  put("externalId", p.external_id);
  put("region", p.region);
  put("endpoint", p.endpoint);
  put("endpointInternal", p.endpoint_internal);
  put("stsEndpoint", p.sts_endpoint);
  put("storageName", p.storage_name);
  if (p.path_style_access) storage["pathStyleAccess"] = true;
  if (p.sts_unavailable) storage["stsUnavailable"] = true;
  o["storageConfigInfo"] = std::move(storage);
  return boost::json::serialize(o);
}

Result<catalog::CatalogInfo> CatalogInfoFromBody(std::string_view name, std::string_view body) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(body, ec);
  if (ec || !v.is_object()) {
    return Fail(ErrorKind::kIllegalArgument, "Catalog body is not a JSON object");
  }
  const auto& o = v.as_object();
  catalog::CatalogInfo info;
  info.name = std::string(name);
  info.properties = PropsFromJson(o, "properties");
  if (auto it = info.properties.find("default-base-location"); it != info.properties.end()) {
    info.base_location = it->second;
  }
  if (const auto* s = o.if_contains("storageConfigInfo"); s && s->is_object()) {
    std::string type = Str(s->as_object(), "storageType");
    if (!type.empty()) info.storage_type = type;
    const boost::json::object& so = s->as_object();
    info.allowed_locations = StrArray(so, "allowedLocations");
    catalog::StorageProfile& p = info.storage;
    p.role_arn = Str(so, "roleArn");
    p.external_id = Str(so, "externalId");
    p.region = Str(so, "region");
    p.endpoint = Str(so, "endpoint");
    p.endpoint_internal = Str(so, "endpointInternal");
    p.sts_endpoint = Str(so, "stsEndpoint");
    p.storage_name = Str(so, "storageName");
    p.path_style_access = Bool(so, "pathStyleAccess");
    p.sts_unavailable = Bool(so, "stsUnavailable");
  }
  return info;
}

Result<CatalogEntry> DecodeCatalog(const AccessRecord& r) {
  if (r.kind != AccessKind::kCatalog) return BadRow(r, "unexpected kind");
  auto info = CatalogInfoFromBody(r.name, r.body);
  if (!info) return BadRow(r, info.error().message);
  CatalogEntry e;
  e.info = std::make_shared<const catalog::CatalogInfo>(std::move(*info));
  e.body = r.body;
  Stamp(r, e.entity_version, e.created_ms, e.updated_ms);
  return e;
}

// --- catalog role

AccessRecord EncodeCatalogRole(std::string_view realm, const RoleInfo& role) {
  boost::json::object o;
  o["properties"] = PropsToJson(role.properties);
  return Record(realm, AccessKind::kCatalogRole, role.catalog, role.name,
                boost::json::serialize(o));
}

Result<RoleInfo> DecodeCatalogRole(const AccessRecord& r) {
  FIRN_ASSIGN_OR_RETURN(auto o, ParseBody(r, AccessKind::kCatalogRole));
  if (r.scope.empty()) return BadRow(r, "catalog role without catalog");
  RoleInfo role;
  role.name = r.name;
  role.catalog = r.scope;
  role.properties = PropsFromJson(o, "properties");
  Stamp(r, role.entity_version, role.created_ms, role.updated_ms);
  return role;
}

// --- assignments

AccessRecord EncodePrincipalRoleGrant(std::string_view realm, const PrincipalRoleAssignment& a) {
  return Record(realm, AccessKind::kPrincipalRoleGrant, "",
                JoinName(a.principal, a.principal_role), "{}");
}

Result<PrincipalRoleAssignment> DecodePrincipalRoleGrant(const AccessRecord& r) {
  if (r.kind != AccessKind::kPrincipalRoleGrant) return BadRow(r, "unexpected kind");
  auto parts = SplitName(r.name);
  if (!parts) return BadRow(r, "bad name");
  return PrincipalRoleAssignment{std::move(parts->first), std::move(parts->second)};
}

AccessRecord EncodeCatalogRoleGrant(std::string_view realm, const CatalogRoleAssignment& a) {
  return Record(realm, AccessKind::kCatalogRoleGrant, a.catalog,
                JoinName(a.principal_role, a.catalog_role), "{}");
}

Result<CatalogRoleAssignment> DecodeCatalogRoleGrant(const AccessRecord& r) {
  if (r.kind != AccessKind::kCatalogRoleGrant) return BadRow(r, "unexpected kind");
  auto parts = SplitName(r.name);
  if (!parts || r.scope.empty()) return BadRow(r, "bad name or scope");
  return CatalogRoleAssignment{r.scope, std::move(parts->first), std::move(parts->second)};
}

// --- privilege grants

std::string PrivilegeGrantName(const PrivilegeGrantInfo& g) {
  // JSON escapes control characters, so the separator cannot occur inside the securable part.
  boost::json::array securable;
  securable.emplace_back(SecurableTypeKey(g.type));
  boost::json::array ns;
  for (const auto& l : g.namespace_levels) ns.emplace_back(l);
  securable.emplace_back(std::move(ns));
  securable.emplace_back(g.name);
  std::string out = g.grantee;
  out.push_back(kNameSeparator);
  out += boost::json::serialize(securable);
  out.push_back(kNameSeparator);
  out += auth::PrivilegeName(g.privilege);
  return out;
}

Status ValidatePrivilegeGrant(const PrivilegeGrantInfo& g) {
  using T = auth::SecurableType;
  if (g.grantee.empty()) return Fail(ErrorKind::kIllegalArgument, "Grant without grantee");
  if ((g.type == T::kRoot) != g.catalog.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "Root grants have no catalog; others need one");
  }
  if ((g.type == T::kNamespace || g.type == T::kTable || g.type == T::kView) &&
      g.namespace_levels.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "Grant needs a namespace");
  }
  for (const auto& l : g.namespace_levels) {
    if (l.empty()) return Fail(ErrorKind::kIllegalArgument, "Empty namespace level");
  }
  if ((g.type == T::kTable || g.type == T::kView) == g.name.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "Table and view grants need a name");
  }
  if (!auth::GrantableOn(g.privilege, g.type)) {
    return Fail(ErrorKind::kIllegalArgument,
                std::string("Privilege ") + std::string(auth::PrivilegeName(g.privilege)) +
                    " cannot be granted on a " + std::string(SecurableTypeKey(g.type)));
  }
  return Ok();
}

AccessRecord EncodePrivilegeGrant(std::string_view realm, const PrivilegeGrantInfo& g) {
  boost::json::object o;
  o["grantee"] = g.grantee;
  o["type"] = SecurableTypeKey(g.type);
  boost::json::array ns;
  for (const auto& l : g.namespace_levels) ns.emplace_back(l);
  o["namespace"] = std::move(ns);
  o["name"] = g.name;
  o["privilege"] = auth::PrivilegeName(g.privilege);
  return Record(realm, AccessKind::kPrivilegeGrant, g.catalog, PrivilegeGrantName(g),
                boost::json::serialize(o));
}

Result<PrivilegeGrantInfo> DecodePrivilegeGrant(const AccessRecord& r) {
  FIRN_ASSIGN_OR_RETURN(auto o, ParseBody(r, AccessKind::kPrivilegeGrant));
  PrivilegeGrantInfo g;
  g.catalog = r.scope;
  g.grantee = Str(o, "grantee");
  auto type = ParseSecurableTypeKey(Str(o, "type"));
  if (!type) return BadRow(r, "bad securable type");
  g.type = *type;
  g.namespace_levels = StrArray(o, "namespace");
  g.name = Str(o, "name");
  auto p = auth::ParsePrivilege(Str(o, "privilege"));
  if (!p) return BadRow(r, "unknown privilege");
  g.privilege = *p;
  if (auto s = ValidatePrivilegeGrant(g); !s) return BadRow(r, s.error().message);
  return g;
}

}  // namespace firn::access
