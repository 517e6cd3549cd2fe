// PostgreSQL connection URLs: recognising them and keeping their password out of everything
// but libpq (logs, messages, the URL the pool reconnects with).
//
// Thread-safety: pure functions. Errors: none (a URL libpq cannot parse keeps its text, minus
// anything that looks like a password).
#pragma once

#include <string>
#include <string_view>

#include "common/secret.h"

namespace firn::store {

// postgresql://… or postgres://…
bool IsPostgresUrl(std::string_view url);

// `url` without any password (for logs): "postgresql://u:secret@h/db" → "postgresql://u@h/db";
// a `password=` query parameter is removed too.
std::string RedactDatabaseUrl(const std::string& url);

// Splits a password out of `url` (userinfo or `password=` query parameter): returns the URL
// without it, and stores the password (percent-decoded, as libpq reads it) in `password` when
// one was found.
std::string TakePasswordFromUrl(const std::string& url, Secret& password);

}  // namespace firn::store
