// `firn verify`: is a table whole, and is its history what it was (docs/recovery.md,
// "Verifying").
//
// Whole: the chain is consistent (every file the current metadata's log lists exists, parses,
// and is the same table), and every file the current metadata references exists — manifest
// lists, manifests, data and delete files, statistics, the metadata files of the log. When
// something is missing, the verifier walks back along the log and names the newest earlier
// metadata file whose files all exist: the real recovery point of a replica copied in the
// wrong order.
//
// History: a record per table (rows from the current snapshot's summary, snapshot count, refs
// with their snapshot ids and retention, schema id and field count, table UUID, metadata file
// name) is written before a loss and compared after it; every difference is named.
//
// Existence is checked against one listing of the table's location (files elsewhere one by
// one), so a table of N files costs its listing, not N requests.
// Thread-safety: functions over a thread-safe ObjectStore.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/result.h"
#include "io/object_store.h"
#include "metadata/table_metadata.h"

namespace firn::recovery {

struct RefRecord {
  std::string type;
  int64_t snapshot_id = 0;
  std::optional<int> min_snapshots_to_keep;
  std::optional<int64_t> max_snapshot_age_ms;
  std::optional<int64_t> max_ref_age_ms;
  friend bool operator==(const RefRecord&, const RefRecord&) = default;
};

struct TableRecord {
  std::string table;  // "catalog.ns.t" as the verifier names it
  std::string table_uuid;
  std::string metadata_file;  // the file name (a replica's prefix may differ)
  std::optional<int64_t> rows;  // total-records of the current snapshot's summary
  std::optional<int64_t> current_snapshot_id;
  int64_t snapshot_count = 0;
  std::map<std::string, RefRecord> refs;
  int schema_id = 0;
  int field_count = 0;  // every field of the current schema, nested ones too
  int64_t last_updated_ms = 0;
};

TableRecord RecordOf(std::string table, std::string_view metadata_location,
                     const metadata::TableMetadata& meta);
std::string RecordJson(const TableRecord& record);
Result<TableRecord> ParseRecordJson(std::string_view line);
// Every difference between a record taken before and one taken after, in words ("refs: tag
// q2_close points at 12 (was 11)"). `same_file`: also compare the metadata file name (off for
// a recovery that may register a later file of the same state).
std::vector<std::string> CompareRecords(const TableRecord& before, const TableRecord& after,
                                        bool same_file = false);

struct VerifyOptions {
  bool find_recovery_point = true;
  size_t max_metadata_bytes = 64u << 20;
};

struct VerifyResult {
  std::string table;
  std::string metadata_location;
  size_t files_checked = 0;
  std::vector<std::string> missing;         // referenced files that do not exist (sorted)
  std::vector<std::string> chain_problems;  // log files missing, unreadable or of another table
  bool complete = true;  // every manifest list and manifest could be read
  // When files are missing: the newest metadata file of the log whose files all exist ("" when
  // none does).
  std::optional<std::string> recovery_point;
  bool ok() const { return missing.empty() && chain_problems.empty() && complete; }
};

VerifyResult VerifyTable(io::ObjectStore& objects, std::string table,
                         const std::string& metadata_location,
                         const metadata::TableMetadata& meta, const VerifyOptions& options = {});
std::string VerifyJson(const VerifyResult& result);

}  // namespace firn::recovery
