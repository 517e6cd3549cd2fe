#include "auth/token_cache.h"

#include <algorithm>
#include <functional>

namespace firn::auth {

TokenCache::TokenCache(size_t max_entries, size_t stripes)
    : per_stripe_max_(std::max<size_t>(1, max_entries / std::max<size_t>(1, stripes))),
      stripes_(new Stripe[std::max<size_t>(1, stripes)]),
      stripe_count_(std::max<size_t>(1, stripes)) {}

uint64_t TokenCache::Hash(std::string_view token) {
  // A fast non-cryptographic hash is enough: it only picks the slot; Lookup compares bytes,
  // and only signature-checked tokens get in, so nobody can flood a slot with chosen keys.
  return std::hash<std::string_view>{}(token);
}

TokenCache::Stripe& TokenCache::StripeFor(uint64_t hash) const {
  // High bits pick the stripe so they are independent of the map's own bucket choice.
  return stripes_[(hash >> 48) % stripe_count_];
}

std::shared_ptr<const Claims> TokenCache::Lookup(std::string_view token, int64_t now) const {
  uint64_t h = Hash(token);
  Stripe& s = StripeFor(h);
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.entries.find(h);
  if (it == s.entries.end() || it->second.exp <= now || it->second.token != token) return nullptr;
  return it->second.claims;
}

void TokenCache::Insert(std::string_view token, std::shared_ptr<const Claims> claims,
                        int64_t now) {
  if (!claims || !claims->exp || *claims->exp <= now) return;
  uint64_t h = Hash(token);
  Stripe& s = StripeFor(h);
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.entries.size() >= per_stripe_max_ && !s.entries.contains(h)) {
    std::erase_if(s.entries, [now](const auto& kv) { return kv.second.exp <= now; });
    if (s.entries.size() >= per_stripe_max_) {
      auto victim = std::min_element(s.entries.begin(), s.entries.end(), [](auto& a, auto& b) {
        return a.second.exp < b.second.exp;
      });
      s.entries.erase(victim);
    }
  }
  int64_t exp = *claims->exp;
  s.entries.insert_or_assign(h, Entry{std::string(token), std::move(claims), exp});
}

void TokenCache::Clear() {
  for (size_t i = 0; i < stripe_count_; ++i) {
    std::lock_guard<std::mutex> lock(stripes_[i].mu);
    stripes_[i].entries.clear();
  }
}

size_t TokenCache::size() const {
  size_t n = 0;
  for (size_t i = 0; i < stripe_count_; ++i) {
    std::lock_guard<std::mutex> lock(stripes_[i].mu);
    n += stripes_[i].entries.size();
  }
  return n;
}

Result<std::shared_ptr<const Claims>> VerifyCached(TokenCache& cache, std::string_view token,
                                                   std::span<const VerificationKey> keys,
                                                   const VerifyOptions& options, int64_t now) {
  if (auto hit = cache.Lookup(token, now)) return hit;
  auto claims = VerifyJwt(token, keys, options, now);
  if (!claims) return std::unexpected(claims.error());
  auto shared = std::make_shared<const Claims>(std::move(*claims));
  cache.Insert(token, shared, now);
  return shared;
}

}  // namespace firn::auth
