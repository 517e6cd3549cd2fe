// The `firn admin …` commands: argument handling already done by the CLI, these run the work,
// print a short summary to stdout (errors to stderr) and return the process exit code
// (0 done, 1 failed). Passwords are never printed.
// Thread-safety: run once, from main.
#pragma once

#include <string>
#include <string_view>

#include "common/result.h"
#include "store/store.h"

namespace firn::app {

// Prints `e` to stderr as "<command>: <message>", its detail on a line below (the operator runs
// these commands, so the detail is theirs to see); returns the exit code 1.
int ReportAdminFailure(std::string_view command, const Error& e);

// "a.b.t" → namespace [a, b], name t (the admin commands' --table); kIllegalArgument unless
// there are at least two non-empty levels.
Result<store::Identifier> ParseTableArg(std::string_view text, std::string_view flag);

// firn admin backup --db sqlite:///src.db --to /path/copy.db
// Both print one JSON object when stderr is not a terminal (or with `json`), a line of text
// and a progress line on a terminal (app/progress.h).
int RunAdminBackup(const std::string& db_url, const std::string& to, bool json = false);

struct CopyStoreArgs {
  std::string from_url;
  std::string to_url;
  std::string from_password_file;  // PostgreSQL password files (else FIRN_DB_PASSWORD, URL,
  std::string to_password_file;    // or libpq's PGPASSWORD / ~/.pgpass)
  bool force = false;
  bool json = false;  // JSON even on a terminal
};

// firn admin copy-store --from URL --to URL [--force]
int RunAdminCopyStore(const CopyStoreArgs& args);

}  // namespace firn::app
