#include "app/location_index.h"

#include <spdlog/spdlog.h>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <iostream>
#include <map>

#include "access/access_records.h"
#include "app/store_factory.h"
#include "catalog/location_backfill.h"
#include "common/log.h"
#include "common/macros.h"
#include "store/store_keys.h"

namespace firn::app {
namespace {

namespace json = boost::json;

using Catalogs = std::map<std::string, std::map<std::string, catalog::CatalogInfo>>;

Result<Catalogs> CatalogsOf(store::CatalogStore& store) {
  FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, store.LoadAccess());
  Catalogs out;
  for (const store::AccessRecord& r : rows.records) {
    if (r.kind != store::AccessKind::kCatalog) continue;
    auto info = access::CatalogInfoFromBody(r.name, r.body);
    if (!info) {
      spdlog::warn(R"("msg":"location backfill: unreadable catalog record","catalog":"{}")",
                   log::Escape(r.name));
      continue;
    }
    out[r.realm][r.name] = std::move(*info);
  }
  return out;
}

Result<catalog::BackfillReport> Backfill(store::CatalogStore& store, io::ObjectStore& objects) {
  FIRN_ASSIGN_OR_RETURN(Catalogs catalogs, CatalogsOf(store));
  FIRN_ASSIGN_OR_RETURN(auto report, catalog::BackfillLocationClaims(store, objects, catalogs));
  FIRN_RETURN_IF_ERROR(store.SaveSetting(std::string(catalog::kLocationBackfillSetting), "1"));
  return report;
}

json::object OwnerJson(const store::HeldLocation& h) {
  json::object o;
  o["location"] = h.location;
  o["realm"] = h.owner.realm;
  o["catalog"] = h.owner.catalog;
  o["kind"] = std::string(store::LocationOwnerKindName(h.owner.kind));
  if (!h.owner.ns.empty()) o["namespace"] = store::NamespaceDisplay(h.owner.ns);
  if (!h.owner.name.empty()) o["name"] = h.owner.name;
  return o;
}

json::object ReportJson(const catalog::BackfillReport& r) {
  json::object o;
  o["catalogs"] = r.catalogs;
  o["namespaces"] = r.namespaces;
  o["tables"] = r.tables;
  o["views"] = r.views;
  o["unreadable"] = r.unreadable;
  return o;
}

}  // namespace

Status EnsureLocationIndex(store::CatalogStore& store, io::ObjectStore& objects) {
  FIRN_ASSIGN_OR_RETURN(auto done,
                        store.LoadSetting(std::string(catalog::kLocationBackfillSetting)));
  if (done) return Ok();
  FIRN_ASSIGN_OR_RETURN(catalog::BackfillReport report, Backfill(store, objects));
  FIRN_ASSIGN_OR_RETURN(auto claims, store.ListLocationClaims());
  const auto overlaps = catalog::FindLocationOverlaps(claims);
  spdlog::info(R"("msg":"location index built for existing data","report":{},"overlaps":{})",
               json::serialize(ReportJson(report)), overlaps.size());
  for (const auto& o : overlaps) {
    spdlog::warn(R"("msg":"existing locations overlap; resolve with firn admin locations",)"
                 R"("inner":"{}","outer":"{}")",
                 log::Escape(store::LocationOwnerLabel(o.inner.owner)),
                 log::Escape(store::LocationOwnerLabel(o.outer.owner)));
  }
  return Ok();
}

int RunAdminLocations(const LocationsArgs& args) {
  auto fail = [](const Error& e, int code = 1) {
    std::cerr << "firn: " << e.message << "\n";
    return code;
  };
  auto config = ConfigFromFlags(args.store);
  if (!config) return fail(config.error(), 2);
  auto store = OpenStoreByUrl(config->db_url, config->db_password);
  if (!store) return fail(store.error());
  auto objects = OpenObjectStore(*config);
  if (!objects) return fail(objects.error());
  json::object summary;
  auto done = (*store)->LoadSetting(std::string(catalog::kLocationBackfillSetting));
  if (!done) return fail(done.error());
  if (args.rebuild || !*done) {
    auto report = Backfill(**store, **objects);
    if (!report) return fail(report.error());
    summary["backfill"] = ReportJson(*report);
    for (const std::string& p : report->problems) std::cerr << "firn: " << p << "\n";
  }
  auto claims = (*store)->ListLocationClaims();
  if (!claims) return fail(claims.error());
  const auto overlaps = catalog::FindLocationOverlaps(*claims);
  for (const auto& o : overlaps) {
    json::object line;
    line["relation"] = o.relation == store::LocationRelation::kSame ? "same" : "inside";
    line["inner"] = OwnerJson(o.inner);
    line["outer"] = OwnerJson(o.outer);
    std::cout << json::serialize(line) << "\n";
  }
  summary["claims"] = claims->size();
  summary["overlaps"] = overlaps.size();
  std::cout << json::serialize(summary) << "\n";
  return overlaps.empty() ? 0 : 1;
}

}  // namespace firn::app
