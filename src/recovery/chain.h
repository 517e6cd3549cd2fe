// Choosing a table's head by its metadata-log chain (docs/recovery.md, "Choosing the head").
//
// A catalog holds one pointer per table; everything else is on the store. Without the pointer,
// the head must be read off the metadata files themselves: every file lists its predecessors
// (metadata-log), so a file no other file lists is a *candidate* — the true head, a stray of a
// failed commit, a stale copy, or the end of a branch of history that stopped earlier. A
// candidate whose history (its metadata-log and its snapshots) another candidate's contains is
// not a head. One candidate left is the head; two or more that do not contain each other are a
// fork, reported with their chains and never guessed. The newest file by name is never the
// rule: a failed commit's stray sorts after the pointer.
//
// Pure functions over facts read from the files (no I/O). Thread-safety: none needed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/table_metadata.h"

namespace firn::recovery {

// What the choice needs of one metadata file.
struct MetadataFacts {
  std::string uri;
  std::string name;                // the file name (the last path segment)
  int version = -1;                // NNNNN of the name, -1 when it has none
  std::string table_uuid;
  std::string location;            // the table location the file states
  int64_t last_updated_ms = 0;
  std::vector<std::string> log;    // the names of its metadata-log entries, oldest first
  std::set<int64_t> snapshot_ids;
  std::optional<int64_t> current_snapshot_id;
  // The rest of the state, compared when two candidates claim the same history.
  std::map<std::string, int64_t> refs;  // ref name → snapshot id
  int current_schema_id = 0;
  int64_t last_sequence_number = 0;
};
MetadataFacts FactsOf(std::string uri, const metadata::TableMetadata& table);

// The last path segment of a URI ("…/metadata/00003-x.metadata.json" → "00003-x.metadata.json").
std::string_view FileName(std::string_view uri);

// Whether `a`'s history is contained in `b`'s: every file `a` lists is `b` or listed by `b`,
// and every snapshot of `a` is one of `b`'s.
bool HistoryContained(const MetadataFacts& a, const MetadataFacts& b);

// How a fork is settled when no pointer names the head.
enum class ForkRule {
  kReport,         // register none; report the candidates (the default)
  kLatestUpdate,   // the candidate with the greatest last-updated-ms (the operator's choice)
};

struct HeadChoice {
  // Index into the files given: the head, when there is exactly one.
  std::optional<size_t> head;
  // The candidates no other file lists, and which of them are maximal (not contained in
  // another's history). More than one maximal candidate with different state is a fork.
  std::vector<size_t> candidates;
  std::vector<size_t> maximal;
  bool forked = false;
  // Why the head was chosen, or why none was ("the only file no other lists", "its history
  // contains every other candidate's", "fork … settled by the pointer source", "fork: …").
  std::string reason;
};

// The head among `files`: the metadata files of one table directory. A fork is settled by the
// pointer source first: `pointers` holds the names of metadata files some catalog pointed at
// (a backup, a database dump, another catalog's listing); the one maximal candidate that is
// such a file, else the one whose chain holds such a file, is the head. Then `rule`. An empty
// `files` has no head. Without a fork the chain decides: a pointer source may be older than
// the store (a backup), and the head extends whatever it named.
HeadChoice ChooseHead(const std::vector<MetadataFacts>& files,
                      const std::set<std::string>& pointers = {},
                      ForkRule rule = ForkRule::kReport);

// The chain of `head`: its metadata-log names, oldest first, then its own name.
std::vector<std::string> ChainOf(const MetadataFacts& head);

}  // namespace firn::recovery
