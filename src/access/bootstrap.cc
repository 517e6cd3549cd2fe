#include "access/bootstrap.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include "access/access_records.h"
#include "auth/key_ring.h"
#include "catalog/location_ownership.h"
#include "auth/secrets.h"
#include "common/macros.h"
#include "common/strings.h"
#include "common/uuid.h"

namespace firn::access {
namespace {

using store::AccessKind;
using store::AccessRecord;
using store::AccessWrite;

AccessWrite Create(AccessRecord r) { return AccessWrite{AccessWrite::Op::kCreate, std::move(r), {}}; }

const AccessRecord* FindRecord(const store::AccessRows& rows, std::string_view realm,
                               AccessKind kind, std::string_view scope, std::string_view name) {
  for (const auto& r : rows.records) {
    if (r.realm == realm && r.kind == kind && r.scope == scope && r.name == name) return &r;
  }
  return nullptr;
}

// Writes that create `info` with its catalog_admin role; assigned to service_admin if
// `assign_to_service_admin`.
Status CatalogWrites(std::string_view realm, const catalog::CatalogInfo& info,
                     bool assign_to_service_admin, std::vector<AccessWrite>& out) {
  out.push_back(Create(EncodeCatalog(realm, info.name, CatalogBodyFromInfo(info))));
  // The catalog's base and allowed locations are claimed with its record (store checks them
  // against every other catalog's, atomically).
  FIRN_ASSIGN_OR_RETURN(out.back().claim, catalog::CatalogLocationClaim(info));
  RoleInfo role;
  role.name = std::string(kCatalogAdminRole);
  role.catalog = info.name;
  out.push_back(Create(EncodeCatalogRole(realm, role)));
  for (auto p : {auth::Privilege::kCATALOG_MANAGE_ACCESS, auth::Privilege::kCATALOG_MANAGE_CONTENT}) {
    PrivilegeGrantInfo g;
    g.catalog = info.name;
    g.grantee = role.name;
    g.type = auth::SecurableType::kCatalog;
    g.privilege = p;
    out.push_back(Create(EncodePrivilegeGrant(realm, g)));
  }
  if (assign_to_service_admin) {
    out.push_back(Create(EncodeCatalogRoleGrant(
        realm, {info.name, std::string(kServiceAdminRole), std::string(kCatalogAdminRole)})));
  }
  return Ok();
}

Status CheckName(std::string_view what, std::string_view name) {
  if (name.empty() || name.find(kNameSeparator) != std::string_view::npos) {
    return Fail(ErrorKind::kIllegalArgument, std::string(what) + " name is empty or invalid");
  }
  return Ok();
}

}  // namespace

Result<int64_t> EnsureCatalog(store::AccessStore& store, std::string_view realm,
                              const catalog::CatalogInfo& info, int64_t now_ms) {
  FIRN_RETURN_IF_ERROR(CheckName("Catalog", info.name));
  FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, store.LoadAccess());
  if (FindRecord(rows, realm, AccessKind::kCatalog, "", info.name)) return int64_t{0};
  bool admin = FindRecord(rows, realm, AccessKind::kPrincipalRole, "", kServiceAdminRole);
  std::vector<AccessWrite> writes;
  FIRN_RETURN_IF_ERROR(CatalogWrites(realm, info, admin, writes));
  auto v = store.ApplyAccessWrites(writes, nullptr, now_ms);
  if (!v && v.error().kind == ErrorKind::kAlreadyExists) return int64_t{0};  // lost a race
  return v;
}

Result<BootstrapResult> Bootstrap(store::AccessStore& store, const BootstrapOptions& options,
                                  const auth::KeyEncryptionKeys& keks, int64_t now_ms) {
  FIRN_RETURN_IF_ERROR(CheckName("Realm", options.realm));
  FIRN_RETURN_IF_ERROR(CheckName("Admin principal", options.admin_name));
  if (options.credentials &&
      (options.credentials->client_id.empty() || options.credentials->secret.empty())) {
    return Fail(ErrorKind::kIllegalArgument, "Bootstrap credentials need a client id and secret");
  }
  BootstrapResult result;
  FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, store.LoadAccess());
  bool exists = FindRecord(rows, options.realm, AccessKind::kRealm, "", options.realm);
  if (!exists) {
    BootstrapCredentials creds;
    if (options.credentials) {
      creds.client_id = options.credentials->client_id;
      creds.secret = options.credentials->secret;
    } else {
      creds.client_id = auth::GenerateClientId();
      creds.secret = auth::GenerateClientSecret();
    }
    FIRN_ASSIGN_OR_RETURN(std::string hash, auth::HashSecretScrypt(creds.secret));
    FIRN_ASSIGN_OR_RETURN(auth::KeyRing ring, auth::KeyRing::CreateEd25519(now_ms / 1000));
    FIRN_ASSIGN_OR_RETURN(std::vector<auth::StoredKey> keys, ring.ToStored());

    std::vector<AccessWrite> writes;
    writes.push_back(Create(EncodeRealm(options.realm, now_ms)));
    for (const auto& k : keys) {
      FIRN_ASSIGN_OR_RETURN(AccessRecord sealed, EncodeSigningKey(options.realm, k, keks));
      writes.push_back(Create(std::move(sealed)));
    }
    PrincipalInfo admin;
    admin.id = NewUuidV4();
    admin.name = options.admin_name;
    admin.client_id = creds.client_id;
    admin.secret_hash = std::move(hash);
    writes.push_back(Create(EncodePrincipal(options.realm, admin)));
    RoleInfo service_admin;
    service_admin.name = std::string(kServiceAdminRole);
    writes.push_back(Create(EncodePrincipalRole(options.realm, service_admin)));
    writes.push_back(Create(
        EncodePrincipalRoleGrant(options.realm, {admin.name, service_admin.name})));
    PrivilegeGrantInfo root;
    root.grantee = service_admin.name;
    root.type = auth::SecurableType::kRoot;
    root.privilege = auth::Privilege::kSERVICE_MANAGE_ACCESS;
    writes.push_back(Create(EncodePrivilegeGrant(options.realm, root)));
    bool have_catalog = options.catalog &&
                        FindRecord(rows, options.realm, AccessKind::kCatalog, "",
                                   options.catalog->name);
    if (options.catalog && !have_catalog) {
      FIRN_RETURN_IF_ERROR(CheckName("Catalog", options.catalog->name));
      FIRN_RETURN_IF_ERROR(CatalogWrites(options.realm, *options.catalog, true, writes));
    }
    auto v = store.ApplyAccessWrites(writes, nullptr, now_ms);
    if (v) {
      result.created = true;
      result.catalog_created = options.catalog && !have_catalog;
      result.admin_name = admin.name;
      result.credentials = std::move(creds);
      result.access_version = *v;
      return result;
    }
    // Another bootstrap won the race: fall through to "already bootstrapped".
    if (v.error().kind != ErrorKind::kAlreadyExists) return std::unexpected(v.error());
  }
  if (options.catalog) {
    FIRN_ASSIGN_OR_RETURN(int64_t v, EnsureCatalog(store, options.realm, *options.catalog, now_ms));
    result.catalog_created = v != 0;
    result.access_version = v;
  }
  return result;
}

Result<int64_t> RotateSigningKeys(store::AccessStore& store, std::string_view realm,
                                  const auth::KeyEncryptionKeys& keks, int64_t overlap_seconds,
                                  int64_t now_seconds) {
  FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, store.LoadAccess());
  std::vector<auth::StoredKey> stored;
  std::vector<const AccessRecord*> records;
  for (const auto& r : rows.records) {
    if (r.realm != realm || r.kind != AccessKind::kSigningKey) continue;
    FIRN_ASSIGN_OR_RETURN(auth::StoredKey k, DecodeSigningKey(r, keks));
    stored.push_back(std::move(k));
    records.push_back(&r);
  }
  if (stored.empty()) {
    return Fail(ErrorKind::kNotFound, "Realm '" + std::string(realm) + "' has no signing keys");
  }
  FIRN_ASSIGN_OR_RETURN(auth::KeyRing ring, auth::KeyRing::FromStored(stored, now_seconds));
  FIRN_ASSIGN_OR_RETURN(auth::KeyRing next, ring.RotateEd25519(now_seconds, overlap_seconds));
  FIRN_ASSIGN_OR_RETURN(std::vector<auth::StoredKey> next_rows, next.ToStored());
  std::vector<AccessWrite> writes;
  for (const AccessRecord* r : records) {
    bool kept = false;
    for (const auto& k : next_rows) kept = kept || k.kid == r->name;
    if (!kept) writes.push_back(AccessWrite{AccessWrite::Op::kDelete, *r, r->entity_version});
  }
  for (const auto& k : next_rows) {
    const AccessRecord* old = nullptr;
    for (const AccessRecord* r : records) {
      if (r->name == k.kid) old = r;
    }
    FIRN_ASSIGN_OR_RETURN(AccessRecord sealed, EncodeSigningKey(realm, k, keks));
    AccessWrite w{old ? AccessWrite::Op::kUpdate : AccessWrite::Op::kCreate, std::move(sealed),
                  {}};
    if (old) w.expected_version = old->entity_version;
    writes.push_back(std::move(w));
  }
  return store.ApplyAccessWrites(writes, nullptr, now_seconds * 1000);
}

namespace {

std::string KekIds(const auth::KeyEncryptionKeys& keks) {
  std::string out;
  for (const auto& id : keks.ids()) out += (out.empty() ? "" : ", ") + id;
  return out;
}

// One pass of SealSigningKeys: check every row, then write the selected ones.
Result<SealResult> SealOnce(store::AccessStore& store, const auth::KeyEncryptionKeys& keks,
                            SealMode mode, int64_t now_ms) {
  FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, store.LoadAccess());
  SealResult result;
  std::vector<AccessWrite> writes;
  for (const auto& r : rows.records) {
    if (r.kind != AccessKind::kSigningKey) continue;
    FIRN_ASSIGN_OR_RETURN(SigningKeyRow row, InspectSigningKey(r));
    const std::string which = "Signing key " + r.name + " of realm '" + r.realm + "'";
    if (!row.kek_id.empty() && keks.Find(row.kek_id) == nullptr) {
      return Fail(ErrorKind::kIllegalArgument,
                  which + " is sealed with key-encryption key " + row.kek_id +
                      ", which is not configured (configured: " + KekIds(keks) +
                      "). Start with the KEK this database was sealed with (kek-file or "
                      "FIRN_KEK; docs/auth.md)");
    }
    auto key = DecodeSigningKey(r, keks);
    if (!key) {
      return Fail(ErrorKind::kIllegalArgument,
                  which + " does not open with key-encryption key " + row.kek_id +
                      " (a tampered row, or a KEK whose id collides); refusing to use it");
    }
    const bool plaintext = row.kek_id.empty();
    const bool elsewhere = !plaintext && row.kek_id != keks.primary().id();
    if (!plaintext && !(elsewhere && mode == SealMode::kAll)) {
      ++result.kept;
      continue;
    }
    ++(plaintext ? result.sealed : result.resealed);
    FIRN_ASSIGN_OR_RETURN(AccessRecord sealed, EncodeSigningKey(r.realm, *key, keks));
    writes.push_back(AccessWrite{AccessWrite::Op::kUpdate, std::move(sealed), r.entity_version});
  }
  if (!writes.empty()) {
    FIRN_ASSIGN_OR_RETURN(result.access_version, store.ApplyAccessWrites(writes, nullptr, now_ms));
  }
  return result;
}

}  // namespace

Result<SealResult> SealSigningKeys(store::AccessStore& store, const auth::KeyEncryptionKeys& keks,
                                   SealMode mode, int64_t now_ms) {
  constexpr int kAttempts = 5;
  for (int attempt = 1;; ++attempt) {
    auto result = SealOnce(store, keks, mode, now_ms);
    // Another instance rewrote (or rotated away) a row between our read and our write.
    const bool raced = !result && (result.error().kind == ErrorKind::kCommitFailed ||
                                   result.error().kind == ErrorKind::kNotFound);
    if (!raced || attempt == kAttempts) {
      return result;
    }
  }
}

namespace {

// Calls `each(realm, client_id, secret)` per entry until it returns true.
Status ForEachBootstrapEntry(
    std::string_view text,
    const std::function<bool(std::string_view, std::string_view, std::string_view)>& each) {
  while (!text.empty()) {
    size_t end = text.find_first_of(";\n");
    std::string_view entry = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    entry = Trim(TrimEnd(entry, "\r "), " ");
    if (entry.empty()) continue;
    size_t a = entry.find(',');
    size_t b = a == std::string_view::npos ? a : entry.find(',', a + 1);
    if (b == std::string_view::npos || a == 0 || b == a + 1 || b + 1 == entry.size()) {
      // Never echo the entry: it holds a secret.
      return Fail(ErrorKind::kIllegalArgument,
                  "Bootstrap credentials must be <realm>,<client-id>,<secret>");
    }
    if (each(entry.substr(0, a), entry.substr(a + 1, b - a - 1), entry.substr(b + 1))) break;
  }
  return Ok();
}

Result<std::string> BootstrapTextFromEnv() {
  if (const char* v = std::getenv("FIRN_BOOTSTRAP_CREDENTIALS"); v && *v) return std::string(v);
  if (const char* f = std::getenv("FIRN_BOOTSTRAP_CREDENTIALS_FILE"); f && *f) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      return Fail(ErrorKind::kIllegalArgument, "FIRN_BOOTSTRAP_CREDENTIALS_FILE cannot be read",
                  f);
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  return std::string();
}

}  // namespace

Result<std::optional<BootstrapCredentials>> ParseBootstrapCredentials(std::string_view text,
                                                                      std::string_view realm) {
  std::optional<BootstrapCredentials> found;
  FIRN_RETURN_IF_ERROR(ForEachBootstrapEntry(
      text, [&](std::string_view r, std::string_view id, std::string_view secret) {
        if (r != realm) return false;
        found = BootstrapCredentials{std::string(id), Secret(std::string(secret))};
        return true;
      }));
  return found;
}

Result<std::optional<BootstrapCredentials>> BootstrapCredentialsFromEnv(std::string_view realm) {
  FIRN_ASSIGN_OR_RETURN(std::string text, BootstrapTextFromEnv());
  return ParseBootstrapCredentials(text, realm);
}

Result<std::vector<std::string>> BootstrapRealmsFromEnv() {
  FIRN_ASSIGN_OR_RETURN(std::string text, BootstrapTextFromEnv());
  std::vector<std::string> realms;
  FIRN_RETURN_IF_ERROR(ForEachBootstrapEntry(
      text, [&](std::string_view r, std::string_view, std::string_view) {
        if (std::find(realms.begin(), realms.end(), r) == realms.end()) realms.emplace_back(r);
        return false;
      }));
  return realms;
}

}  // namespace firn::access
