// Shared setup for access/ tests: a FakeAccessStore with realm "r1" bootstrapped (admin
// "alice", client "alice-id"/"alice-secret", catalog "wh") and helpers to add principals.
#pragma once

#include <gtest/gtest.h>

#include "access/access_records.h"
#include "access/access_snapshot.h"
#include "access/bootstrap.h"
#include "auth/key_encryption.h"
#include "auth/secrets.h"
#include "fake_access_store.h"

namespace firn::access::testing {

inline constexpr int64_t kNow = 1'800'000'000;  // seconds

inline catalog::CatalogInfo TestCatalog() {
  catalog::CatalogInfo c;
  c.name = "wh";
  c.base_location = "file:///tmp/wh";
  return c;
}

// The key-encryption key the access tests seal signing keys with.
inline const auth::KeyEncryptionKeys& TestKeks() {
  static const auth::KeyEncryptionKeys keks(
      *auth::KeyEncryptionKey::FromText(Secret("test key-encryption key, 32+ bytes long")));
  return keks;
}
inline std::shared_ptr<const auth::KeyEncryptionKeys> SharedTestKeks() {
  return std::shared_ptr<const auth::KeyEncryptionKeys>(std::shared_ptr<void>(), &TestKeks());
}

inline BootstrapOptions AliceOptions(std::string realm = "r1") {
  BootstrapOptions o;
  o.realm = std::move(realm);
  o.admin_name = "alice";
  o.credentials = BootstrapCredentials{"alice-id", Secret("alice-secret")};
  o.catalog = TestCatalog();
  // One location, one owner across realms too: each realm's catalog gets its own folder.
  if (o.realm != "r1") o.catalog->base_location += "-" + o.realm;
  return o;
}

// Adds principal `name` (client "<name>-id", secret "<name>-secret") holding `roles`
// (created when missing).
inline void AddPrincipal(store::AccessStore& store, std::string_view realm, std::string name,
                         std::vector<std::string> roles, int64_t credential_version = 1) {
  PrincipalInfo p;
  p.id = name + "-uuid";
  p.name = name;
  p.client_id = name + "-id";
  p.secret_hash = *auth::HashSecretScrypt(Secret(name + "-secret"));
  p.credential_version = credential_version;
  std::vector<store::AccessWrite> w;
  w.push_back({store::AccessWrite::Op::kUpsert, EncodePrincipal(realm, p), {}});
  for (const auto& r : roles) {
    w.push_back({store::AccessWrite::Op::kUpsert, EncodePrincipalRole(realm, RoleInfo{.name = r}),
                 {}});
    w.push_back({store::AccessWrite::Op::kUpsert, EncodePrincipalRoleGrant(realm, {name, r}), {}});
  }
  ASSERT_TRUE(store.ApplyAccessWrites(w, nullptr, kNow * 1000));
}

inline std::shared_ptr<const AccessSnapshot> Load(store::AccessStore& store,
                                                  int64_t now = kNow) {
  auto rows = store.LoadAccess();
  EXPECT_TRUE(rows);
  auto snap = BuildAccessSnapshot(*rows, now, TestKeks());
  EXPECT_TRUE(snap);
  return *snap;
}

}  // namespace firn::access::testing
