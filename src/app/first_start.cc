#include "app/first_start.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "access/access_snapshot.h"
#include "access/bootstrap.h"
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

Status WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Fail(ErrorKind::kInternal, "Cannot write the admin credentials file");
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) return Fail(ErrorKind::kInternal, "Cannot sync the credentials file");
  return Ok();
}

Status SyncDirectory(const std::filesystem::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Fail(ErrorKind::kInternal, "Cannot open " + dir.string() + " to sync it");
  int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return Fail(ErrorKind::kInternal, "Cannot sync " + dir.string());
  return Ok();
}

// Creates `file` with O_EXCL and mode 0600 (never readable by others, not even briefly),
// writes and fsyncs it, then fsyncs its directory so the entry survives a crash. Removes the
// file again on any failure after creating it.
Status WriteCredentialsFile(const std::filesystem::path& file, const std::string& text) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Fail(errno == EEXIST ? ErrorKind::kAlreadyExists : ErrorKind::kInternal,
                "Cannot create " + file.string() + ": " + std::strerror(errno) +
                    " (remove it or set FIRN_BOOTSTRAP_CREDENTIALS)");
  }
  Status written = WriteAll(fd, text);
  ::close(fd);
  if (written) written = SyncDirectory(file.parent_path());
  if (!written) ::unlink(file.c_str());
  return written;
}

// False only when the store answers and `realm` has no principal with `client_id`.
bool MayHaveCommitted(store::AccessStore& store, const std::string& realm,
                      const std::string& client_id) {
  auto rows = store.LoadAccess();
  if (!rows) return true;
  auto snapshot = access::BuildAccessSnapshot(*rows, NowMillis() / 1000);
  if (!snapshot) return true;
  const access::RealmState* state = (*snapshot)->FindRealm(realm);
  return state != nullptr && state->principal_by_client.contains(client_id);
}

}  // namespace

Status PrepareAccess(store::AccessStore& store, const ServerConfig& config) {
  catalog::CatalogInfo info;
  info.name = config.catalog_name;
  info.base_location = config.warehouse;
  if (!config.auth) {
    FIRN_ASSIGN_OR_RETURN(int64_t v, access::EnsureCatalog(store, config.default_realm, info,
                                                           NowMillis()));
    (void)v;
    return Ok();
  }
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
  auto result = access::Bootstrap(store, options, NowMillis());
  // Another instance bootstrapped first, or the write failed and the store confirms it did
  // not commit: these credentials work nowhere. An unknown outcome keeps the file.
  if (generated && (result ? !result->created
                           : !MayHaveCommitted(store, config.default_realm,
                                               options.credentials->client_id))) {
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

}  // namespace firn::app
