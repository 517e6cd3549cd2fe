// TokenCache: verified token bytes → claims, so the hot path of a request pays a hash and a
// map lookup instead of a public-key verification (the token-check budget, docs/benchmarks.md).
//
// Contract: thread-safe; lock-striped (one mutex per stripe, the stripe chosen by the token
// hash) so concurrent hits on different tokens rarely share a lock. Only tokens that already
// passed VerifyJwt may be inserted. A hit compares the full token bytes, so a hash collision
// can never hand one caller another caller's claims. Entries die at the token's exp (leeway is
// not extended by the cache); tokens without exp are not cached. Bounded by `max_entries`:
// a full stripe first drops expired entries, then evicts the entry closest to expiry.
// Revocation by credential version ("ver") is the caller's check on the returned claims; a
// cached entry never outlives its token.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "auth/jwt.h"

namespace firn::auth {

class TokenCache {
 public:
  explicit TokenCache(size_t max_entries = 65536, size_t stripes = 16);
  TokenCache(const TokenCache&) = delete;
  TokenCache& operator=(const TokenCache&) = delete;

  // Claims of a cached, unexpired token; nullptr on a miss.
  std::shared_ptr<const Claims> Lookup(std::string_view token, int64_t now_seconds) const;
  // Caches verified claims until claims->exp. No-op without exp or when already expired.
  void Insert(std::string_view token, std::shared_ptr<const Claims> claims, int64_t now_seconds);
  void Clear();
  size_t size() const;

 private:
  struct Entry {
    std::string token;
    std::shared_ptr<const Claims> claims;
    int64_t exp;
  };
  struct Stripe {
    mutable std::mutex mu;
    std::unordered_map<uint64_t, Entry> entries;
  };

  static uint64_t Hash(std::string_view token);
  Stripe& StripeFor(uint64_t hash) const;

  size_t per_stripe_max_;
  std::unique_ptr<Stripe[]> stripes_;
  size_t stripe_count_;
};

// The verification front door the HTTP layer will call: cache hit, or VerifyJwt with `keys`
// (e.g. KeyRing::VerificationKeysAt(now)) and cache the result. Thread-safe as long as `keys`
// is not mutated during the call. Use one cache per VerifyOptions: a hit skips iss/aud checks.
Result<std::shared_ptr<const Claims>> VerifyCached(TokenCache& cache, std::string_view token,
                                                   std::span<const VerificationKey> keys,
                                                   const VerifyOptions& options, int64_t now);

}  // namespace firn::auth
