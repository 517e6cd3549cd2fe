// Files and directories that hold secrets: the data directory, the generated admin credentials
// and key-encryption keys. Owner-only from the first byte, complete when visible, durable.
//
// Thread-safety: free functions over the file system; concurrent callers (two processes
// starting at once) are safe: WritePrivateFile publishes with link(2), so exactly one writer
// wins and nobody ever reads a half-written file.
// Errors: kAlreadyExists when the target exists (WritePrivateFile never replaces); kInternal
// for any other file-system failure, with the path and the OS reason (never the content).
#pragma once

#include <filesystem>
#include <string_view>

#include "common/result.h"

namespace firn::app {

// Creates `dir` (and missing parents) with mode 0700 for `dir` itself. An existing `dir` with
// any group/other permission bit is tightened (TightenToOwnerOnly).
Status EnsurePrivateDirectory(const std::filesystem::path& dir);

// Clears the group/other permission bits of an existing file or directory, with one warning
// log line naming it (`what`) when it changed anything. One it cannot change (owned by another
// user, e.g. a mounted volume) gets an error-level log line and is left as it is; only a path
// that cannot be read at all is an error.
Status TightenToOwnerOnly(const std::filesystem::path& path, std::string_view what);

// Writes `text` to `file` with mode 0600: into a temporary sibling (O_EXCL, 0600), fsynced,
// then linked into place (fails with kAlreadyExists when `file` exists) and the directory
// fsynced. On failure nothing is left behind.
Status WritePrivateFile(const std::filesystem::path& file, std::string_view text);

// rename(2) `from` over `to`, then fsync the directory (both in one directory).
Status ReplaceFileDurably(const std::filesystem::path& from, const std::filesystem::path& to);

// fsync of a directory, so a link, rename or unlink in it survives a crash.
Status SyncDirectory(const std::filesystem::path& dir);

}  // namespace firn::app
