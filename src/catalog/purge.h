// PurgeTableFiles: deletes exactly the files a table's metadata references — data and delete
// files (only when gc.enabled, default true), manifests, manifest lists, statistics, previous
// metadata files and the current metadata file. Never a directory. A file is deleted only when
// it lies under the table's `location` (normalised, on a path segment boundary;
// catalog/location_policy.h) and `deletable(file)` agrees at that moment (no other table, view
// or catalog owns it: catalog/location_ownership.h). Anything else the metadata lists is
// skipped, counted and logged, never deleted — nor read, for manifests outside the location.
//
// Best effort: a file that cannot be read or deleted is logged and skipped. Leaves go first
// (data files, then manifests, manifest lists, statistics, older metadata, the current metadata
// file last), so a purge stopped part way (`keep_going` false) still leaves the metadata that
// names every remaining file and can be run again to finish. Thread-safety: stateless.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "common/function_ref.h"
#include "io/object_store.h"
#include "common/result.h"
#include "metadata/table_metadata.h"
#include "store/store.h"

namespace firn::catalog {

// Every file a table's metadata references, by kind. Manifest lists and manifests are read
// only inside `readable_under` (the table's location, for a purge: metadata may name any path,
// and a purge never reads what it may not delete) or anywhere when it is empty (to keep files:
// orphan removal, and files another table references). Content files are listed only when
// `with_content`. `complete` is false when a manifest list or manifest could not be read (or
// was not read, being outside `readable_under`): what it names is then unknown, so nothing may
// be deleted on the strength of this set being whole. nullopt: stopped by keep_going.
struct ReferencedFiles {
  std::set<std::string> content;         // data and delete files
  std::set<std::string> manifests;
  std::set<std::string> manifest_lists;
  std::set<std::string> others;          // statistics files, earlier metadata files
  bool complete = true;
  bool Contains(const std::string& file) const {
    return content.contains(file) || manifests.contains(file) ||
           manifest_lists.contains(file) || others.contains(file);
  }
};
std::optional<ReferencedFiles> CollectReferencedFiles(io::ObjectStore& objects,
                                                      const metadata::TableMetadata& table,
                                                      std::string_view readable_under,
                                                      bool with_content,
                                                      FunctionRef<bool()> keep_going);

struct PurgeResult {
  size_t deleted = 0;
  size_t skipped = 0;     // listed but not the table's to delete
  bool finished = true;   // false: stopped by keep_going
};

PurgeResult PurgeTableFiles(io::ObjectStore& objects, const metadata::TableMetadata& table,
                            const std::string& current_metadata_location,
                            FunctionRef<bool(std::string_view)> deletable,
                            FunctionRef<bool()> keep_going);

// As above, to the end; the number of files deleted.
size_t PurgeTableFiles(io::ObjectStore& objects, const metadata::TableMetadata& table,
                       const std::string& current_metadata_location,
                       FunctionRef<bool(std::string_view)> deletable);

// The payload of a "purge-table" task (catalog/task_runner.h): which table, dropped at which
// metadata file. kBadRequest for a payload that does not decode.
inline constexpr std::string_view kPurgeTableTask = "purge-table";
struct PurgeTask {
  store::Identifier id;
  std::string metadata_location;
  std::string table_uuid;  // a live table with this UUID is never purged
};
std::string EncodePurgeTask(const PurgeTask& task);
Result<PurgeTask> DecodePurgeTask(std::string_view payload);

}  // namespace firn::catalog
