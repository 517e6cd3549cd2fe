#include "app/store_factory.h"

#include <cstdlib>

#include "app/server_config.h"
#include "app/storage_settings.h"
#include "common/macros.h"
#include "common/strings.h"
#include "store/postgres/postgres_catalog_store.h"
#include "store/sqlite/sqlite_catalog_store.h"

namespace firn::app {
namespace {

constexpr std::string_view kSqliteScheme = "sqlite://";

}  // namespace

Result<std::string> SqlitePathOfUrl(const std::string& url) {
  if (!url.starts_with(kSqliteScheme) || url.size() == kSqliteScheme.size()) {
    return Fail(ErrorKind::kIllegalArgument,
                "Expected a SQLite database URL (sqlite:///path): " + RedactedUrl(url));
  }
  return url.substr(kSqliteScheme.size());
}

std::string RedactedUrl(const std::string& url) {
  return store::IsPostgresUrl(url) ? store::RedactDatabaseUrl(url) : url;
}

Result<std::unique_ptr<store::CatalogStore>> OpenStoreByUrl(const std::string& url,
                                                            const Secret& password) {
  if (url.starts_with(kSqliteScheme)) {
    FIRN_ASSIGN_OR_RETURN(std::string path, SqlitePathOfUrl(url));
    return store::OpenSqliteStore(path);
  }
  if (store::IsPostgresUrl(url)) {
    store::postgres::PostgresOptions options;
    Secret inline_password;
    const std::string bare = store::TakePasswordFromUrl(url, inline_password);
    options.password = password.empty() ? std::move(inline_password) : password;
    return store::OpenPostgresStore(bare, options);
  }
  return Fail(ErrorKind::kIllegalArgument,
              "Unsupported database URL (expected sqlite:///path or postgresql://...): scheme "
              "of " + url.substr(0, url.find(':')));
}

Result<Secret> ReadDbPassword(const std::string& file) {
  if (file.empty()) {
    const char* env = std::getenv("FIRN_DB_PASSWORD");
    return Secret(env == nullptr ? "" : env);
  }
  auto value = ReadSecretFile(file);
  if (!value) return Fail(ErrorKind::kIllegalArgument, "Cannot read password file " + file);
  return value;
}

Result<std::unique_ptr<io::ObjectStore>> OpenObjectStore(const ServerConfig& config) {
  io::ObjectStoreConfig objects;
  objects.s3 = S3ConfigOf(config);
  return io::MakeObjectStore(objects);
}

}  // namespace firn::app
