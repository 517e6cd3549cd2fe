#include "app/storage_settings.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "common/macros.h"
#include "common/strings.h"
#include "io/storage_schemes.h"

namespace firn::app {

std::optional<io::s3::S3Config> S3ConfigOf(const ServerConfig& config) {
  if (config.s3_endpoint.empty() && config.s3_access_key_id.empty()) return std::nullopt;
  io::s3::S3Config s3;
  s3.endpoint = config.s3_endpoint;
  s3.region = config.s3_region;
  s3.access_key_id = config.s3_access_key_id;
  s3.secret_access_key = config.s3_secret_access_key;
  s3.session_token = config.s3_session_token;
  s3.path_style_access = config.s3_path_style_access;
  return s3;
}

catalog::CatalogInfo DefaultCatalogInfo(const ServerConfig& config) {
  catalog::CatalogInfo info;
  info.name = config.catalog_name;
  info.base_location = DefaultCatalogBase(config);
  if (const io::StorageScheme* scheme = io::StorageSchemeOf(info.base_location);
      scheme != nullptr && scheme->store == io::StoreKind::kS3) {
    info.storage_type = "S3";
  }
  return info;
}

namespace {

bool IsKeySetName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  return std::ranges::all_of(name, [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_';
  });
}

// One key file: `key = value` lines (blank lines and # comments allowed).
Result<io::s3::Credentials> ReadKeySet(const std::string& name, const std::string& path) {
  auto text = ReadSecretFile(path);
  auto bad = [&](const std::string& why) {
    return Fail(ErrorKind::kIllegalArgument,
                "Invalid s3-key-sets entry '" + name + "' (" + path + "): " + why);
  };
  if (!text) return bad("cannot read the file");
  io::s3::Credentials keys;
  std::string_view rest = text->Reveal();
  int line_no = 0;
  while (!rest.empty()) {
    ++line_no;
    const size_t nl = rest.find('\n');
    std::string_view line = Trim(rest.substr(0, nl), " \t\r");
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) return bad("line " + std::to_string(line_no) + ": expected key = value");
    const std::string_view key = Trim(line.substr(0, eq), " \t");
    const std::string value(Trim(line.substr(eq + 1), " \t"));
    if (key == "access_key_id") {
      keys.access_key_id = value;
    } else if (key == "secret_access_key") {
      keys.secret_access_key = Secret(value);
    } else if (key == "session_token") {
      keys.session_token = Secret(value);
    } else {
      return bad("line " + std::to_string(line_no) + ": unknown key '" + std::string(key) + "'");
    }
  }
  if (keys.access_key_id.empty() || keys.secret_access_key.empty()) {
    return bad("it needs access_key_id and secret_access_key");
  }
  return keys;
}

}  // namespace

Result<std::map<std::string, io::s3::Credentials>> S3KeySetsOf(const ServerConfig& config) {
  std::map<std::string, io::s3::Credentials> sets;
  std::string_view rest = config.s3_key_sets;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view item = Trim(rest.substr(0, comma), " ");
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string name(Trim(item.substr(0, eq), " "));
    if (eq == std::string_view::npos || !IsKeySetName(name)) {
      return Fail(ErrorKind::kIllegalArgument,
                  "Invalid s3-key-sets: expected name=path entries, names of letters, digits, "
                  "'-' and '_' (at most 64)");
    }
    if (sets.contains(name)) {
      return Fail(ErrorKind::kIllegalArgument, "Invalid s3-key-sets: '" + name + "' twice");
    }
    FIRN_ASSIGN_OR_RETURN(io::s3::Credentials keys,
                          ReadKeySet(name, std::string(Trim(item.substr(eq + 1), " "))));
    sets.emplace(name, std::move(keys));
  }
  return sets;
}

Result<std::optional<catalog::VendingSettings>> VendingSettingsOf(const ServerConfig& config) {
  FIRN_ASSIGN_OR_RETURN(auto key_sets, S3KeySetsOf(config));
  auto s3 = S3ConfigOf(config);
  if (!s3) {
    if (!key_sets.empty()) {
      return Fail(ErrorKind::kIllegalArgument,
                  "s3-key-sets needs the server's S3 connection (s3-endpoint or keys)");
    }
    return std::optional<catalog::VendingSettings>();
  }
  catalog::VendingSettings v;
  v.server = std::move(*s3);
  v.key_sets = std::move(key_sets);
  v.role_arn = config.s3_role_arn;
  v.client_endpoint = config.s3_client_endpoint;
  v.sts_endpoint = config.s3_sts_endpoint;
  v.sts_unavailable = config.s3_sts_unavailable;
  v.duration = std::chrono::seconds(config.vended_credentials_seconds);
  v.strict = config.vending_strict;
  return std::optional<catalog::VendingSettings>(std::move(v));
}

}  // namespace firn::app
