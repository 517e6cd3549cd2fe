// IdempotencyStore: finalized responses keyed by a client's Idempotency-Key, so a retried
// mutation (after a timeout, a 5xx or a restart) replays its first outcome instead of running
// twice. Every CatalogStore backend implements it in the same database.
//
// Thread-safety: all methods are safe to call concurrently.
// Errors: kServiceUnavailable when the database cannot be reached; nothing else is expected.
// Contract: the first record saved for (scope, key) wins; saving again is a no-op. Records older
// than the advertised lifetime may be deleted at any time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"

namespace firn::store {

struct CatalogScope;

struct IdempotencyRecord {
  std::string operation;  // what the key was first used for ("POST /v1/namespaces/a/tables/t")
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // replayed response headers
  std::string body;
  int64_t created_ms = 0;
};

class IdempotencyStore {
 public:
  virtual ~IdempotencyStore() = default;

  virtual Result<std::optional<IdempotencyRecord>> LoadIdempotencyRecord(
      const CatalogScope& scope, const std::string& key) = 0;
  virtual Status SaveIdempotencyRecord(const CatalogScope& scope, const std::string& key,
                                       const IdempotencyRecord& record) = 0;
  // Deletes records created before `created_before_ms` (all scopes); returns how many.
  virtual Result<int64_t> DeleteIdempotencyRecordsBefore(int64_t created_before_ms) = 0;
};

}  // namespace firn::store
