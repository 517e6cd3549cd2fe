#include "app/storage_settings.h"

#include <chrono>
#include <utility>

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

std::optional<catalog::VendingSettings> VendingSettingsOf(const ServerConfig& config) {
  auto s3 = S3ConfigOf(config);
  if (!s3) return std::nullopt;
  catalog::VendingSettings v;
  v.server = std::move(*s3);
  v.role_arn = config.s3_role_arn;
  v.client_endpoint = config.s3_client_endpoint;
  v.sts_endpoint = config.s3_sts_endpoint;
  v.sts_unavailable = config.s3_sts_unavailable;
  v.duration = std::chrono::seconds(config.vended_credentials_seconds);
  v.strict = config.vending_strict;
  return v;
}

}  // namespace firn::app
