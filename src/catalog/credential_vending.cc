#include "catalog/credential_vending.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "common/clock.h"
#include "common/log.h"
#include "common/macros.h"
#include "io/s3/aws_http.h"
#include "io/s3/sts_client.h"
#include "io/storage_schemes.h"

namespace firn::catalog {
namespace {

constexpr int64_t kExpiryMarginMs = 60'000;  // never hand out credentials this close to expiry

constexpr size_t kMaxCachedEntries = 10'000;

// storageType S3, or a catalog recorded before Firn set it (a default catalog on an s3://
// warehouse used to say FILE): its base location tells.
bool OnS3(const CatalogInfo& catalog) {
  if (catalog.storage_type == "S3") return true;
  const io::StorageScheme* scheme = io::StorageSchemeOf(catalog.base_location);
  return scheme != nullptr && scheme->store == io::StoreKind::kS3;
}

Error CannotVend(std::string why) {
  return Error(ErrorKind::kUnsupportedOperation, std::move(why));
}

}  // namespace

std::string SessionNameFor(std::string_view principal) {
  std::string name = "firn-";
  for (char c : principal) name += io::s3::IsSessionNameChar(c) ? c : '_';
  if (name.size() > 64) name.resize(64);
  return name;
}

// A catalog's effective S3 profile: its own fields, else the server's.
struct CredentialVendor::Profile {
  std::string role_arn;
  std::string external_id;
  std::string client_endpoint;
  io::s3::S3Config sts;  // where STS is called, with which keys, in which region
  std::string storage_name;
  // Identifies the STS client and, with locations, access and principal, a cache entry.
  std::string Key() const {
    return sts.endpoint + "\n" + sts.region + "\n" + role_arn + "\n" + external_id + "\n" +
           storage_name;
  }
};

bool CredentialVendor::HasOwnConnection(const CatalogInfo& catalog) {
  const StorageProfile& p = catalog.storage;
  return !p.InternalEndpoint().empty() || !p.region.empty() || p.path_style_access ||
         !p.storage_name.empty();
}

Result<io::s3::S3Config> CredentialVendor::ServerConnection(const CatalogInfo& catalog) const {
  const StorageProfile& p = catalog.storage;
  io::s3::S3Config config = settings_.server;
  if (!p.InternalEndpoint().empty()) config.endpoint = p.InternalEndpoint();
  if (!p.region.empty()) config.region = p.region;
  config.path_style_access = p.path_style_access || settings_.server.path_style_access;
  if (!p.storage_name.empty()) {
    auto keys = settings_.key_sets.find(p.storage_name);
    if (keys == settings_.key_sets.end()) {
      return Fail(ErrorKind::kInternal,
                  "The storage of catalog '" + catalog.name + "' is not configured here",
                  "storageName '" + p.storage_name + "' names no s3-key-sets entry");
    }
    config.access_key_id = keys->second.access_key_id;
    config.secret_access_key = keys->second.secret_access_key;
    config.session_token = keys->second.session_token;
  }
  return config;
}

CredentialVendor::CredentialVendor(VendingSettings settings) : settings_(std::move(settings)) {}
CredentialVendor::~CredentialVendor() = default;

Result<CredentialVendor::Profile> CredentialVendor::ProfileOf(const CatalogInfo& catalog) const {
  if (!OnS3(catalog)) {
    return Fail(CannotVend("catalog '" + catalog.name + "' is not on S3"));
  }
  const StorageProfile& p = catalog.storage;
  if (p.sts_unavailable || settings_.sts_unavailable) {
    return Fail(CannotVend("the store of catalog '" + catalog.name + "' has no STS"));
  }
  Profile out;
  out.role_arn = p.role_arn.empty() ? settings_.role_arn : p.role_arn;
  if (out.role_arn.empty()) {
    return Fail(CannotVend("catalog '" + catalog.name + "' has no role to vend from"));
  }
  out.external_id = p.external_id;
  out.storage_name = p.storage_name;
  FIRN_ASSIGN_OR_RETURN(out.sts, ServerConnection(catalog));
  const std::string& server_endpoint = settings_.server.endpoint;
  out.client_endpoint = !p.endpoint.empty()               ? p.endpoint
                        : !settings_.client_endpoint.empty() ? settings_.client_endpoint
                                                             : server_endpoint;
  // The profile's own STS / internal / client endpoint, in that order; else the server's.
  out.sts.endpoint = p.StsEndpoint();
  if (out.sts.endpoint.empty()) {
    out.sts.endpoint = settings_.sts_endpoint.empty() ? server_endpoint : settings_.sts_endpoint;
  }
  return out;
}

std::map<std::string, std::string> CredentialVendor::ClientConfig(
    const CatalogInfo& catalog) const {
  std::map<std::string, std::string> config;
  if (!OnS3(catalog)) return config;
  const StorageProfile& p = catalog.storage;
  const std::string region = p.region.empty() ? settings_.server.region : p.region;
  const std::string& endpoint = !p.endpoint.empty()                  ? p.endpoint
                                : !settings_.client_endpoint.empty() ? settings_.client_endpoint
                                                                     : settings_.server.endpoint;
  if (!endpoint.empty()) config["s3.endpoint"] = endpoint;
  // Exactly "true" or "false": DuckDB refuses anything else, and derives SSL from it.
  config["s3.path-style-access"] =
      p.path_style_access || settings_.server.path_style_access ? "true" : "false";
  if (!region.empty()) {
    config["s3.region"] = region;
    config["client.region"] = region;
  }
  return config;
}

Result<io::s3::AwsHttpClient*> CredentialVendor::StsFor(const Profile& profile) {
  std::lock_guard lock(mu_);
  auto it = sts_.find(profile.Key());
  if (it != sts_.end()) return it->second.get();
  auto client = io::s3::AwsHttpClient::Create(profile.sts, "sts");
  if (!client) {
    return Fail(ErrorKind::kInternal, "The storage token service is not configured",
                client.error().message);
  }
  io::s3::AwsHttpClient* raw = client->get();
  sts_.emplace(profile.Key(), std::move(*client));
  return raw;
}

Result<std::shared_ptr<const VendedCredentials>> CredentialVendor::Vend(
    const CatalogInfo& catalog, const std::vector<std::string>& locations,
    io::s3::DataAccess access, std::string_view principal) {
  FIRN_ASSIGN_OR_RETURN(Profile profile, ProfileOf(catalog));
  if (locations.empty()) return Fail(CannotVend("the table names no location"));
  std::vector<std::string> sorted = locations;
  std::sort(sorted.begin(), sorted.end());
  std::string key = profile.Key() + "\n" + std::string(principal) + "\n" +
                    (access == io::s3::DataAccess::kReadWrite ? "rw" : "r");
  for (const std::string& l : sorted) key += "\n" + l;

  const int64_t now = NowMillis();
  const int64_t half_life_ms = settings_.duration.count() * 1000 / 2;
  std::shared_ptr<const VendedCredentials> cached;
  {
    std::lock_guard lock(mu_);
    if (auto it = cache_.find(key); it != cache_.end()) {
      cached = it->second;
      if (cached->expires_at_ms - now > half_life_ms) {
        ++stats_.hits;
        return cached;
      }
    }
  }
  auto policy = io::s3::SessionPolicy(sorted, access);
  if (!policy) return Fail(CannotVend(policy.error().message));
  FIRN_ASSIGN_OR_RETURN(io::s3::AwsHttpClient * sts, StsFor(profile));
  io::s3::AssumeRoleRequest request;
  request.role_arn = profile.role_arn;
  request.external_id = profile.external_id;
  request.session_name = SessionNameFor(principal);
  request.policy = std::move(*policy);
  request.duration = settings_.duration;
  {
    std::lock_guard lock(mu_);
    ++stats_.sts_calls;
  }
  auto assumed = io::s3::AssumeRole(*sts, request);
  if (!assumed) {
    const Error& e = assumed.error();
    spdlog::warn(R"("msg":"credential vending failed","catalog":"{}","error":"{}","detail":"{}")",
                 log::Escape(catalog.name), log::Escape(e.message), log::Escape(e.detail));
    if (e.kind == ErrorKind::kServiceUnavailable) {
      if (cached && cached->expires_at_ms - now > kExpiryMarginMs) {
        std::lock_guard lock(mu_);
        ++stats_.stale_served;
        return cached;
      }
      return Fail(ErrorKind::kServiceUnavailable,
                  "Cannot vend storage credentials: the storage token service is unavailable");
    }
    if (e.kind == ErrorKind::kUnsupportedOperation) return Fail(CannotVend(e.message));
    return Fail(ErrorKind::kInternal, "Cannot vend storage credentials", e.detail);
  }
  auto vended = std::make_shared<VendedCredentials>();
  vended->prefix = locations.front();
  vended->expires_at_ms = assumed->expires_at_ms;
  vended->config["s3.access-key-id"] = assumed->access_key_id;
  vended->config["s3.secret-access-key"] = assumed->secret_access_key.Reveal();
  vended->config["s3.session-token"] = assumed->session_token.Reveal();
  vended->config["s3.session-token-expires-at-ms"] = std::to_string(assumed->expires_at_ms);
  std::shared_ptr<const VendedCredentials> result = std::move(vended);
  std::lock_guard lock(mu_);
  if (cache_.size() >= kMaxCachedEntries) {
    std::erase_if(cache_, [now](const auto& entry) {
      return entry.second->expires_at_ms - now <= kExpiryMarginMs;
    });
    if (cache_.size() >= kMaxCachedEntries) cache_.clear();  // bounded, at the cost of misses
  }
  cache_[key] = result;
  return result;
}

CredentialVendor::Stats CredentialVendor::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

}  // namespace firn::catalog
