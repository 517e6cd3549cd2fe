// TokenService: the OAuth2 token endpoint (POST /v1/oauth/tokens) as Iceberg clients use it.
//
// Grants: client_credentials (client id/secret in the form or in HTTP Basic, RFC 6749 §2.3.1)
// and urn:ietf:params:oauth:grant-type:token-exchange (a valid Firn token of the same realm in
// subject_token → a fresh token for the same principal; Iceberg Java refreshes this way).
// Scopes: "PRINCIPAL_ROLE:ALL", "catalog" (both: every role), "PRINCIPAL_ROLE:<name>"
// (several allowed); a role the principal does not hold → invalid_scope; no scope = all roles.
// Errors use the OAuth shape {"error","error_description"}: invalid_request,
// unsupported_grant_type, invalid_grant, invalid_scope → 400; invalid_client → 401;
// throttled → 429 {"error":"slow_down"} with Retry-After.
//
// Token exchange never widens: a subject token limited to some principal roles can only be
// exchanged for a subset of them (PRINCIPAL_ROLE:ALL / "catalog" → invalid_scope); no scope
// keeps the subject token's scope.
// Security: every attempt runs exactly two constant-time scrypt verifications (current and
// previous secret hash; the dummy hash stands in for a missing one and for an unknown client
// id or realm), so timing does not tell which ids exist or have a previous secret — except a
// request whose secret equals one this instance verified for that client and whose hash is
// still current or previous: that one is accepted by an HMAC compare (microseconds; the
// verified-secret cache, docs/auth.md). Only a right secret is fast, so guessing still costs
// two scrypt runs per try, and a fast answer tells nothing a 200 does not. When the
// dummy hash cannot be generated, status() is an error (logged at construction) and every
// request is refused with 500 — never a fast path. At most `max_concurrent_hashes` scrypt
// runs at once (16 MiB each). Failures are counted per source — (realm, client id, remote
// address) — and, with a higher limit, per (realm, client id) from every address together;
// a source or client over its limit is answered 429 before any hash runs. Failures of other
// client ids never lock a client out, so a valid client logs in from an address where someone
// else is guessing. Both tables are bounded in memory; a full table evicts the oldest entry
// that is not locked out, and when every entry is locked out a new key is treated as
// throttled. Realms and client ids longer than 256 bytes are refused (401) before any hash.
// Secrets and tokens never reach a log line or an error message.
// Thread-safety: Handle is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <semaphore>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "access/access_snapshot.h"
#include "access/authenticator.h"

namespace firn::access {

struct TokenServiceOptions {
  int max_concurrent_hashes = 2;
  // Failures tolerated before a lockout: of one client id from one remote address (the
  // brute-force throttle), and of one client id from all addresses together (a bound on
  // guessing from many addresses; one address alone stays below it, its source being locked
  // after max_failures_per_source).
  int max_failures_per_source = 10;
  int max_failures_per_client = 50;
  int64_t failure_window_seconds = 60;  // failures older than this are forgotten
  int64_t lockout_seconds = 30;
  size_t max_tracked = 10000;  // per table; stale entries are dropped first
  // Clients whose secret this instance verified recently (0 disables): their next request
  // with the same secret is checked by one HMAC instead of two scrypt runs. A wrong secret
  // still costs the two runs, so guessing stays as slow as before.
  size_t verified_secrets = 10000;
  // Makes the dummy hash (tests inject a failure); default: a random secret hashed with the
  // same cost parameters as real rows.
  std::function<Result<std::string>()> make_dummy_hash;
};

struct TokenRequest {
  std::string realm;           // resolved from the realm header or the default
  std::string body;            // application/x-www-form-urlencoded
  std::string authorization;   // raw Authorization header ("" when absent)
  std::string remote_address;  // "" when unknown (all unknown addresses are one source)
};

struct TokenResponse {
  int status = 200;
  std::string body;  // JSON
  std::vector<std::pair<std::string, std::string>> headers;  // Cache-Control, Retry-After, ...
};

class TokenService {
 public:
  using SnapshotFn = std::function<std::shared_ptr<const AccessSnapshot>()>;

  // `authenticator` verifies subject tokens for token exchange; it must outlive the service.
  TokenService(const Authenticator& authenticator, SnapshotFn snapshot,
               TokenServiceOptions options = {});
  ~TokenService();

  TokenResponse Handle(const TokenRequest& request, int64_t now_seconds);

  // Ok when the service can answer; the error when the dummy hash could not be generated
  // (the server should refuse to start).
  const Status& status() const { return status_; }
  // scrypt verifications run so far (tests assert every attempt costs the same).
  uint64_t secret_verifications() const { return verifications_.load(); }
  // Requests whose secret the verified-secret cache accepted without scrypt.
  uint64_t cached_verifications() const { return cached_.load(); }

 private:
  struct Failures {
    int count = 0;
    int64_t window_start = 0;
    int64_t blocked_until = 0;
  };
  using FailureTable = std::unordered_map<std::string, Failures>;

  TokenResponse Answer(const TokenRequest& request, int64_t now);  // Handle, uncounted

  TokenResponse ClientCredentials(const TokenRequest& request,
                                  const std::vector<std::pair<std::string, std::string>>& form,
                                  int64_t now);
  TokenResponse Exchange(const TokenRequest& request,
                         const std::vector<std::pair<std::string, std::string>>& form,
                         int64_t now);
  TokenResponse Issue(const RealmState& realm, const PrincipalInfo& principal,
                      std::string_view scope, std::string_view client_id, int64_t now);
  // `client_key`: realm and client id, the verified-secret cache's key.
  bool CheckSecret(const Secret& secret, const PrincipalInfo* principal,
                   const std::string& client_key);

  int64_t BlockedFor(const std::string& client_key, const std::string& source_key, int64_t now);
  void RecordFailure(const std::string& client_key, const std::string& source_key, int64_t now);
  void RecordSuccess(const std::string& source_key);
  // Seconds to wait when `key` cannot be tracked because the full table holds only lockouts.
  static int64_t FullOfLockouts(const FailureTable& table, const std::string& key,
                                const TokenServiceOptions& o, int64_t now);
  static void Bump(FailureTable& table, const std::string& key, int limit,
                   const TokenServiceOptions& o, int64_t now);

  const Authenticator& authenticator_;
  SnapshotFn snapshot_;
  TokenServiceOptions options_;
  std::string dummy_hash_;  // verified against in place of a missing hash
  Status status_;
  std::atomic<uint64_t> verifications_{0};
  std::atomic<uint64_t> cached_{0};
  std::counting_semaphore<64> hash_slots_;
  // The verified-secret cache: per client key, the stored hash the secret matched and the
  // secret's HMAC under a key drawn at start (never the secret itself, never persisted).
  // An entry counts only while that hash is still the principal's current or previous one,
  // so a rotation, reset or new principal under the same client id misses it.
  struct Verified {
    std::string hash;
    std::string mac;
  };
  std::string verified_key_;
  std::shared_mutex verified_mu_;
  std::unordered_map<std::string, Verified> verified_;
  std::mutex failures_mu_;
  FailureTable source_failures_;  // realm, client id, remote address
  FailureTable client_failures_;  // realm, client id
};

// An OAuth-shaped error answer {"error","error_description"} with Cache-Control: no-store,
// as the token endpoint sends them (also for refusals made before it runs).
TokenResponse OAuthError(int status, std::string_view error, std::string_view description);

}  // namespace firn::access
