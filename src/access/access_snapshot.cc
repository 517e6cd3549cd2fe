#include "access/access_snapshot.h"

#include <spdlog/spdlog.h>

#include <optional>

#include "access/access_records.h"
#include "common/log.h"

namespace firn::access {
namespace {

using store::AccessKind;
using store::AccessRecord;

void Skip(const Error& e) {
  spdlog::warn(R"("msg":"access snapshot skipped a row","error":"{}","detail":"{}")",
               log::Escape(e.message), log::Escape(e.detail));
}

template <typename T>
bool Take(Result<T>& r) {
  if (!r) {
    Skip(r.error());
    return false;
  }
  return true;
}

// The key `previous` holds for this row's realm and kid, when the row is sealed with a KEK
// this process does not hold.
std::optional<auth::StoredKey> HeldKey(const AccessRecord& r, const auth::KeyEncryptionKeys& keks,
                                       const AccessSnapshot* previous) {
  if (previous == nullptr) return std::nullopt;
  auto row = InspectSigningKey(r);
  if (!row || row->kek_id.empty() || keks.Find(row->kek_id) != nullptr) return std::nullopt;
  const RealmState* realm = previous->FindRealm(r.realm);
  if (realm == nullptr || !realm->keys) return std::nullopt;
  const auth::SigningKey* held = realm->keys->Find(r.name);
  if (held == nullptr || auth::JwsAlgName(held->alg()) != row->key.alg) return std::nullopt;
  auto pem = held->PrivateKeyPem();
  if (!pem) return std::nullopt;
  row->key.private_key_pem = std::move(*pem);
  spdlog::warn(R"x("msg":"signing key is sealed with a key-encryption key this instance does not hold; keeping the copy loaded earlier (restart with the new KEK)","realm":"{}","kid":"{}","kek_id":"{}")x",
               log::Escape(r.realm), log::Escape(r.name), log::Escape(row->kek_id));
  return std::move(row->key);
}

}  // namespace

Result<std::shared_ptr<const AccessSnapshot>> BuildAccessSnapshot(
    const store::AccessRows& rows, int64_t now_seconds, const auth::KeyEncryptionKeys& keks,
    const AccessSnapshot* previous) {
  auto snap = std::make_shared<AccessSnapshot>();
  snap->version = rows.version;
  std::map<std::string, std::vector<auth::StoredKey>> keys;
  std::vector<const AccessRecord*> links;

  // Pass 1: entities.
  for (const AccessRecord& r : rows.records) {
    RealmState& realm = snap->realms[r.realm];
    realm.name = r.realm;
    switch (r.kind) {
      case AccessKind::kRealm:
        break;
      case AccessKind::kSigningKey: {
        auto k = DecodeSigningKey(r, keks);
        if (!k) {
          if (auto held = HeldKey(r, keks, previous)) k = std::move(*held);
        }
        if (Take(k)) keys[r.realm].push_back(std::move(*k));
        break;
      }
      case AccessKind::kPrincipal: {
        auto p = DecodePrincipal(r);
        if (!Take(p)) break;
        realm.principal_by_id[p->id] = p->name;
        realm.principal_by_client[p->client_id] = p->name;
        realm.principals[p->name] = std::move(*p);
        break;
      }
      case AccessKind::kPrincipalRole: {
        auto role = DecodePrincipalRole(r);
        if (Take(role)) realm.principal_roles[role->name] = std::move(*role);
        break;
      }
      case AccessKind::kCatalog: {
        auto c = DecodeCatalog(r);
        if (Take(c)) realm.catalogs[r.name] = std::move(*c);
        break;
      }
      case AccessKind::kCatalogRole: {
        auto role = DecodeCatalogRole(r);
        if (Take(role)) realm.catalog_roles[role->catalog][role->name] = std::move(*role);
        break;
      }
      case AccessKind::kPrincipalRoleGrant:
      case AccessKind::kCatalogRoleGrant:
      case AccessKind::kPrivilegeGrant:
        realm.links.push_back(r);
        links.push_back(&r);
        break;
    }
  }

  for (auto& [name, realm_keys] : keys) {
    auto ring = auth::KeyRing::FromStored(realm_keys, now_seconds);
    if (!ring) {
      spdlog::error(R"("msg":"realm has unusable signing keys","realm":"{}","error":"{}")",
                    log::Escape(name), log::Escape(ring.error().message));
      continue;
    }
    RealmState& realm = snap->realms[name];
    realm.keys = std::make_shared<const auth::KeyRing>(std::move(*ring));
    realm.verification_keys = realm.keys->VerificationKeysAt(now_seconds);
  }

  // Pass 2: links between entities that exist.
  auth::GrantSnapshotBuilder builder;
  for (const AccessRecord* r : links) {
    const RealmState& realm = snap->realms[r->realm];
    switch (r->kind) {
      case AccessKind::kPrincipalRoleGrant: {
        auto a = DecodePrincipalRoleGrant(*r);
        if (!Take(a)) break;
        if (!realm.principals.contains(a->principal) ||
            !realm.principal_roles.contains(a->principal_role)) {
          break;
        }
        auto s = builder.AssignPrincipalRole(r->realm, a->principal, a->principal_role);
        if (!s) Skip(s.error());
        break;
      }
      case AccessKind::kCatalogRoleGrant: {
        auto a = DecodeCatalogRoleGrant(*r);
        if (!Take(a)) break;
        auto roles = realm.catalog_roles.find(a->catalog);
        if (!realm.principal_roles.contains(a->principal_role) ||
            !realm.catalogs.contains(a->catalog) || roles == realm.catalog_roles.end() ||
            !roles->second.contains(a->catalog_role)) {
          break;
        }
        auto s = builder.AssignCatalogRole(r->realm, a->principal_role, a->catalog,
                                           a->catalog_role);
        if (!s) Skip(s.error());
        break;
      }
      case AccessKind::kPrivilegeGrant: {
        auto g = DecodePrivilegeGrant(*r);
        if (!Take(g)) break;
        Status s;
        if (g->type == auth::SecurableType::kRoot) {
          if (!realm.principal_roles.contains(g->grantee)) break;
          s = builder.GrantOnRoot(r->realm, g->grantee, g->privilege);
        } else {
          auto roles = realm.catalog_roles.find(g->catalog);
          if (!realm.catalogs.contains(g->catalog) || roles == realm.catalog_roles.end() ||
              !roles->second.contains(g->grantee)) {
            break;
          }
          auth::Resource on;
          on.realm = r->realm;
          on.catalog = g->catalog;
          on.namespace_levels = g->namespace_levels;
          if (g->type == auth::SecurableType::kTable) on.table = g->name;
          if (g->type == auth::SecurableType::kView) on.view = g->name;
          s = builder.Grant(on, g->grantee, g->privilege);
        }
        if (!s) Skip(s.error());
        break;
      }
      default:
        break;
    }
  }
  snap->grants = builder.Build(static_cast<uint64_t>(rows.version));
  return std::shared_ptr<const AccessSnapshot>(std::move(snap));
}

}  // namespace firn::access
