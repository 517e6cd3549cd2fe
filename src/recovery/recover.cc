#include "recovery/recover.h"

#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "catalog/location_policy.h"
#include "catalog/store_claims.h"
#include "common/macros.h"
#include "recovery/discover.h"
#include "store/store_keys.h"

namespace firn::recovery {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The namespace and name of a table without a claim: its directory's path under the prefix.
Result<store::Identifier> NameFromPath(std::string_view prefix, std::string_view dir,
                                       const store::Namespace& default_namespace) {
  std::string root(prefix);
  if (!root.ends_with('/')) root.push_back('/');
  std::string_view rel = dir;
  if (!rel.starts_with(root)) {
    return Fail(ErrorKind::kBadRequest, "Table directory " + std::string(dir) +
                                            " is not under the prefix " + root);
  }
  rel.remove_prefix(root.size());
  if (rel.ends_with('/')) rel.remove_suffix(1);
  store::Namespace levels;
  for (size_t pos = 0; pos <= rel.size() && !rel.empty();) {
    const size_t next = std::min(rel.find('/', pos), rel.size());
    levels.emplace_back(rel.substr(pos, next - pos));
    pos = next + 1;
  }
  if (levels.empty()) {
    return Fail(ErrorKind::kBadRequest,
                "The prefix is itself a table directory: recover its parent instead");
  }
  store::Identifier id;
  id.name = std::move(levels.back());
  levels.pop_back();
  id.ns = levels.empty() ? default_namespace : std::move(levels);
  if (id.ns.empty()) {
    return Fail(ErrorKind::kBadRequest,
                "Table directory " + std::string(dir) +
                    " sits right under the prefix: give --namespace for such tables");
  }
  return id;
}

class Recovery {
 public:
  Recovery(catalog::CatalogService& service, const catalog::RequestContext& ctx,
           io::ObjectStore& objects, const RecoverOptions& options)
      : service_(service), ctx_(ctx), objects_(objects), options_(options) {}

  TableOutcome One(const FoundTable& table) {
    const auto start = Clock::now();
    TableOutcome out;
    out.dir = table.dir;
    Decide(table, out);
    out.micros = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start)
                     .count();
    return out;
  }

 private:
  void Decide(const FoundTable& table, TableOutcome& out) {
    TableFiles files = ReadCandidates(objects_, table, options_.max_metadata_bytes);
    for (const UnreadableFile& u : files.unreadable) out.unreadable.push_back(u.uri);
    if (files.read.empty()) {
      out.action = TableAction::kAmbiguous;
      out.reason = "no metadata file could be read";
      return;
    }
    HeadChoice choice = ChooseHead(files.read, options_.pointers, options_.fork_rule);
    out.reason = choice.reason;
    // The name: the claim's, else the directory's path (ambiguous tables are named too, for the
    // report). Every file of a table states the same location and UUID.
    const MetadataFacts& any = files.read[choice.head.value_or(0)];
    out.table_uuid = any.table_uuid;
    out.location = any.location;
    std::optional<catalog::StoreClaim> claim;
    if (auto text = objects_.ReadAtMost(catalog::StoreClaimUri(any.location),
                                        catalog::kMaxClaimBytes);
        text) {
      if (auto decoded = catalog::DecodeStoreClaim(*text); decoded) claim = std::move(*decoded);
    }
    if (claim && claim->table_uuid == any.table_uuid && !claim->ns.empty() &&
        !claim->name.empty()) {
      out.id = {claim->ns, claim->name};
      out.named_by = "claim";
    } else if (auto named =
                   NameFromPath(options_.prefix, table.dir, options_.default_namespace)) {
      out.id = std::move(*named);
      out.named_by = "path";
    } else {
      out.detail = named.error().message;
    }
    if (!out.unreadable.empty()) {
      // A file no readable file lists may be the head, and nothing can be said of it.
      out.action = TableAction::kAmbiguous;
      out.reason = "a candidate metadata file cannot be read (" + out.unreadable.front() +
                   "); repair or remove it, or register the table by hand";
      return;
    }
    if (!choice.head) {
      out.action = TableAction::kAmbiguous;
      for (size_t i : choice.maximal.empty() ? choice.candidates : choice.maximal) {
        out.candidates.push_back(
            {files.read[i].uri, ChainOf(files.read[i]), files.read[i].last_updated_ms});
      }
      return;
    }
    const MetadataFacts& head = files.read[*choice.head];
    out.head = head.uri;
    out.chain = ChainOf(head);
    if (out.named_by.empty()) {
      out.action = TableAction::kRefused;
      return;
    }
    // Another deployment's claim: refused unless that deployment is known to be gone.
    const bool foreign_claim =
        !options_.claims_off && claim && claim->deployment != service_.deployment();
    if (foreign_claim && !options_.take_over_from.contains(claim->deployment)) {
      out.action = TableAction::kRefused;
      out.detail = "claimed by " + catalog::DescribeClaimOwner(*claim) +
                   "; if that deployment is gone, name it with --take-over-from";
      return;
    }
    if (options_.dry_run) {
      out.action = TableAction::kWouldRegister;
      out.detail = foreign_claim ? "would take over the claim of " + claim->deployment : "";
      return;
    }
    Register(head, claim, foreign_claim, out);
  }

  void Register(const MetadataFacts& head, const std::optional<catalog::StoreClaim>& claim,
                bool foreign_claim, TableOutcome& out) {
    for (size_t depth = 1; depth <= out.id.ns.size(); ++depth) {
      const store::Namespace ns(out.id.ns.begin(), out.id.ns.begin() + depth);
      auto made = service_.CreateNamespace(ctx_, ns, {});
      if (!made && made.error().kind != ErrorKind::kAlreadyExists) {
        out.action = TableAction::kFailed;
        out.detail = "namespace " + store::NamespaceDisplay(ns) + ": " + made.error().message;
        return;
      }
    }
    if (foreign_claim) {
      // Named by the operator as gone: its claim gives way to ours (written by the register).
      if (Status gone = objects_.Delete(catalog::StoreClaimUri(head.location)); !gone) {
        out.action = TableAction::kFailed;
        out.detail = "cannot replace the claim of " + claim->deployment + ": " +
                     gone.error().message;
        return;
      }
    }
    auto registered = service_.RegisterTable(ctx_, out.id, head.uri, /*overwrite=*/false);
    if (registered) {
      out.action = TableAction::kRegistered;
      if (foreign_claim) out.detail = "took over the claim of " + claim->deployment;
      return;
    }
    const Error& e = registered.error();
    if (e.kind == ErrorKind::kAlreadyExists) {
      auto existing = service_.LoadTable(ctx_, out.id);
      if (existing && existing->table &&
          existing->table->metadata.table_uuid == head.table_uuid) {
        out.action = TableAction::kAlreadyRegistered;
        out.detail = existing->metadata_location == head.uri
                         ? ""
                         : "registered at " + existing->metadata_location;
        return;
      }
      out.action = TableAction::kRefused;
      out.detail = "the name " + store::IdentifierDisplay(out.id) + " holds another table";
      return;
    }
    const bool refusal = e.kind == ErrorKind::kForbidden ||
                         e.kind == ErrorKind::kLocationConflict ||
                         e.kind == ErrorKind::kBadRequest ||
                         e.kind == ErrorKind::kIllegalArgument;
    out.action = refusal ? TableAction::kRefused : TableAction::kFailed;
    out.detail = e.message;
  }

  catalog::CatalogService& service_;
  const catalog::RequestContext& ctx_;
  io::ObjectStore& objects_;
  const RecoverOptions& options_;
};

boost::json::array Strings(const std::vector<std::string>& items) {
  boost::json::array a;
  for (const std::string& s : items) a.emplace_back(s);
  return a;
}

}  // namespace

std::string_view TableActionName(TableAction action) {
  switch (action) {
    case TableAction::kRegistered: return "registered";
    case TableAction::kAlreadyRegistered: return "already-registered";
    case TableAction::kWouldRegister: return "would-register";
    case TableAction::kAmbiguous: return "ambiguous";
    case TableAction::kRefused: return "refused";
    case TableAction::kFailed: return "failed";
  }
  return "failed";
}

Result<RecoverReport> Recover(catalog::CatalogService& service, const catalog::RequestContext& ctx,
                              io::ObjectStore& objects, const RecoverOptions& options) {
  const auto start = Clock::now();
  RecoverReport report;
  DiscoverOptions discover;
  discover.threads = options.threads;
  discover.progress = options.on_discover;
  FIRN_ASSIGN_OR_RETURN(std::vector<FoundTable> found,
                        Discover(objects, options.prefix, discover));
  report.discover_seconds = SecondsSince(start);
  report.tables.resize(found.size());
  Recovery recovery(service, ctx, objects, options);
  std::atomic<size_t> next{0};
  std::mutex done_mu;
  size_t done = 0;
  auto work = [&] {
    for (size_t i = next++; i < found.size(); i = next++) {
      report.tables[i] = recovery.One(found[i]);
      std::lock_guard lock(done_mu);
      ++done;
      if (options.on_table) options.on_table(report.tables[i], done, found.size());
    }
  };
  std::vector<std::thread> workers;
  const int threads = std::clamp<int>(options.threads, 1, 64);
  for (int t = 0; t < threads; ++t) workers.emplace_back(work);
  for (std::thread& t : workers) t.join();
  for (const TableOutcome& t : report.tables) ++report.counts[t.action];
  report.total_seconds = SecondsSince(start);
  return report;
}

std::string TableJson(const TableOutcome& t) {
  boost::json::object o;
  o["dir"] = t.dir;
  o["action"] = TableActionName(t.action);
  if (!t.id.name.empty()) {
    boost::json::array ns;
    for (const std::string& level : t.id.ns) ns.emplace_back(level);
    o["namespace"] = std::move(ns);
    o["name"] = t.id.name;
    o["named-by"] = t.named_by;
  }
  if (!t.table_uuid.empty()) o["table-uuid"] = t.table_uuid;
  if (!t.location.empty()) o["location"] = t.location;
  if (!t.head.empty()) {
    o["head"] = t.head;
    o["chain-length"] = t.chain.size();
  }
  if (!t.reason.empty()) o["reason"] = t.reason;
  if (!t.candidates.empty()) {
    boost::json::array candidates;
    for (const CandidateReport& c : t.candidates) {
      candidates.push_back(boost::json::object{{"file", c.file},
                                               {"last-updated-ms", c.last_updated_ms},
                                               {"chain", Strings(c.chain)}});
    }
    o["candidates"] = std::move(candidates);
  }
  if (!t.unreadable.empty()) o["unreadable"] = Strings(t.unreadable);
  if (!t.detail.empty()) o["detail"] = t.detail;
  o["us"] = t.micros;
  return boost::json::serialize(o);
}

std::string SummaryJson(const RecoverReport& report, bool dry_run) {
  boost::json::object o;
  o["summary"] = true;
  o["dry-run"] = dry_run;
  o["tables"] = report.tables.size();
  for (const auto& [action, n] : report.counts) o[TableActionName(action)] = n;
  o["discover-ms"] = static_cast<int64_t>(report.discover_seconds * 1000);
  o["ms"] = static_cast<int64_t>(report.total_seconds * 1000);
  o["tables-per-second"] =
      report.total_seconds > 0
          ? static_cast<int64_t>(static_cast<double>(report.tables.size()) / report.total_seconds)
          : int64_t{0};
  return boost::json::serialize(o);
}

}  // namespace firn::recovery
