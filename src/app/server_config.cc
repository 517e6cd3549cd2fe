#include "app/server_config.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include "app/private_file.h"
#include "catalog/soft_delete.h"
#include "app/store_factory.h"
#include "catalog/location_policy.h"
#include "common/macros.h"
#include "common/strings.h"
#include "events/sink_urls.h"
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

// Reads a secret from a file, so it need not sit in the environment.
Setter SecretFileSetter(std::string key, Secret ServerConfig::*field) {
  return [key, field](ServerConfig& c, const std::string& path) -> Status {
    auto value = ReadSecretFile(path);
    if (!value) return Fail(ErrorKind::kIllegalArgument, "Cannot read " + key + ": " + path);
    c.*field = std::move(*value);
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
      {"ops_listen", StringSetter(&ServerConfig::ops_listen)},
      {"event_sink_urls", StringSetter(&ServerConfig::event_sink_urls)},
      {"db", StringSetter(&ServerConfig::db_url)},
      {"db_password", SecretSetter(&ServerConfig::db_password)},
      {"db_password_file", SecretFileSetter("db_password_file", &ServerConfig::db_password)},
      {"warehouse", StringSetter(&ServerConfig::warehouse)},
      {"storage_roots", StringSetter(&ServerConfig::storage_roots)},
      {"catalog_name", StringSetter(&ServerConfig::catalog_name)},
      {"log_level", StringSetter(&ServerConfig::log_level)},
      {"max_body_bytes", IntSetter("max_body_bytes", &ServerConfig::max_body_bytes, 1024)},
      {"max_connections", IntSetter("max_connections", &ServerConfig::max_connections, 1)},
      {"max_inflight_body_bytes",
       IntSetter("max_inflight_body_bytes", &ServerConfig::max_inflight_body_bytes, 1024)},
      {"io_threads", IntSetter("io_threads", &ServerConfig::io_threads, 1)},
      {"worker_threads", IntSetter("worker_threads", &ServerConfig::worker_threads, 1)},
      {"max_queued", IntSetter("max_queued", &ServerConfig::max_queued, 1)},
      {"max_property_key_bytes",
       IntSetter("max_property_key_bytes", &ServerConfig::max_property_key_bytes, 1)},
      {"max_property_value_bytes",
       IntSetter("max_property_value_bytes", &ServerConfig::max_property_value_bytes, 1)},
      {"max_properties_bytes",
       IntSetter("max_properties_bytes", &ServerConfig::max_properties_bytes, 1)},
      {"max_properties", IntSetter("max_properties", &ServerConfig::max_properties, 1)},
      {"max_metadata_file_bytes",
       IntSetter("max_metadata_file_bytes", &ServerConfig::max_metadata_file_bytes, 1024)},
      {"s3_endpoint", StringSetter(&ServerConfig::s3_endpoint)},
      {"s3_region", StringSetter(&ServerConfig::s3_region)},
      {"s3_access_key_id", StringSetter(&ServerConfig::s3_access_key_id)},
      {"s3_secret_access_key", SecretSetter(&ServerConfig::s3_secret_access_key)},
      {"s3_secret_access_key_file",
       SecretFileSetter("s3_secret_access_key_file", &ServerConfig::s3_secret_access_key)},
      {"s3_session_token", SecretSetter(&ServerConfig::s3_session_token)},
      {"s3_path_style_access",
       BoolSetter("s3_path_style_access", &ServerConfig::s3_path_style_access)},
      {"s3_role_arn", StringSetter(&ServerConfig::s3_role_arn)},
      {"s3_client_endpoint", StringSetter(&ServerConfig::s3_client_endpoint)},
      {"s3_sts_endpoint", StringSetter(&ServerConfig::s3_sts_endpoint)},
      {"s3_sts_unavailable",
       BoolSetter("s3_sts_unavailable", &ServerConfig::s3_sts_unavailable)},
      {"vended_credentials_seconds",
       IntSetter("vended_credentials_seconds", &ServerConfig::vended_credentials_seconds, 900)},
      {"vending_strict", BoolSetter("vending_strict", &ServerConfig::vending_strict)},
      {"s3_key_sets", StringSetter(&ServerConfig::s3_key_sets)},
      {"drop_retention", StringSetter(&ServerConfig::drop_retention)},
      {"metrics_report_retention", StringSetter(&ServerConfig::metrics_report_retention)},
      {"load_check_interval", StringSetter(&ServerConfig::load_check_interval)},
      {"auth", OnOffSetter("auth", &ServerConfig::auth)},
      {"metrics", OnOffSetter("metrics", &ServerConfig::metrics)},
      {"console", OnOffSetter("console", &ServerConfig::console)},
      {"realm_header", StringSetter(&ServerConfig::realm_header)},
      {"default_realm", StringSetter(&ServerConfig::default_realm)},
      // The production minimum is checked by Finalize, once test mode is known.
      {"token_lifetime", IntSetter("token_lifetime", &ServerConfig::token_lifetime,
                                   kTestModeMinTokenLifetimeSeconds)},
      {"bootstrap_admin", StringSetter(&ServerConfig::bootstrap_admin)},
      {"kek", SecretSetter(&ServerConfig::kek)},
      {"kek_file", SecretFileSetter("kek_file", &ServerConfig::kek)},
      {"previous_kek", SecretSetter(&ServerConfig::previous_kek)},
      {"previous_kek_file", SecretFileSetter("previous_kek_file", &ServerConfig::previous_kek)},
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
  for (char& c : key) c = c == '-' ? '_' : AsciiToLower(c);
  return key;
}

// Blanks around a line, a key or a value (a CRLF file leaves '\r' at the end of each line).
constexpr std::string_view kBlanks = " \t\r";

}  // namespace

Status ApplyConfigFile(const std::string& path, ServerConfig& config) {
  std::ifstream in(path);
  if (!in) return Fail(ErrorKind::kIllegalArgument, "Cannot open config file: " + path);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    line = std::string(Trim(line, kBlanks));
    if (line.empty() || line[0] == '#' || line[0] == '[') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      return Fail(ErrorKind::kIllegalArgument,
                  path + ":" + std::to_string(line_no) + ": expected key = value");
    }
    const std::string_view text = line;
    std::string key = NormalizeKey(std::string(Trim(text.substr(0, eq), kBlanks)));
    std::string value(Trim(text.substr(eq + 1), kBlanks));
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
  if (const char* value = std::getenv("FIRN_TEST_MODE"); value && *value) {
    FIRN_RETURN_IF_ERROR(OnOffSetter("FIRN_TEST_MODE", &ServerConfig::test_mode)(config, value));
  }
  return Ok();
}

Result<std::vector<std::string>> StorageRootsOf(const ServerConfig& config) {
  std::vector<std::string> roots;
  std::string_view rest = config.storage_roots;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) continue;
    auto normalised = catalog::NormalizeLocation(item);
    if (!normalised) {
      return Fail(ErrorKind::kIllegalArgument,
                  "Invalid storage root " + std::string(item) + ": " + normalised.error().detail);
    }
    roots.push_back(std::move(*normalised));
  }
  return roots;
}

std::string DefaultCatalogBase(const ServerConfig& config, const std::string& realm) {
  if (realm.empty() || realm == config.default_realm) {
    return config.warehouse + "/" + config.catalog_name;
  }
  return config.warehouse + "/" + realm + "/" + config.catalog_name;
}

Result<Secret> ReadSecretFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorKind::kIllegalArgument, "Cannot read " + path);
  std::string value((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!value.empty() && (value.back() == '\n' || value.back() == '\r')) value.pop_back();
  return Secret(std::move(value));
}

Status Finalize(ServerConfig& config) {
  std::filesystem::path dir = std::filesystem::absolute(config.data_dir).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "/var/lib/firn/" → "/var/lib/firn"
  if (auto st = EnsurePrivateDirectory(dir); !st) {
    return Fail(ErrorKind::kIllegalArgument, st.error().message);
  }
  const std::string abs = dir.string();
  config.data_dir = abs;
  if (config.db_url.empty()) config.db_url = "sqlite://" + abs + "/firn.db";
  if (store::IsPostgresUrl(config.db_url)) {
    Secret inline_password;
    config.db_url = store::TakePasswordFromUrl(config.db_url, inline_password);
    if (config.db_password.empty()) config.db_password = std::move(inline_password);
  }
  if (config.warehouse.empty()) config.warehouse = "file://" + abs + "/warehouse";
  config.warehouse = StripTrailingSlash(config.warehouse);
  if (config.storage_roots.empty()) config.storage_roots = config.warehouse;
  FIRN_ASSIGN_OR_RETURN(auto roots, StorageRootsOf(config));
  if (auto st = catalog::CheckInsideStorageRoots(roots, config.warehouse); !st) {
    return Fail(ErrorKind::kIllegalArgument,
                "The warehouse " + config.warehouse + " must lie inside a storage root (" +
                    config.storage_roots + ")");
  }
  if (auto retention = catalog::ParseDuration(config.drop_retention); !retention) {
    return Fail(ErrorKind::kIllegalArgument,
                "Invalid value for drop_retention: " + retention.error().message);
  }
  if (auto every = catalog::ParseDuration(config.load_check_interval, "load_check_interval");
      !every) {
    return Fail(ErrorKind::kIllegalArgument, every.error().message);
  }
  if (config.token_lifetime < kMinTokenLifetimeSeconds && !config.test_mode) {
    return Fail(ErrorKind::kIllegalArgument,
                "Invalid value for token_lifetime: expected an integer >= " +
                    std::to_string(kMinTokenLifetimeSeconds));
  }
  if (config.vended_credentials_seconds > 43200) {
    // STS's own bounds (900 s to 12 h); the minimum is the setter's.
    return Fail(ErrorKind::kIllegalArgument,
                "Invalid value for vended_credentials_seconds: expected 900 to 43200");
  }
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
  if (auto urls = events::ParseSinkUrlPrefixes(config.event_sink_urls); !urls) {
    return std::unexpected(urls.error());
  }
  if (config.max_inflight_body_bytes < config.max_body_bytes) {
    // Otherwise a body within max_body_bytes could never be read.
    return Fail(ErrorKind::kIllegalArgument,
                "max-inflight-body-bytes must be at least max-body-bytes");
  }
  return Ok();
}

}  // namespace firn::app
