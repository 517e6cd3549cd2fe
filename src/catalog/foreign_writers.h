// Foreign writers (docs/ownership-claims.md): another catalog committing to a table this
// deployment owns. Its commit leaves a metadata file in the table's metadata directory that is
// in none of Firn's chain (the current file and its metadata log). Firn notices it on the
// table's next commit and in a full scan (`firn admin fences --scan`), then fences the table:
// commits are refused (409) until an operator keeps ours, adopts theirs by chain, or releases
// the table to the other catalog.
//
// Telling files apart by name alone: every metadata file Firn writes carries the deployment's
// writer tag as the first group of its UUID (metadata/metadata_paths.h), so a concurrent commit
// of this deployment, or a file a refused commit failed to delete, is never taken for a
// foreign one. The commit-time check lists only the versions next to the current one (the
// siblings of the current file and its successors' version number): one small listing per
// commit. It catches a writer whose base is the current version or the one before it, which is
// how a fork begins (the other catalog registers the current file); the scan reads the whole
// directory and catches every other file.
//
// The fence lives in the table's database row (store::ObjectPointer::fence) as JSON
// {"state":"fenced"|"kept","detected-ms":N,"files":[…]}; "kept" remembers the files an
// operator chose to ignore, so they are not fenced again.
//
// Thread-safety: pure functions over a thread-safe ObjectStore and CatalogStore.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "io/object_store.h"
#include "metadata/table_metadata.h"
#include "store/store.h"

namespace firn::catalog {

struct Fence {
  enum class State { kNone, kFenced, kKept };
  State state = State::kNone;
  int64_t detected_ms = 0;
  std::vector<std::string> files;  // the foreign metadata files found (kept: acknowledged)
};

// '' is no fence; a document that does not parse counts as fenced (fail closed).
Fence DecodeFence(std::string_view text);
std::string EncodeFence(const Fence& fence);

// The deployment's writer tag: the first 8 hex digits of its id (lowercase), or "" when the id
// has fewer.
std::string WriterTag(std::string_view deployment_id);
// Whether the metadata file's name carries `tag` (`<version>-<tag>…`).
bool WrittenBy(std::string_view metadata_file, std::string_view tag);

// Metadata files in the table's metadata directory that are not in its chain, not written by
// `tag`, and not acknowledged by a kept `fence`. `full`: every file in the directory;
// otherwise only the versions next to the current one (the commit-time check).
Result<std::vector<std::string>> FindForeignMetadata(io::ObjectStore& objects,
                                                     const metadata::TableMetadata& current,
                                                     std::string_view current_location,
                                                     std::string_view tag, const Fence& fence,
                                                     bool full);

// The 409 a commit to a fenced table gets.
Error FencedCommitError(const store::Identifier& id, const Fence& fence);

// ---- the operator's side (`firn admin fences`, `firn admin fence …`) ------------------------

// One table's fence as found by a scan or read back from the store.
struct FencedTable {
  store::CatalogScope scope;
  store::Identifier id;
  std::string metadata_location;
  Fence fence;
};

// One table of that scan: nullopt when it is not fenced by it (no foreign file, already
// fenced, missing or unreadable). Each fence it sets is also an audit row
// ("detectForeignWriter", principal "firn admin").
Result<std::optional<FencedTable>> ScanTableForForeignWriters(store::CatalogStore& store,
                                                              io::ObjectStore& objects,
                                                              std::string_view tag,
                                                              const store::CatalogScope& scope,
                                                              const store::Identifier& id);
// Reads every table of the database and fences those whose metadata directory holds foreign
// files (a full listing each; tables already fenced or unreadable are skipped). Returns the
// tables fenced by this scan. `tag`: the deployment's WriterTag.
Result<std::vector<FencedTable>> ScanForForeignWriters(store::CatalogStore& store,
                                                       io::ObjectStore& objects,
                                                       std::string_view tag);

// What an operator decides for a fenced table:
//   kKeepOurs  Firn's chain stays; the foreign files are remembered and ignored from now on.
//   kAdopt     the newest foreign file whose metadata log contains Firn's current file (it
//              descends from ours, same table UUID and locations) becomes the pointer.
//   kRelease   the other catalog keeps the table: Firn drops its entry (no file deleted) and
//              its claim on the store.
enum class FenceResolution { kKeepOurs, kAdopt, kRelease };

// Resolves the fence of table `id` in `scope`; returns a one-line account of what changed.
// kNoSuchTable, kIllegalArgument (no fence; nothing to adopt, with why), the store's errors.
// Each resolution is written to the audit log as operation "resolveFence".
Result<std::string> ResolveFence(store::CatalogStore& store, io::ObjectStore& objects,
                                 std::string_view deployment, const store::CatalogScope& scope,
                                 const store::Identifier& id, FenceResolution resolution);

}  // namespace firn::catalog
