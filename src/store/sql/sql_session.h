// The small interface the shared SQL layer (store/sql/) runs on. A backend (SQLite, PostgreSQL)
// implements Session (run one statement, hand back its rows) and Runner (where and how a body
// of statements runs: which connection, which transaction, which retries); every statement and
// every rule of the CatalogStore contract lives once, in store/sql/.
//
// Statements use PostgreSQL-style numbered placeholders ($1, $2, …; a number may repeat or come
// out of order); a backend with another spelling translates them once per statement text.
// Statement texts are compile-time constants or built from them (the audit query), so backends
// may cache prepared statements by text.
//
// Thread-safety: a Session is used by one thread at a time, for the duration of one Runner call.
// A Runner is safe to call from any thread.
// Errors: Session calls return the backend's mapping of database failures onto the CatalogStore
// contract (kServiceUnavailable, kCommitStateUnknown, kInternal); a Runner reruns a body when
// the backend says the failure was a race worth retrying, so a body must be safe to rerun (it
// may only write through its Session and must assign its outputs afresh on every run).
// Ownership: Values borrow their text; it must outlive the call that receives them.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "common/function_ref.h"
#include "common/macros.h"
#include "common/result.h"

namespace firn::store::sql {

// One statement parameter: NULL, text (borrowed) or a 64-bit integer.
class Value {
 public:
  Value(std::nullopt_t) {}                            // NOLINT: implicit by design
  Value(std::string_view text) : value_(text) {}      // NOLINT
  Value(const std::string& text) : value_(std::string_view(text)) {}  // NOLINT
  Value(const char* text) : value_(std::string_view(text)) {}         // NOLINT
  template <typename T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  Value(T number) : value_(static_cast<int64_t>(number)) {}  // NOLINT

  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
  const std::string_view* text() const { return std::get_if<std::string_view>(&value_); }
  const int64_t* number() const { return std::get_if<int64_t>(&value_); }

 private:
  std::variant<std::monostate, std::string_view, int64_t> value_;
};

// "No limit" for a LIMIT parameter, spelt so that every backend accepts it.
inline constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();

// One result row; valid only inside the callback that receives it.
class Row {
 public:
  virtual ~Row() = default;
  virtual std::string_view Text(int col) const = 0;
  virtual int64_t Int(int col) const = 0;
  virtual bool IsNull(int col) const = 0;
};

using RowFn = FunctionRef<Status(const Row&)>;
using Params = std::span<const Value>;

class Session {
 public:
  virtual ~Session() = default;

  // A statement that changes nothing; `on_row` runs once per row, in order, and its error stops
  // the statement and is returned.
  virtual Status Query(std::string_view sql, Params params, RowFn on_row) = 0;
  // A statement that may change rows (RETURNING rows go to `on_row`); returns how many rows it
  // inserted, updated or deleted. In a single-statement write (Runner::Write kSingle) a lost
  // connection means the outcome is unknown (kCommitStateUnknown).
  virtual Result<int64_t> Exec(std::string_view sql, Params params, RowFn on_row) = 0;
  // Whether the backend has row locks (SELECT … FOR UPDATE). Without them the backend runs one
  // write transaction at a time, so the plain statement is as strong as the locking one.
  virtual bool HasRowLocks() const = 0;

  // Conveniences for a braced list of parameters.
  Status Query(std::string_view sql, std::initializer_list<Value> params, RowFn on_row) {
    return Query(sql, Params(params.begin(), params.size()), on_row);
  }
  Result<int64_t> Exec(std::string_view sql, std::initializer_list<Value> params) {
    return Exec(sql, Params(params.begin(), params.size()), kNoRows);
  }
  Result<int64_t> Exec(std::string_view sql, std::initializer_list<Value> params, RowFn on_row) {
    return Exec(sql, Params(params.begin(), params.size()), on_row);
  }
  // Exec for a statement whose row count does not matter.
  Status Run(std::string_view sql, std::initializer_list<Value> params) {
    FIRN_RETURN_IF_ERROR(Exec(sql, params));
    return Ok();
  }
  // Whether the query returns at least one row.
  Result<bool> Exists(std::string_view sql, std::initializer_list<Value> params) {
    bool found = false;
    auto mark = [&found](const Row&) -> Status {
      found = true;
      return Ok();
    };
    FIRN_RETURN_IF_ERROR(Query(sql, params, mark));
    return found;
  }

 private:
  static constexpr auto kNoRows = [](const Row&) -> Status { return Ok(); };
};

enum class ReadMode {
  kSingle,    // one statement, or several that need not see one snapshot
  kSnapshot,  // several statements that must see one snapshot
};

enum class WriteMode {
  kSingle,       // exactly one writing statement (reads may follow it): may run in autocommit,
                 // where a lost connection leaves the outcome unknown
  kIdempotent,   // one writing statement whose replay is harmless: a lost connection is plain
                 // unavailability (nothing the caller must treat as maybe-committed)
  kTransaction,  // any statements, in one transaction
};

class Runner {
 public:
  virtual ~Runner() = default;
  virtual Status Read(ReadMode mode, FunctionRef<Status(Session&)> body) = 0;
  // The body's writes commit together iff it returns Ok and the commit succeeds; the call
  // returns only once they are durable (or failed).
  virtual Status Write(WriteMode mode, FunctionRef<Status(Session&)> body) = 0;
};

}  // namespace firn::store::sql
