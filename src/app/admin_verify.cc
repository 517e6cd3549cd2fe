#include "app/admin_verify.h"

#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "app/admin_commands.h"
#include "app/admin_service.h"
#include "app/progress.h"
#include "catalog/foreign_writers.h"
#include "catalog/metadata_files.h"
#include "catalog/store_claims.h"
#include "catalog/store_walk.h"
#include "common/log.h"
#include "common/macros.h"
#include "recovery/chain.h"
#include "recovery/discover.h"
#include "recovery/verify.h"
#include "store/store_keys.h"

namespace firn::app {
namespace {

int Failed(const Error& e, int code = 1) {
  ReportAdminFailure("firn verify", e);
  return code;
}

// One table to verify: its name in records, and its current metadata file.
struct Target {
  std::string table;
  std::string metadata_location;
  std::optional<store::Identifier> id;  // in the catalog (not for heads found on a store)
};

Result<std::vector<Target>> CatalogTargets(AdminService& admin, const VerifyArgs& args,
                                           const catalog::RequestContext& ctx) {
  std::vector<Target> out;
  auto add = [&](const store::Identifier& id) -> Status {
    auto ptr = admin.store->LoadPointer(ctx.scope, id, store::ObjectKind::kTable);
    if (ptr) out.push_back({store::IdentifierDisplay(id), ptr->metadata_location, id});
    return Ok();
  };
  if (!args.table.empty()) {
    FIRN_ASSIGN_OR_RETURN(store::Identifier id, ParseTableArg(args.table, "--table"));
    FIRN_ASSIGN_OR_RETURN(auto ptr, admin.store->LoadPointer(ctx.scope, id,
                                                            store::ObjectKind::kTable));
    out.push_back({store::IdentifierDisplay(id), ptr.metadata_location, id});
    return out;
  }
  store::Namespace ns;
  if (!args.ns.empty()) {
    FIRN_ASSIGN_OR_RETURN(store::Identifier parsed, ParseTableArg(args.ns + ".x", "--namespace"));
    ns = parsed.ns;
  }
  FIRN_RETURN_IF_ERROR(
      catalog::ForEachObject(*admin.store, ctx.scope, ns, store::ObjectKind::kTable, add));
  return out;
}

// The heads on the store, named by their claim or their directory under the prefix.
Result<std::vector<Target>> PrefixTargets(io::ObjectStore& objects, const VerifyArgs& args,
                                          std::vector<std::string>& problems) {
  recovery::DiscoverOptions discover;
  discover.threads = args.threads;
  FIRN_ASSIGN_OR_RETURN(auto found, recovery::Discover(objects, args.prefix, discover));
  std::string root = args.prefix;
  if (!root.ends_with('/')) root.push_back('/');
  std::vector<Target> out;
  for (const recovery::FoundTable& t : found) {
    recovery::TableFiles files = recovery::ReadCandidates(objects, t, 64u << 20);
    recovery::HeadChoice choice = recovery::ChooseHead(files.read);
    if (!choice.head || !files.unreadable.empty()) {
      problems.push_back(t.dir + ": no single head (" + choice.reason + ")");
      continue;
    }
    const recovery::MetadataFacts& head = files.read[*choice.head];
    std::string name;
    if (auto text = objects.ReadAtMost(catalog::StoreClaimUri(head.location),
                                       catalog::kMaxClaimBytes)) {
      if (auto claim = catalog::DecodeStoreClaim(*text);
          claim && claim->table_uuid == head.table_uuid) {
        name = store::IdentifierDisplay({claim->ns, claim->name});
      }
    }
    if (name.empty()) {
      std::string rel = t.dir.substr(std::min(root.size(), t.dir.size()));
      if (rel.ends_with('/')) rel.pop_back();
      std::replace(rel.begin(), rel.end(), '/', '.');
      name = rel;
    }
    out.push_back({name, head.uri, std::nullopt});
  }
  return out;
}

}  // namespace

int RunVerify(const VerifyArgs& args) {
  log::Init("warn");
  std::unique_ptr<AdminService> admin;
  std::optional<catalog::RequestContext> catalog_ctx;
  std::vector<Target> targets;
  std::vector<std::string> problems;  // tables that could not even be looked at
  auto opened = OpenAdminService(args.store);
  if (!opened) return Failed(opened.error());
  admin = std::move(*opened);
  if (!args.prefix.empty()) {
    auto found = PrefixTargets(*admin->objects, args, problems);
    if (!found) return Failed(found.error());
    targets = std::move(*found);
  } else {
    auto ctx = admin->Context(args.realm, args.catalog, "admin-verify");
    if (!ctx) return Failed(ctx.error());
    catalog_ctx = *ctx;
    auto found = CatalogTargets(*admin, args, *ctx);
    if (!found) return Failed(found.error(), found.error().kind == ErrorKind::kIllegalArgument ? 2 : 1);
    targets = std::move(*found);
  }
  std::map<std::string, recovery::TableRecord> before;
  if (!args.compare.empty()) {
    std::ifstream in(args.compare);
    if (!in) return Failed(Error(ErrorKind::kIllegalArgument, "cannot read " + args.compare), 2);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      auto record = recovery::ParseRecordJson(line);
      if (!record) return Failed(record.error(), 2);
      before[record->table] = std::move(*record);
    }
  }
  const bool json = args.json || !Progress::StderrIsTerminal();
  Progress progress("verify", !json);
  std::vector<std::optional<recovery::VerifyResult>> results(targets.size());
  std::vector<std::optional<recovery::TableRecord>> records(targets.size());
  std::vector<std::string> read_errors(targets.size());
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  auto work = [&] {
    for (size_t i = next++; i < targets.size(); i = next++) {
      auto meta = catalog::ReadTableMetadataFile(*admin->objects, targets[i].metadata_location,
                                                 64u << 20);
      if (!meta) {
        read_errors[i] = meta.error().message;
      } else {
        results[i] = recovery::VerifyTable(*admin->objects, targets[i].table,
                                           targets[i].metadata_location, *meta);
        records[i] = recovery::RecordOf(targets[i].table, targets[i].metadata_location, *meta);
      }
      progress.Update(++done, targets.size(), "tables");
    }
  };
  std::vector<std::thread> workers;
  for (int t = 0; t < std::clamp(args.threads, 1, 64); ++t) workers.emplace_back(work);
  for (std::thread& t : workers) t.join();
  progress.Finish();

  bool all_ok = problems.empty();
  size_t files = 0;
  std::ofstream record_out;
  if (!args.record.empty()) {
    record_out.open(args.record, std::ios::trunc);
    if (!record_out) return Failed(Error(ErrorKind::kIllegalArgument, "cannot write " + args.record), 2);
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < targets.size(); ++i) {
    boost::json::object line;
    if (!results[i]) {
      all_ok = false;
      line = {{"table", targets[i].table}, {"ok", false}, {"error", read_errors[i]}};
    } else {
      files += results[i]->files_checked;
      line = boost::json::parse(recovery::VerifyJson(*results[i])).as_object();
      if (!results[i]->ok()) all_ok = false;
      // Another catalog's commits in the metadata directory: the full scan, as
      // `firn admin fences --scan` runs it; a hit fences the table (docs/ownership-claims.md).
      if (catalog_ctx && targets[i].id && !admin->service->deployment().empty()) {
        auto fenced = catalog::ScanTableForForeignWriters(
            *admin->store, *admin->objects, catalog::WriterTag(admin->service->deployment()),
            catalog_ctx->scope, *targets[i].id);
        if (fenced && *fenced) {
          boost::json::array files;
          for (const std::string& f : (*fenced)->fence.files) files.emplace_back(f);
          line["foreign-writer"] = std::move(files);
          line["ok"] = false;
          all_ok = false;
        }
        auto ptr = admin->store->LoadPointer(catalog_ctx->scope, *targets[i].id,
                                             store::ObjectKind::kTable);
        if (ptr && catalog::DecodeFence(ptr->fence).state == catalog::Fence::State::kFenced) {
          line["fenced"] = true;
          line["ok"] = false;
          all_ok = false;
        }
      }
      if (record_out.is_open()) record_out << recovery::RecordJson(*records[i]) << "\n";
      seen.insert(targets[i].table);
      if (!args.compare.empty()) {
        auto it = before.find(targets[i].table);
        boost::json::array diffs;
        if (it == before.end()) {
          diffs.emplace_back("not in the record");
        } else {
          for (const std::string& d : recovery::CompareRecords(it->second, *records[i])) {
            diffs.emplace_back(d);
          }
        }
        if (!diffs.empty()) all_ok = false;
        line["same"] = diffs.empty();
        line["differences"] = std::move(diffs);
      }
    }
    std::cout << boost::json::serialize(line) << "\n";
  }
  for (const std::string& p : problems) {
    std::cout << boost::json::serialize(boost::json::object{{"ok", false}, {"error", p}}) << "\n";
  }
  size_t lost = 0;
  for (const auto& [table, record] : before) {
    if (seen.contains(table)) continue;
    ++lost;
    all_ok = false;
    std::cout << boost::json::serialize(boost::json::object{
                     {"table", table}, {"ok", false}, {"same", false},
                     {"differences", boost::json::array{"recorded, now missing"}}})
              << "\n";
  }
  std::cout << boost::json::serialize(boost::json::object{{"summary", true},
                                                          {"tables", targets.size()},
                                                          {"files-checked", files},
                                                          {"missing-tables", lost},
                                                          {"ok", all_ok}})
            << std::endl;
  return all_ok ? 0 : 1;
}

}  // namespace firn::app
