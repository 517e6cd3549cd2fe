#include "app/admin_fences.h"

#include <boost/json.hpp>

#include <algorithm>
#include <iostream>

#include "app/admin_commands.h"
#include "app/store_factory.h"
#include "catalog/foreign_writers.h"
#include "catalog/store_claims.h"
#include "common/macros.h"
#include "store/store_keys.h"

namespace firn::app {

namespace json = boost::json;

namespace {

int Failed(const Error& e, int code = 1) {
  std::cerr << "firn: " << e.message << "\n";
  return code;
}

struct Opened {
  std::shared_ptr<store::CatalogStore> store;
  std::shared_ptr<io::ObjectStore> objects;
  std::string deployment;
  ServerConfig config;
};

Result<Opened> Open(const StoreFlags& flags) {
  Opened o;
  FIRN_ASSIGN_OR_RETURN(o.config, ConfigFromFlags(flags));
  FIRN_ASSIGN_OR_RETURN(o.store, OpenStoreByUrl(o.config.db_url, o.config.db_password));
  FIRN_ASSIGN_OR_RETURN(o.objects, OpenObjectStore(o.config));
  FIRN_ASSIGN_OR_RETURN(auto id, o.store->LoadSetting(std::string(catalog::kDeploymentIdSetting)));
  o.deployment = id.value_or("");
  return o;
}

json::object FenceLine(const store::CatalogScope& scope, const store::Identifier& id,
                       const std::string& metadata_location, const catalog::Fence& fence) {
  json::object line;
  line["realm"] = scope.realm;
  line["catalog"] = scope.catalog;
  line["table"] = store::IdentifierDisplay(id);
  line["state"] = fence.state == catalog::Fence::State::kKept ? "kept" : "fenced";
  line["detected_ms"] = fence.detected_ms;
  json::array files;
  for (const std::string& f : fence.files) files.emplace_back(f);
  line["files"] = std::move(files);
  line["metadata_location"] = metadata_location;
  return line;
}

}  // namespace

int RunAdminFences(const FencesArgs& args) {
  auto opened = Open(args.store);
  if (!opened) return Failed(opened.error());
  if (args.scan) {
    auto found = catalog::ScanForForeignWriters(*opened->store, *opened->objects,
                                                catalog::WriterTag(opened->deployment));
    if (!found) return Failed(found.error());
    std::cerr << "firn: scan fenced " << found->size() << " table(s)\n";
  }
  auto fences = opened->store->ListFences();
  if (!fences) return Failed(fences.error());
  size_t fenced = 0;
  for (const store::FencedObject& f : *fences) {
    if (f.kind != store::ObjectKind::kTable) continue;
    const catalog::Fence fence = catalog::DecodeFence(f.fence);
    if (fence.state == catalog::Fence::State::kFenced) ++fenced;
    std::cout << json::serialize(FenceLine(f.scope, f.id, f.metadata_location, fence)) << "\n";
  }
  return fenced == 0 ? 0 : 1;
}

int RunAdminFence(const FenceArgs& args) {
  catalog::FenceResolution resolution;
  if (args.action == "keep-ours") {
    resolution = catalog::FenceResolution::kKeepOurs;
  } else if (args.action == "adopt") {
    resolution = catalog::FenceResolution::kAdopt;
  } else if (args.action == "release") {
    resolution = catalog::FenceResolution::kRelease;
  } else {
    return Failed(Error(ErrorKind::kIllegalArgument,
                        "unknown action " + args.action + " (keep-ours, adopt or release)"),
                  2);
  }
  auto parsed = ParseTableArg(args.table, "--table");
  if (!parsed) return Failed(parsed.error(), 2);
  const store::Identifier id = std::move(*parsed);
  auto opened = Open(args.store);
  if (!opened) return Failed(opened.error());
  const store::CatalogScope scope{args.realm, args.catalog.empty() ? opened->config.catalog_name
                                                                   : args.catalog};
  auto done = catalog::ResolveFence(*opened->store, *opened->objects, opened->deployment, scope,
                                    id, resolution);
  if (!done) return Failed(done.error());
  std::cout << "firn: " << store::IdentifierDisplay(id) << ": " << *done << "\n";
  return 0;
}

}  // namespace firn::app
