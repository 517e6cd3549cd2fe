#include "app/server_config.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>

#include "common/macros.h"
#include "store/postgres/postgres_catalog_store.h"

namespace firn::app {
namespace {

using Setter = std::function<Status(ServerConfig&, const std::string&)>;

Status ParseInt(const std::string& key, const std::string& text, int64_t min, int64_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc() || end != text.data() + text.size() || out < min) {
    return Fail(ErrorKind::kIllegalArgument, "Invalid value for " + key + ": expected an integer >= " +
                                                 std::to_string(min));
  }
  return Ok();
}

template <typename T>
Setter IntSetter(std::string key, T ServerConfig::*field, int64_t min) {
  return [key, field, min](ServerConfig& c, const std::string& v) -> Status {
    int64_t n = 0;
    FIRN_RETURN_IF_ERROR(ParseInt(key, v, min, n));
    c.*field = static_cast<T>(n);
    return Ok();
  };
}

Setter SecretSetter(Secret ServerConfig::*field) {
  return [field](ServerConfig& c, const std::string& v) -> Status {
    c.*field = Secret(v);
    return Ok();
  };
}

// Reads a secret from a file (trailing newline trimmed), so it need not sit in the environment.
Setter SecretFileSetter(std::string key, Secret ServerConfig::*field) {
  return [key, field](ServerConfig& c, const std::string& path) -> Status {
    std::ifstream in(path);
    if (!in) return Fail(ErrorKind::kIllegalArgument, "Cannot read " + key + ": " + path);
    std::string value((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    while (!value.empty() && (value.back() == '\n' || value.back() == '\r')) value.pop_back();
    c.*field = Secret(std::move(value));
    return Ok();
  };
}

Setter BoolSetter(std::string key, bool ServerConfig::*field) {
  return [key, field](ServerConfig& c, const std::string& v) -> Status {
    if (v != "true" && v != "false") {
      return Fail(ErrorKind::kIllegalArgument, "Invalid value for " + key + ": expected true or false");
    }
    c.*field = v == "true";
    return Ok();
  };
}

// on|off|true|false.
Setter OnOffSetter(std::string key, bool ServerConfig::*field) {
  return [key, field](ServerConfig& c, const std::string& v) -> Status {
    if (v == "on" || v == "true") {
      c.*field = true;
    } else if (v == "off" || v == "false") {
      c.*field = false;
    } else {
      return Fail(ErrorKind::kIllegalArgument, "Invalid value for " + key + ": expected on or off");
    }
    return Ok();
  };
}

Setter StringSetter(std::string ServerConfig::*field) {
  return [field](ServerConfig& c, const std::string& v) -> Status {
    c.*field = v;
    return Ok();
  };
}

const std::map<std::string, Setter>& Setters() {
  static const std::map<std::string, Setter> setters = {
      {"data_dir", StringSetter(&ServerConfig::data_dir)},
      {"listen", StringSetter(&ServerConfig::listen)},
      {"db", StringSetter(&ServerConfig::db_url)},
      {"db_password", SecretSetter(&ServerConfig::db_password)},
      {"db_password_file", SecretFileSetter("db_password_file", &ServerConfig::db_password)},
      {"warehouse", StringSetter(&ServerConfig::warehouse)},
      {"catalog_name", StringSetter(&ServerConfig::catalog_name)},
      {"log_level", StringSetter(&ServerConfig::log_level)},
      {"max_body_bytes", IntSetter("max_body_bytes", &ServerConfig::max_body_bytes, 1024)},
      {"io_threads", IntSetter("io_threads", &ServerConfig::io_threads, 1)},
      {"worker_threads", IntSetter("worker_threads", &ServerConfig::worker_threads, 1)},
      {"max_queued", IntSetter("max_queued", &ServerConfig::max_queued, 1)},
      {"s3_endpoint", StringSetter(&ServerConfig::s3_endpoint)},
      {"s3_region", StringSetter(&ServerConfig::s3_region)},
      {"s3_access_key_id", StringSetter(&ServerConfig::s3_access_key_id)},
      {"s3_secret_access_key", SecretSetter(&ServerConfig::s3_secret_access_key)},
      {"s3_secret_access_key_file",
       SecretFileSetter("s3_secret_access_key_file", &ServerConfig::s3_secret_access_key)},
      {"s3_session_token", SecretSetter(&ServerConfig::s3_session_token)},
      {"s3_path_style_access",
       BoolSetter("s3_path_style_access", &ServerConfig::s3_path_style_access)},
      {"auth", OnOffSetter("auth", &ServerConfig::auth)},
      {"realm_header", StringSetter(&ServerConfig::realm_header)},
      {"default_realm", StringSetter(&ServerConfig::default_realm)},
      {"token_lifetime", IntSetter("token_lifetime", &ServerConfig::token_lifetime, 60)},
      {"bootstrap_admin", StringSetter(&ServerConfig::bootstrap_admin)},
      {"oidc_issuer", StringSetter(&ServerConfig::oidc_issuer)},
      {"oidc_jwks_file", StringSetter(&ServerConfig::oidc_jwks_file)},
      {"oidc_jwks_url", StringSetter(&ServerConfig::oidc_jwks_url)},
      {"oidc_audience", StringSetter(&ServerConfig::oidc_audience)},
      {"oidc_subject_claim", StringSetter(&ServerConfig::oidc_subject_claim)},
      {"oidc_roles_claim", StringSetter(&ServerConfig::oidc_roles_claim)},
      {"oidc_role_prefix", StringSetter(&ServerConfig::oidc_role_prefix)},
      {"oidc_realm", StringSetter(&ServerConfig::oidc_realm)},
  };
  return setters;
}

std::string NormalizeKey(std::string key) {
  for (char& c : key) c = c == '-' ? '_' : static_cast<char>(std::tolower(c));
  return key;
}

std::string Trim(std::string s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

}  // namespace

Status ApplyConfigFile(const std::string& path, ServerConfig& config) {
  std::ifstream in(path);
  if (!in) return Fail(ErrorKind::kIllegalArgument, "Cannot open config file: " + path);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    line = Trim(line);
    if (line.empty() || line[0] == '#' || line[0] == '[') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      return Fail(ErrorKind::kIllegalArgument,
                  path + ":" + std::to_string(line_no) + ": expected key = value");
    }
    std::string key = NormalizeKey(Trim(line.substr(0, eq)));
    std::string value = Trim(line.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    auto it = Setters().find(key);
    if (it == Setters().end()) {
      return Fail(ErrorKind::kIllegalArgument,
                  path + ":" + std::to_string(line_no) + ": unknown setting '" + key + "'");
    }
    FIRN_RETURN_IF_ERROR(it->second(config, value));
  }
  return Ok();
}

Status ApplySetting(const std::string& key, const std::string& value, ServerConfig& config) {
  auto it = Setters().find(NormalizeKey(key));
  if (it == Setters().end()) {
    return Fail(ErrorKind::kIllegalArgument, "Unknown setting '" + key + "'");
  }
  return it->second(config, value);
}

Status ApplyEnvironment(ServerConfig& config) {
  for (const auto& [key, setter] : Setters()) {
    std::string name = "FIRN_" + key;
    for (char& c : name) c = static_cast<char>(std::toupper(c));
    if (const char* value = std::getenv(name.c_str()); value && *value) {
      FIRN_RETURN_IF_ERROR(setter(config, value));
    }
  }
  return Ok();
}

Status Finalize(ServerConfig& config) {
  std::error_code ec;
  std::filesystem::create_directories(config.data_dir, ec);
  if (ec) {
    return Fail(ErrorKind::kIllegalArgument,
                "Cannot create data directory " + config.data_dir + ": " + ec.message());
  }
  const std::string abs = std::filesystem::absolute(config.data_dir).lexically_normal().string();
  config.data_dir = abs;
  if (config.db_url.empty()) config.db_url = "sqlite://" + abs + "/firn.db";
  if (config.db_url.starts_with("postgresql://") || config.db_url.starts_with("postgres://")) {
    Secret inline_password;
    config.db_url = store::TakePasswordFromUrl(config.db_url, inline_password);
    if (config.db_password.empty()) config.db_password = std::move(inline_password);
  }
  if (config.warehouse.empty()) config.warehouse = "file://" + abs + "/warehouse";
  while (config.warehouse.size() > 1 && config.warehouse.back() == '/') config.warehouse.pop_back();
  if (config.catalog_name.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "catalog-name must not be empty");
  }
  if (config.realm_header.empty() || config.default_realm.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "realm-header and default-realm must not be empty");
  }
  if (!config.oidc_issuer.empty() &&
      config.oidc_jwks_file.empty() == config.oidc_jwks_url.empty()) {
    return Fail(ErrorKind::kIllegalArgument,
                "oidc-issuer needs exactly one of oidc-jwks-file and oidc-jwks-url");
  }
  if (!config.oidc_issuer.empty() && config.oidc_audience.empty()) {
    // Without one, a token the IdP issued to any other application would be accepted.
    return Fail(ErrorKind::kIllegalArgument,
                "oidc-issuer needs oidc-audience (the \"aud\" Firn's tokens must carry)");
  }
  if (config.oidc_realm.empty()) config.oidc_realm = config.default_realm;
  return Ok();
}

}  // namespace firn::app
