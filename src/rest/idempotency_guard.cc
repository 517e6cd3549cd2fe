#include "rest/idempotency_guard.h"

#include <spdlog/spdlog.h>

#include "common/clock.h"
#include "common/log.h"
#include "rest/error_model.h"

namespace firn::rest {
namespace {

constexpr size_t kMaxKeyLength = 128;
constexpr int64_t kPurgeEveryMs = 60'000;

bool ValidKey(std::string_view key) {
  if (key.empty() || key.size() > kMaxKeyLength) return false;
  for (unsigned char c : key) {
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

std::string BodyDigest(std::string_view body) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a: a fingerprint, not a security boundary
  for (unsigned char c : body) {
    h ^= c;
    h *= 1099511628211ull;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[i] = kHex[h & 0xF];
  return out;
}

http::Response Replay(const store::IdempotencyRecord& record) {
  http::Response r;
  r.status = record.status;
  r.body = record.body;
  for (const auto& [name, value] : record.headers) r.SetHeader(name, value);
  r.SetHeader("Idempotent-Replayed", "true");
  return r;
}

}  // namespace

IdempotencyGuard::IdempotencyGuard(store::IdempotencyStore& store, std::chrono::seconds lifetime)
    : store_(store), lifetime_(lifetime) {}

std::string IdempotencyGuard::LifetimeIso8601() const {
  const auto seconds = lifetime_.count();
  if (seconds % 3600 == 0) return "PT" + std::to_string(seconds / 3600) + "H";
  if (seconds % 60 == 0) return "PT" + std::to_string(seconds / 60) + "M";
  return "PT" + std::to_string(seconds) + "S";
}

bool IdempotencyGuard::IsFinal(int status) {
  if (status >= 200 && status < 300) return true;
  return status == 400 || status == 404 || status == 406 || status == 409 || status == 422;
}

http::Response IdempotencyGuard::Run(const http::Request& request,
                                     const store::CatalogScope& scope, std::string_view principal,
                                     const std::function<http::Response()>& execute) {
  const std::string_view key = request.GetHeader("Idempotency-Key");
  if (key.empty()) return execute();
  if (!ValidKey(key)) {
    return ErrorResponse(Error(ErrorKind::kBadRequest,
                               "Invalid Idempotency-Key: expected 1 to 128 visible ASCII "
                               "characters (a UUIDv7)"));
  }
  const std::string slot = scope.realm + '\x1f' + scope.catalog + '\x1f' + std::string(principal) +
                           '\x1f' + std::string(key);

  std::promise<http::Response> promise;
  std::shared_future<http::Response> waiting;
  {
    std::lock_guard lock(mu_);
    auto it = in_flight_.find(slot);
    if (it != in_flight_.end()) {
      waiting = it->second;
    } else {
      in_flight_.emplace(slot, promise.get_future().share());
    }
  }
  if (waiting.valid()) return waiting.get();  // a duplicate in flight: share its outcome

  // Whatever happens, waiters are released and the slot is freed.
  auto release = [&] {
    std::lock_guard lock(mu_);
    in_flight_.erase(slot);
  };
  try {
    http::Response response = Execute(request, scope, principal, std::string(key), execute);
    promise.set_value(response);
    release();
    return response;
  } catch (...) {
    promise.set_exception(std::current_exception());
    release();
    throw;
  }
}

http::Response IdempotencyGuard::Execute(const http::Request& request,
                                         const store::CatalogScope& scope,
                                         std::string_view principal, const std::string& key,
                                         const std::function<http::Response()>& execute) {
  const int64_t now = NowMillis();
  const int64_t lifetime_ms = std::chrono::duration_cast<std::chrono::milliseconds>(lifetime_).count();
  PurgeExpiredOccasionally(now);
  // The operation a key names: caller, route, target and body (a reused key with another body,
  // or by another principal, is 422).
  std::string operation = std::string(http::MethodName(request.method)) + " " + request.path +
                          " #" + BodyDigest(request.body);
  if (!principal.empty()) operation += " @" + std::string(principal);

  auto stored = store_.LoadIdempotencyRecord(scope, key);
  if (!stored) return ErrorResponse(stored.error());
  if (*stored && now - (*stored)->created_ms <= lifetime_ms) {
    if ((*stored)->operation != operation) {
      return ErrorResponse(Error(ErrorKind::kUnprocessableEntity,
                                 "Idempotency-Key was already used for a different request"));
    }
    return Replay(**stored);
  }

  http::Response response = execute();
  if (IsFinal(response.status)) {
    store::IdempotencyRecord record;
    record.operation = operation;
    record.status = response.status;
    record.body = response.body;
    record.created_ms = now;
    for (std::string_view name : {"Content-Type", "ETag"}) {
      if (auto value = response.GetHeader(name); !value.empty()) {
        record.headers.emplace_back(std::string(name), std::string(value));
      }
    }
    if (auto saved = store_.SaveIdempotencyRecord(scope, key, record); !saved) {
      // The operation itself is done; a lost record only means a retry would run again.
      spdlog::warn(R"("msg":"could not store idempotency record","request_id":"{}","error":"{}")",
                   request.request_id, log::Escape(saved.error().message));
    }
  }
  return response;
}

void IdempotencyGuard::PurgeExpiredOccasionally(int64_t now_ms) {
  int64_t due = next_purge_ms_.load(std::memory_order_relaxed);
  if (now_ms < due ||
      !next_purge_ms_.compare_exchange_strong(due, now_ms + kPurgeEveryMs)) {
    return;
  }
  const int64_t lifetime_ms = std::chrono::duration_cast<std::chrono::milliseconds>(lifetime_).count();
  if (auto purged = store_.DeleteIdempotencyRecordsBefore(now_ms - lifetime_ms); !purged) {
    spdlog::warn(R"("msg":"idempotency purge failed","error":"{}")",
                 log::Escape(purged.error().message));
  }
}

}  // namespace firn::rest
