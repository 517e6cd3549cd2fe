#include "app/first_start.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <filesystem>

#include "access/access_snapshot.h"
#include "access/bootstrap.h"
#include "app/private_file.h"
#include "app/storage_settings.h"
#include "auth/secrets.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::app {
namespace {

bool HasPrincipal(const store::AccessRows& rows, std::string_view realm) {
  for (const auto& r : rows.records) {
    if (r.realm == realm && r.kind == store::AccessKind::kPrincipal) return true;
  }
  return false;
}

// The generated credentials, owner-only and durable before the realm commits (private_file.h).
Status WriteCredentialsFile(const std::filesystem::path& file, const std::string& text) {
  Status written = WritePrivateFile(file, text);
  if (!written && written.error().kind == ErrorKind::kAlreadyExists) {
    return Fail(ErrorKind::kAlreadyExists,
                written.error().message + " (remove it or set FIRN_BOOTSTRAP_CREDENTIALS)");
  }
  return written;
}

// False only when the store answers and `realm` has no principal with `client_id`.
bool MayHaveCommitted(store::AccessStore& store, const std::string& realm,
                      const std::string& client_id, const auth::KeyEncryptionKeys& keks) {
  auto rows = store.LoadAccess();
  if (!rows) return true;
  auto snapshot = access::BuildAccessSnapshot(*rows, NowMillis() / 1000, keks);
  if (!snapshot) return true;
  const access::RealmState* state = (*snapshot)->FindRealm(realm);
  return state != nullptr && state->principal_by_client.contains(client_id);
}

}  // namespace

namespace {

// The default realm: bootstrapped on first start with the supplied credentials, or generated
// ones written to <data-dir>/admin-credentials.
Status PrepareDefaultRealm(store::AccessStore& store, const ServerConfig& config,
                           const auth::KeyEncryptionKeys& keks,
                           const catalog::CatalogInfo& info) {
  FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, store.LoadAccess());
  if (HasPrincipal(rows, config.default_realm)) {
    FIRN_ASSIGN_OR_RETURN(int64_t v, access::EnsureCatalog(store, config.default_realm, info,
                                                           NowMillis()));
    (void)v;
    return Ok();
  }

  access::BootstrapOptions options;
  options.realm = config.default_realm;
  options.admin_name = config.bootstrap_admin;
  options.catalog = info;
  FIRN_ASSIGN_OR_RETURN(options.credentials,
                        access::BootstrapCredentialsFromEnv(config.default_realm));
  const bool generated = !options.credentials.has_value();
  const std::filesystem::path file = std::filesystem::path(config.data_dir) / "admin-credentials";
  const std::string path = file.string();
  if (generated) {
    options.credentials =
        access::BootstrapCredentials{auth::GenerateClientId(), auth::GenerateClientSecret()};
    // Durable before the realm commits: a crash can leave a file without a realm (the next
    // start refuses with kAlreadyExists), never a realm whose secret is lost.
    FIRN_RETURN_IF_ERROR(WriteCredentialsFile(
        file, "realm=" + config.default_realm + "\nprincipal=" + options.admin_name +
                  "\nclient_id=" + options.credentials->client_id +
                  "\nclient_secret=" + options.credentials->secret.Reveal() + "\n"));
  }
  auto result = access::Bootstrap(store, options, keks, NowMillis());
  // Another instance bootstrapped first, or the write failed and the store confirms it did
  // not commit: these credentials work nowhere. An unknown outcome keeps the file.
  if (generated && (result ? !result->created
                           : !MayHaveCommitted(store, config.default_realm,
                                               options.credentials->client_id, keks))) {
    ::unlink(path.c_str());
    (void)SyncDirectory(file.parent_path());
  }
  if (!result) return std::unexpected(result.error());
  if (!result->created) return Ok();
  if (generated) {
    spdlog::warn(R"x("msg":"bootstrapped realm; admin credentials written (mode 0600)","realm":"{}","principal":"{}","file":"{}")x",
                 log::Escape(config.default_realm), log::Escape(result->admin_name),
                 log::Escape(path));
  } else {
    spdlog::info(R"("msg":"bootstrapped realm with the supplied credentials","realm":"{}","principal":"{}")",
                 log::Escape(config.default_realm), log::Escape(result->admin_name));
  }
  return Ok();
}

}  // namespace

Status PrepareAccess(store::AccessStore& store, const ServerConfig& config,
                     const auth::KeyEncryptionKeys& keks) {
  const catalog::CatalogInfo info = DefaultCatalogInfo(config);
  if (!config.auth) {
    FIRN_ASSIGN_OR_RETURN(int64_t v, access::EnsureCatalog(store, config.default_realm, info,
                                                           NowMillis()));
    (void)v;
    return Ok();
  }
  FIRN_RETURN_IF_ERROR(PrepareDefaultRealm(store, config, keks, info));
  // Every other realm FIRN_BOOTSTRAP_CREDENTIALS names is bootstrapped too, once (it was
  // silently ignored, and its client only ever saw invalid_client).
  FIRN_ASSIGN_OR_RETURN(std::vector<std::string> realms, access::BootstrapRealmsFromEnv());
  for (const std::string& realm : realms) {
    if (realm == config.default_realm) continue;
    FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, store.LoadAccess());
    if (HasPrincipal(rows, realm)) continue;
    access::BootstrapOptions options;
    options.realm = realm;
    options.admin_name = config.bootstrap_admin;
    // No catalog: the default catalog's location belongs to the default realm; this realm's
    // admin creates its catalogs through the management API.
    FIRN_ASSIGN_OR_RETURN(options.credentials, access::BootstrapCredentialsFromEnv(realm));
    FIRN_ASSIGN_OR_RETURN(auto result, access::Bootstrap(store, options, keks, NowMillis()));
    if (result.created) {
      spdlog::info(R"x("msg":"bootstrapped realm with the supplied credentials (no catalog yet)","realm":"{}","principal":"{}")x",
                   log::Escape(realm), log::Escape(result.admin_name));
    }
  }
  return Ok();
}

}  // namespace firn::app
