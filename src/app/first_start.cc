#include "app/first_start.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

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
  const std::string path =
      (std::filesystem::path(config.data_dir) / "admin-credentials").string();
  int fd = -1;
  if (generated) {
    options.credentials =
        access::BootstrapCredentials{auth::GenerateClientId(), auth::GenerateClientSecret()};
    // Created 0600 from the start: the secret is never readable by others, not even briefly.
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
      return Fail(errno == EEXIST ? ErrorKind::kAlreadyExists : ErrorKind::kInternal,
                  "Cannot create " + path + ": " + std::strerror(errno) +
                      " (remove it or set FIRN_BOOTSTRAP_CREDENTIALS)");
    }
  }
  auto result = access::Bootstrap(store, options, NowMillis());
  if (generated && (!result || !result->created)) {
    ::close(fd);
    ::unlink(path.c_str());
  }
  if (!result) return std::unexpected(result.error());
  if (!result->created) return Ok();  // another instance bootstrapped first
  if (generated) {
    std::string text = "realm=" + config.default_realm + "\nprincipal=" + result->admin_name +
                       "\nclient_id=" + result->credentials.client_id +
                       "\nclient_secret=" + result->credentials.secret.Reveal() + "\n";
    Status written = WriteAll(fd, text);
    ::close(fd);
    if (!written) return written;
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
