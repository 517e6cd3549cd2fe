#include "app/admin_store.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/macros.h"
#include "store/postgres/postgres_catalog_store.h"
#include "store/sqlite/sqlite_catalog_store.h"

namespace firn::app {
namespace {

constexpr std::string_view kSqliteScheme = "sqlite://";

bool IsPostgresUrl(const std::string& url) {
  return url.starts_with("postgresql://") || url.starts_with("postgres://");
}

}  // namespace

Result<std::string> SqlitePathOfUrl(const std::string& url) {
  if (!url.starts_with(kSqliteScheme) || url.size() == kSqliteScheme.size()) {
    return Fail(ErrorKind::kIllegalArgument,
                "Expected a SQLite database URL (sqlite:///path): " + RedactedUrl(url));
  }
  return url.substr(kSqliteScheme.size());
}

std::string RedactedUrl(const std::string& url) {
  return IsPostgresUrl(url) ? store::RedactDatabaseUrl(url) : url;
}

Result<std::unique_ptr<store::CatalogStore>> OpenStoreByUrl(const std::string& url,
                                                            const Secret& password) {
  if (url.starts_with(kSqliteScheme)) {
    FIRN_ASSIGN_OR_RETURN(std::string path, SqlitePathOfUrl(url));
    return store::OpenSqliteStore(path);
  }
  if (IsPostgresUrl(url)) {
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
  std::ifstream in(file);
  if (!in) return Fail(ErrorKind::kIllegalArgument, "Cannot read password file " + file);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string value = buffer.str();
  while (!value.empty() && (value.back() == '\n' || value.back() == '\r')) value.pop_back();
  return Secret(std::move(value));
}

}  // namespace firn::app
