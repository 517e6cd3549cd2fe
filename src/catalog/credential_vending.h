// CredentialVendor: temporary S3 credentials confined to one table's locations, for engines
// that hold no storage key of their own (docs/vending.md).
//
// A vend is one STS AssumeRole (io/s3/sts_client.h) with the catalog's role, a session policy
// naming only the table's locations (io/s3/session_policy.h; read-only or read-write), a
// session name that carries the principal (so the store's own logs show who), and the
// configured duration. Results are cached per (catalog profile, locations, access, principal):
// a cached entry is handed out until half its lifetime is gone, so a client always gets at
// least half a lifetime; after that the next vend renews it. When STS is unavailable, an entry
// that has not yet expired (with a minute to spare) is still handed out; only once none is left
// does the vend fail with kServiceUnavailable.
//
// Profiles: a catalog's StorageProfile fields override the server's settings field by field
// (role, region, endpoints, path style, STS availability); its `storage_name` picks the
// server-side keys (VendingSettings::key_sets) that sign the STS calls, the remote signatures
// and the server's own reads and writes of the catalog's files (ServerConnection).
//
// Errors: kUnsupportedOperation when this catalog cannot vend at all (not S3, stsUnavailable,
// no role, STS refused the session policy, a location no policy can confine) — the caller
// then answers without credentials, or 400 in strict mode; kServiceUnavailable when STS is down
// and nothing usable is cached; kInternal for the server's own STS setup (its keys or role
// refused), logged with the detail.
// Thread-safety: Vend and ClientConfig may be called concurrently.
// Secrets: vended secrets and tokens live in the returned config and the cache only.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "catalog/catalog_registry.h"
#include "common/result.h"
#include "io/s3/s3_config.h"
#include "io/s3/session_policy.h"
#include "io/s3/sigv4.h"

namespace firn::io::s3 {
class AwsHttpClient;
}

namespace firn::catalog {

struct VendingSettings {
  // The server's own S3 connection: its keys sign STS calls; endpoint, region and path style
  // are the fallbacks for a profile that names none.
  io::s3::S3Config server;
  std::string role_arn;         // fallback roleArn
  std::string client_endpoint;  // fallback endpoint given to clients; empty: server.endpoint
  std::string sts_endpoint;     // fallback STS endpoint; empty: server.endpoint
  bool sts_unavailable = false;
  std::chrono::seconds duration{3600};
  bool strict = false;  // answer 400 when a client asked and nothing can be vended
  // Named server-side keys (a profile's storageName → keys); the server's own keys above are
  // used when a profile names none.
  std::map<std::string, io::s3::Credentials> key_sets;
};

struct VendedCredentials {
  std::string prefix;  // the table location the credentials are confined to
  // s3.access-key-id, s3.secret-access-key, s3.session-token, s3.session-token-expires-at-ms
  std::map<std::string, std::string> config;
  int64_t expires_at_ms = 0;
};

class CredentialVendor {
 public:
  explicit CredentialVendor(VendingSettings settings);
  ~CredentialVendor();
  CredentialVendor(const CredentialVendor&) = delete;
  CredentialVendor& operator=(const CredentialVendor&) = delete;

  const VendingSettings& settings() const { return settings_; }

  // What every client of an S3 catalog is told about reaching the store (s3.endpoint,
  // s3.path-style-access, s3.region, client.region); empty for a catalog that is not S3.
  std::map<std::string, std::string> ClientConfig(const CatalogInfo& catalog) const;

  // Credentials for `locations` (the table's own, s3:// URIs; the table location first, which
  // becomes the credentials' prefix) at `access`, for `principal`. At most 10,000 entries are
  // cached; expired ones go first.
  Result<std::shared_ptr<const VendedCredentials>> Vend(const CatalogInfo& catalog,
                                                        const std::vector<std::string>& locations,
                                                        io::s3::DataAccess access,
                                                        std::string_view principal);

  // How the server itself reaches `catalog`'s store: its own S3 connection with the profile's
  // internal endpoint (endpointInternal, else endpoint), region and path style, and the keys
  // its storageName names (the server's keys when it names none). kInternal when it names a
  // key set this server does not configure (instances configured differently; the management
  // API refuses unknown names).
  Result<io::s3::S3Config> ServerConnection(const CatalogInfo& catalog) const;
  // Whether ServerConnection(catalog) differs from the server's own connection.
  static bool HasOwnConnection(const CatalogInfo& catalog);

  // Cache statistics, for tests and metrics.
  struct Stats {
    uint64_t hits = 0;
    uint64_t sts_calls = 0;
    uint64_t stale_served = 0;  // served past half-life because STS was unavailable
  };
  Stats stats() const;

 private:
  struct Profile;
  Result<Profile> ProfileOf(const CatalogInfo& catalog) const;
  Result<io::s3::AwsHttpClient*> StsFor(const Profile& profile);

  const VendingSettings settings_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const VendedCredentials>> cache_;  // mu_
  std::unordered_map<std::string, std::unique_ptr<io::s3::AwsHttpClient>> sts_;      // mu_
  Stats stats_;                                                                      // mu_
};

// "firn-<principal>" reduced to STS's session-name alphabet and length (2-64 characters of
// [A-Za-z0-9+=,.@_-]).
std::string SessionNameFor(std::string_view principal);

}  // namespace firn::catalog
