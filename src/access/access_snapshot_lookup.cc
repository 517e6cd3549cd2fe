#include "access/access_snapshot.h"

namespace firn::access {

const RealmState* AccessSnapshot::FindRealm(std::string_view realm) const {
  auto it = realms.find(realm);
  return it == realms.end() ? nullptr : &it->second;
}

const PrincipalInfo* AccessSnapshot::FindPrincipal(std::string_view realm,
                                                   std::string_view name) const {
  const RealmState* r = FindRealm(realm);
  if (!r) return nullptr;
  auto it = r->principals.find(name);
  return it == r->principals.end() ? nullptr : &it->second;
}

std::shared_ptr<const catalog::CatalogInfo> AccessSnapshot::FindCatalog(
    std::string_view realm, std::string_view name) const {
  const RealmState* r = FindRealm(realm);
  if (!r) return nullptr;
  auto it = r->catalogs.find(name);
  return it == r->catalogs.end() ? nullptr : it->second.info;
}

}  // namespace firn::access
