// IdempotencyGuard: Idempotency-Key handling for mutating routes (REST spec 1.11).
//
// - A request without the header runs normally.
// - The first finalized response for a key (2xx, and the deterministic 4xx: 400, 404, 406,
//   409, 422) is stored in the catalog database with the status, body and ETag, and replayed
//   for any retry with the same key within the lifetime — also after a restart or on another
//   instance. 5xx, 401, 403, 419 and 429 are never stored: the retry runs again.
// - Concurrent requests with the same key on this instance wait for the first and share its
//   response instead of running twice.
// - The same key on a different route or table is 422: a key names one logical operation.
// - A key belongs to the principal that used it first: another principal reusing it gets 422,
//   never the stored response (a replay must not bypass authorisation), and concurrent
//   duplicates are coalesced only per principal.
// Thread-safety: safe for concurrent use. Ownership: borrows the store.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <string>

#include "http/http_types.h"
#include "store/idempotency_store.h"
#include "store/store.h"

namespace firn::rest {

class IdempotencyGuard {
 public:
  IdempotencyGuard(store::IdempotencyStore& store, std::chrono::seconds lifetime);

  // `principal` is the authenticated caller ("" when authentication is off).
  http::Response Run(const http::Request& request, const store::CatalogScope& scope,
                     std::string_view principal, const std::function<http::Response()>& execute);

  // ISO-8601 duration advertised as `idempotency-key-lifetime` in /v1/config, e.g. "PT30M".
  std::string LifetimeIso8601() const;

 private:
  static bool IsFinal(int status);
  http::Response Execute(const http::Request& request, const store::CatalogScope& scope,
                         std::string_view principal, const std::string& key,
                         const std::function<http::Response()>& execute);
  void PurgeExpiredOccasionally(int64_t now_ms);

  store::IdempotencyStore& store_;
  const std::chrono::seconds lifetime_;
  std::mutex mu_;
  std::map<std::string, std::shared_future<http::Response>> in_flight_;
  std::atomic<int64_t> next_purge_ms_{0};
};

}  // namespace firn::rest
