#include "recovery/chain.h"

#include <algorithm>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "metadata/metadata_paths.h"

namespace firn::recovery {

std::string_view FileName(std::string_view uri) {
  const size_t slash = uri.find_last_of('/');
  return slash == std::string_view::npos ? uri : uri.substr(slash + 1);
}

MetadataFacts FactsOf(std::string uri, const metadata::TableMetadata& table) {
  MetadataFacts f;
  f.name = std::string(FileName(uri));
  f.version = metadata::ParseMetadataVersion(uri);
  f.uri = std::move(uri);
  f.table_uuid = table.table_uuid;
  f.location = table.location;
  f.last_updated_ms = table.last_updated_ms;
  f.log.reserve(table.metadata_log.size());
  for (const auto& entry : table.metadata_log) {
    f.log.emplace_back(FileName(entry.metadata_file));
  }
  for (const auto& s : table.snapshots) f.snapshot_ids.insert(s.snapshot_id);
  f.current_snapshot_id = table.current_snapshot_id;
  for (const auto& [name, ref] : table.refs) f.refs.emplace(name, ref.snapshot_id);
  f.current_schema_id = table.current_schema_id;
  f.last_sequence_number = table.last_sequence_number;
  return f;
}

bool HistoryContained(const MetadataFacts& a, const MetadataFacts& b) {
  std::unordered_set<std::string_view> b_files(b.log.begin(), b.log.end());
  b_files.insert(b.name);
  for (const std::string& name : a.log) {
    if (!b_files.contains(name)) return false;
  }
  return std::ranges::includes(b.snapshot_ids, a.snapshot_ids);
}

std::vector<std::string> ChainOf(const MetadataFacts& head) {
  std::vector<std::string> chain = head.log;
  chain.push_back(head.name);
  return chain;
}

namespace {

// Two files that claim the same history and the same state: either may be registered.
bool SameState(const MetadataFacts& a, const MetadataFacts& b) {
  return a.snapshot_ids == b.snapshot_ids && a.current_snapshot_id == b.current_snapshot_id &&
         a.refs == b.refs && a.current_schema_id == b.current_schema_id &&
         a.last_sequence_number == b.last_sequence_number && a.log == b.log;
}

std::string Names(const std::vector<MetadataFacts>& files, const std::vector<size_t>& which) {
  std::string out;
  for (size_t i : which) {
    if (!out.empty()) out += ", ";
    out += files[i].name;
  }
  return out;
}

}  // namespace

HeadChoice ChooseHead(const std::vector<MetadataFacts>& files,
                      const std::set<std::string>& pointers, ForkRule rule) {
  HeadChoice choice;
  if (files.empty()) {
    choice.reason = "no metadata files";
    return choice;
  }
  std::unordered_set<std::string_view> listed;
  for (const MetadataFacts& f : files) listed.insert(f.log.begin(), f.log.end());
  for (size_t i = 0; i < files.size(); ++i) {
    if (!listed.contains(files[i].name)) choice.candidates.push_back(i);
  }
  if (choice.candidates.empty()) {
    // Every file is someone's predecessor: a cycle only a crafted set of files makes.
    choice.forked = true;
    choice.reason = "fork: every metadata file is listed as another's predecessor (a cycle)";
    return choice;
  }
  // Maximal: contained in no other candidate's history — or only in one of the same state
  // (copies of one version), of which the first in a fixed order stands for all.
  for (size_t i : choice.candidates) {
    bool dominated = false;
    for (size_t j : choice.candidates) {
      if (i == j || !HistoryContained(files[i], files[j])) continue;
      const bool mutual = HistoryContained(files[j], files[i]);
      if (!mutual || (SameState(files[i], files[j]) && files[j].uri < files[i].uri)) {
        dominated = true;
        break;
      }
    }
    if (!dominated) choice.maximal.push_back(i);
  }
  if (choice.maximal.size() == 1) {
    choice.head = choice.maximal.front();
    choice.reason = choice.candidates.size() == 1 ? "the only file no other lists"
                                                   : "its history contains every other "
                                                     "candidate's (" +
                                                         Names(files, choice.candidates) + ")";
    return choice;
  }
  choice.forked = true;
  if (!pointers.empty()) {
    // The candidate the pointer source named; else the one whose chain holds a named file.
    for (bool self : {true, false}) {
      std::vector<size_t> named;
      for (size_t i : choice.maximal) {
        const std::vector<std::string>& log = files[i].log;
        const bool hit = self ? pointers.contains(files[i].name)
                              : std::ranges::any_of(log, [&](const std::string& n) {
                                  return pointers.contains(n);
                                });
        if (hit) named.push_back(i);
      }
      if (named.size() == 1) {
        choice.head = named.front();
        choice.reason = "fork (" + Names(files, choice.maximal) + "), settled by the pointer "
                        "source: " + (self ? "it names " : "the chain of ") +
                        files[named.front()].name;
        return choice;
      }
    }
  }
  if (rule == ForkRule::kLatestUpdate) {
    const size_t latest = *std::ranges::max_element(choice.maximal, [&](size_t a, size_t b) {
      return std::tie(files[a].last_updated_ms, files[a].uri) <
             std::tie(files[b].last_updated_ms, files[b].uri);
    });
    choice.head = latest;
    choice.reason = "fork (" + Names(files, choice.maximal) +
                    "), settled by the operator's rule: the latest last-updated-ms";
    return choice;
  }
  choice.reason = "fork: " + Names(files, choice.maximal) +
                  " each hold history the others lack; name the head with a pointer source "
                  "or a rule";
  return choice;
}

}  // namespace firn::recovery
