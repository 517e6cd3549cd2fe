#include "store/postgres/pg_url.h"

#include <libpq-fe.h>

#include <optional>

namespace firn::store {
namespace {

// [begin, end) of the userinfo password (with its ':'), or of a password=... query parameter.
struct PasswordSpan {
  size_t begin = std::string::npos;
  size_t end = std::string::npos;
  bool in_query = false;
};

PasswordSpan FindPassword(const std::string& url) {
  PasswordSpan span;
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return span;
  const size_t authority = scheme + 3;
  const size_t path = url.find_first_of("/?", authority);
  const size_t at = url.rfind('@', path == std::string::npos ? url.size() : path);
  if (at != std::string::npos && at >= authority) {
    const size_t colon = url.find(':', authority);
    if (colon != std::string::npos && colon < at) {
      span.begin = colon;  // keep "user", drop ":password"
      span.end = at;
      return span;
    }
  }
  const size_t query = url.find('?', authority);
  if (query == std::string::npos) return span;
  size_t pos = query + 1;
  while (pos < url.size()) {
    size_t amp = url.find('&', pos);
    if (amp == std::string::npos) amp = url.size();
    if (url.compare(pos, 9, "password=") == 0) {
      span.in_query = true;
      span.begin = pos;
      span.end = amp;
      return span;
    }
    pos = amp + 1;
  }
  return span;
}

std::string RemoveSpan(const std::string& url, const PasswordSpan& span) {
  if (!span.in_query) return url.substr(0, span.begin) + url.substr(span.end);
  // Drop "password=…" and one adjacent separator.
  size_t begin = span.begin;
  size_t end = span.end;
  if (end < url.size()) {
    ++end;  // the following '&'
  } else {
    --begin;  // the preceding '?' or '&'
  }
  return url.substr(0, begin) + url.substr(end);
}

// The password libpq would use from `url` itself (decoded), if the URL names one.
std::optional<std::string> ParsedPassword(const std::string& url) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
  if (error != nullptr) PQfreemem(error);  // may quote the URL: never surfaced
  if (options == nullptr) return std::nullopt;
  std::optional<std::string> password;
  for (PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (std::string_view(o->keyword) == "password" && o->val != nullptr) password = o->val;
  }
  PQconninfoFree(options);
  return password;
}

}  // namespace

bool IsPostgresUrl(std::string_view url) {
  return url.starts_with("postgresql://") || url.starts_with("postgres://");
}

std::string RedactDatabaseUrl(const std::string& url) {
  Secret ignored;
  return TakePasswordFromUrl(url, ignored);
}

std::string TakePasswordFromUrl(const std::string& url, Secret& password) {
  if (auto parsed = ParsedPassword(url)) password = Secret(std::move(*parsed));
  std::string out = url;
  // A URL may (oddly) carry both forms; strip every occurrence.
  for (int i = 0; i < 4; ++i) {
    const PasswordSpan span = FindPassword(out);
    if (span.begin == std::string::npos) break;
    out = RemoveSpan(out, span);
  }
  return out;
}

}  // namespace firn::store
