#include "app/admin_drill.h"

#include <boost/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "app/admin_commands.h"
#include "app/admin_service.h"
#include "catalog/metadata_files.h"
#include "catalog/store_walk.h"
#include "common/log.h"
#include "common/macros.h"
#include "common/uuid.h"
#include "recovery/discover.h"
#include "recovery/recover.h"
#include "recovery/replicate.h"
#include "recovery/verify.h"
#include "store/store_keys.h"

namespace firn::app {
namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

int Failed(const Error& e, int code = 1) {
  ReportAdminFailure("firn drill", e);
  return code;
}

int64_t MsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

// Step 1: the record of every table of the namespace (and below), by "ns.t".
Result<std::map<std::string, recovery::TableRecord>> Record(AdminService& admin,
                                                            const catalog::RequestContext& ctx,
                                                            const store::Namespace& ns) {
  std::map<std::string, recovery::TableRecord> out;
  FIRN_RETURN_IF_ERROR(catalog::ForEachObject(
      *admin.store, ctx.scope, ns, store::ObjectKind::kTable,
      [&](const store::Identifier& id) -> Status {
        FIRN_ASSIGN_OR_RETURN(auto ptr, admin.store->LoadPointer(ctx.scope, id,
                                                                store::ObjectKind::kTable));
        FIRN_ASSIGN_OR_RETURN(auto meta, catalog::ReadTableMetadataFile(
                                             *admin.objects, ptr.metadata_location, 64u << 20));
        const std::string name = store::IdentifierDisplay(id);
        out[name] = recovery::RecordOf(name, ptr.metadata_location, meta);
        return Ok();
      }));
  return out;
}

// Step 8: the wrong order under a live writer, then verification of what it made.
json::object WrongOrder(io::ObjectStore& objects, const std::string& prefix,
                        const std::string& workdir, const std::string& writer_cmd) {
  json::object out;
  if (writer_cmd.empty()) {
    out["result"] = "skipped: give --writer-cmd (a writer that commits while the copy runs)";
    return out;
  }
  const std::string target = "file://" + workdir + "/wrong-order";
  recovery::ReplicateOptions copy;
  copy.from = prefix;
  copy.to = target;
  copy.object_copy = true;
  std::string from = prefix;
  if (!from.ends_with('/')) from.push_back('/');
  copy.rewrite = std::make_pair(from, target + "/");
  int writer_status = 0;
  copy.between_phases = [&] { writer_status = std::system(writer_cmd.c_str()); };
  auto copied = recovery::Replicate(objects, objects, copy);
  if (!copied) {
    out["result"] = "failed: " + copied.error().message;
    return out;
  }
  out["objects"] = copied->copied;
  out["writer-exit"] = writer_status;
  auto found = recovery::Discover(objects, target);
  size_t caught = 0, whole = 0;
  json::array tables;
  for (const recovery::FoundTable& t : found ? *found : std::vector<recovery::FoundTable>{}) {
    recovery::TableFiles files = recovery::ReadCandidates(objects, t, 64u << 20);
    recovery::HeadChoice choice = recovery::ChooseHead(files.read);
    if (!choice.head) continue;
    auto meta = catalog::ReadTableMetadataFile(objects, files.read[*choice.head].uri, 64u << 20);
    if (!meta) continue;
    recovery::VerifyResult v =
        recovery::VerifyTable(objects, t.dir, files.read[*choice.head].uri, *meta);
    if (v.ok()) {
      ++whole;
      continue;
    }
    ++caught;
    json::object x{{"dir", t.dir}, {"missing", v.missing.size()}};
    if (v.recovery_point) x["recovery-point"] = *v.recovery_point;
    tables.push_back(std::move(x));
  }
  out["caught"] = caught;
  out["whole"] = whole;
  out["tables"] = std::move(tables);
  out["result"] = caught > 0 ? "caught: validation found the missing files"
                             : "nothing to catch: no commit landed between the phases";
  return out;
}

}  // namespace

int RunDrill(const DrillArgs& args) {
  log::Init("warn");
  if (args.ns.empty()) {
    return Failed(Error(ErrorKind::kIllegalArgument, "--namespace is required"), 2);
  }
  if (args.lose != "scratch" && args.lose != "drop") {
    return Failed(Error(ErrorKind::kIllegalArgument, "--lose must be scratch or drop"), 2);
  }
  if (!args.replica.empty() && (args.lose == "drop" || args.replica_warehouse.empty())) {
    return Failed(Error(ErrorKind::kIllegalArgument,
                        "--replica needs --replica-warehouse, and recovers into a scratch "
                        "database (not with --lose drop)"),
                  2);
  }
  auto ns_arg = ParseTableArg(args.ns + ".x", "--namespace");
  if (!ns_arg) return Failed(ns_arg.error(), 2);
  const store::Namespace ns = ns_arg->ns;
  const std::string workdir =
      args.workdir.empty()
          ? (std::filesystem::temp_directory_path() / ("firn-drill-" + NewUuidV4())).string()
          : args.workdir;
  std::filesystem::create_directories(workdir);

  auto primary = OpenAdminService(args.store);
  if (!primary) return Failed(primary.error());
  auto ctx = (*primary)->Context(args.realm, args.catalog, "drill");
  if (!ctx) return Failed(ctx.error());
  ctx->client = "firn drill";
  auto props = (*primary)->service->LoadNamespaceMetadata(*ctx, ns);
  if (!props) return Failed(props.error());
  const std::string ns_location = props->at("location");

  // 1 record
  auto start = Clock::now();
  auto before = Record(**primary, *ctx, ns);
  if (!before) return Failed(before.error());
  const int64_t record_ms = MsSince(start);

  // 2 lose, and where the rebuild goes
  std::unique_ptr<AdminService> scratch;
  AdminService* target = primary->get();
  catalog::RequestContext target_ctx = *ctx;
  recovery::RecoverOptions options;
  options.prefix = args.replica.empty() ? ns_location : args.replica;
  options.default_namespace = ns;
  if (args.lose == "drop") {
    for (const auto& [name, record] : *before) {
      auto id = ParseTableArg(name, "table");
      if (!id) return Failed(id.error());
      if (auto st = (*primary)->service->DropTable(*ctx, *id, /*purge=*/false); !st) {
        return Failed(st.error());
      }
    }
  } else {
    StoreFlags flags = args.store;
    flags.db_url.clear();
    flags.data_dir = workdir + "/scratch-catalog";
    flags.warehouse =
        args.replica_warehouse.empty() ? (*primary)->config.warehouse : args.replica_warehouse;
    auto opened = OpenAdminService(flags);  // no deployment: it keeps no claims
    if (!opened) return Failed(opened.error());
    scratch = std::move(*opened);
    target = scratch.get();
    // The primary's own store: the same catalog, allowing the same locations. A replica lies
    // elsewhere: the scratch deployment's own catalog on the replica's warehouse.
    std::string scratch_catalog;
    if (args.replica.empty()) {
      scratch->catalogs[{args.realm, ctx->scope.catalog}] = ctx->catalog;
      scratch_catalog = ctx->scope.catalog;
    }
    auto scratch_ctx = scratch->Context(args.realm, scratch_catalog, "drill");
    if (!scratch_ctx) return Failed(scratch_ctx.error());
    target_ctx = std::move(*scratch_ctx);
    options.claims_off = true;
  }

  // 3-5 discover, choose, register
  start = Clock::now();
  auto recovered = recovery::Recover(*target->service, target_ctx, *target->objects, options);
  if (!recovered) return Failed(recovered.error());
  const int64_t register_ms = MsSince(start);

  // 6 validate, 7 time
  start = Clock::now();
  auto after = Record(*target, target_ctx, ns);
  if (!after) return Failed(after.error());
  bool all_ok = true;
  size_t identical = 0;
  int64_t max_rpo = 0;
  std::map<std::string, const recovery::TableOutcome*> outcome_of;
  for (const auto& t : recovered->tables) {
    outcome_of[store::IdentifierDisplay(t.id)] = &t;
  }
  for (const auto& [name, record] : *before) {
    json::object line{{"table", name}};
    auto it = after->find(name);
    json::array diffs;
    if (it == after->end()) {
      diffs.emplace_back("not recovered");
    } else {
      for (const std::string& d : recovery::CompareRecords(record, it->second)) diffs.emplace_back(d);
      auto ptr = target->store->LoadPointer(target_ctx.scope, *ParseTableArg(name, "t"),
                                            store::ObjectKind::kTable);
      if (ptr) {
        auto meta = catalog::ReadTableMetadataFile(*target->objects, ptr->metadata_location,
                                                   64u << 20);
        if (meta) {
          auto whole = recovery::VerifyTable(*target->objects, name, ptr->metadata_location, *meta);
          if (!whole.ok()) diffs.emplace_back("not whole: " + std::to_string(whole.missing.size()) +
                                              " files missing");
        }
      }
      const int64_t rpo = std::max<int64_t>(0, record.last_updated_ms - it->second.last_updated_ms);
      max_rpo = std::max(max_rpo, rpo);
      line["rpo-ms"] = rpo;
    }
    if (auto o = outcome_of.find(name); o != outcome_of.end()) {
      line["register-ms"] = o->second->micros / 1000.0;
      line["action"] = recovery::TableActionName(o->second->action);
    }
    line["identical"] = diffs.empty();
    line["differences"] = std::move(diffs);
    if (line["identical"].as_bool()) {
      ++identical;
    } else {
      all_ok = false;
    }
    std::cout << json::serialize(line) << "\n";
  }
  const int64_t validate_ms = MsSince(start);

  // 8 the wrong order
  json::object wrong = WrongOrder(*(*primary)->objects, ns_location, workdir, args.writer_cmd);
  if (!args.writer_cmd.empty() && wrong["caught"].is_uint64() && wrong["caught"].as_uint64() == 0) {
    all_ok = false;
  }
  json::object summary{{"summary", true},
                       {"tables", before->size()},
                       {"identical", identical},
                       {"lose", args.replica.empty() ? args.lose : "replica"},
                       {"record-ms", record_ms},
                       {"discover-ms", static_cast<int64_t>(recovered->discover_seconds * 1000)},
                       {"register-ms", register_ms},
                       {"validate-ms", validate_ms},
                       {"rto-ms", register_ms + validate_ms},
                       {"rpo-ms", max_rpo},
                       {"wrong-order", std::move(wrong)},
                       {"ok", all_ok}};
  std::cout << json::serialize(summary) << std::endl;
  return all_ok ? 0 : 1;
}

}  // namespace firn::app
