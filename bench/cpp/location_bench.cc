// Cost of the location-overlap check (store/location_claims.h) as the deployment grows:
// creates N tables (N = 1,000 / 10,000 / 100,000 by default) with their claims, then times
// FindLocationConflict (the pre-check of a create) and CreateObject with a claim (lock + check
// + insert, in the write transaction) for new tables at depth 6, on SQLite and, when
// FIRN_TEST_PG_URL is set, on PostgreSQL. Prints one line per (backend, N) with p50/p99 in µs.
//   build/release/bench/firn_location_bench [max_tables] [sqlite|postgres|both]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "store/postgres/postgres_catalog_store.h"
#include "store/sqlite/sqlite_catalog_store.h"
#include "store/store.h"

namespace {

using firn::store::CatalogScope;
using firn::store::CatalogStore;
using firn::store::LocationClaim;
using firn::store::LocationOwner;
using firn::store::LocationOwnerKind;
using firn::store::ObjectKind;
using Clock = std::chrono::steady_clock;

// s3://bench/wh/ns<k>/t<i>: 100 namespaces, depth 4 below the bucket.
std::string TableLocation(int i) {
  return "s3://bench/wh/ns" + std::to_string(i % 100) + "/t" + std::to_string(i);
}

LocationClaim Claim(const std::string& location) {
  LocationClaim c;
  c.locations.push_back(location);
  return c;
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

void Time(const char* backend, const char* note, CatalogStore& store, const CatalogScope& scope,
          int target);

void Run(const char* backend, CatalogStore& store, int max_tables) {
  const CatalogScope scope{"r", "c"};
  for (int k = 0; k < 100; ++k) {
    if (!store.CreateNamespace(scope, {"ns" + std::to_string(k)}, {})) std::abort();
  }
  int created = 0;
  for (int target : {1000, 10000, 100000}) {
    if (target > max_tables) break;
    for (; created < target; ++created) {
      const LocationOwner owner{"r", "c", LocationOwnerKind::kTable,
                                {"ns" + std::to_string(created % 100)},
                                "t" + std::to_string(created)};
      // Bulk load without the check: the timed part below measures the check itself.
      if (!store.SetLocationClaim(owner, Claim(TableLocation(created)), /*check=*/false)) {
        std::abort();
      }
    }
    // As the backfill does after its bulk load (PostgreSQL would otherwise keep plans made for
    // the small table until autovacuum analyzes it; that cold case is printed first).
    if (target == 10000) Time(backend, "cold-stats", store, scope, target);
    if (!store.RefreshLocationStatistics()) std::abort();
    Time(backend, "", store, scope, target);
  }
}

void Time(const char* backend, const char* note, CatalogStore& store, const CatalogScope& scope,
          int target) {
  {
    std::vector<double> find_us, create_us;
    for (int j = 0; j < 300; ++j) {
      const std::string name =
          "new" + std::to_string(target) + note + "_" + std::to_string(j);
      const std::string location = "s3://bench/wh/ns" + std::to_string(j % 100) + "/x/y/" + name;
      const LocationOwner owner{"r", "c", LocationOwnerKind::kTable,
                                {"ns" + std::to_string(j % 100)}, name};
      const LocationClaim claim = Claim(location);
      auto t0 = Clock::now();
      auto conflict = store.FindLocationConflict(owner, claim);
      auto t1 = Clock::now();
      auto st = store.CreateObject(scope, {owner.ns, name}, ObjectKind::kTable, "m", nullptr,
                                   &claim);
      auto t2 = Clock::now();
      if (!conflict || *conflict || !st) std::abort();
      find_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      create_us.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count());
    }
    std::printf("%-8s tables=%-7d check p50=%7.1f us p99=%7.1f us | create+claim p50=%7.1f us "
                "p99=%7.1f us %s\n",
                backend, target, Percentile(find_us, 0.5), Percentile(find_us, 0.99),
                Percentile(create_us, 0.5), Percentile(create_us, 0.99), note);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int max_tables = argc > 1 ? std::atoi(argv[1]) : 100000;
  const std::string which = argc > 2 ? argv[2] : "both";
  const auto dir = std::filesystem::temp_directory_path() / "firn-location-bench";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (which != "postgres") {
    auto store = firn::store::OpenSqliteStore((dir / "bench.db").string());
    if (!store) return 1;
    Run("sqlite", **store, max_tables);
  }
  std::filesystem::remove_all(dir);
  if (const char* url = std::getenv("FIRN_TEST_PG_URL"); url && *url && which != "sqlite") {
    firn::Secret password;
    const std::string bare = firn::store::TakePasswordFromUrl(url, password);
    firn::store::postgres::PostgresOptions options;
    options.password = password;
    options.schema = "location_bench_" + std::to_string(::getpid());
    auto store = firn::store::OpenPostgresStore(bare, options);
    if (!store) {
      std::fprintf(stderr, "postgres: %s\n", store.error().message.c_str());
      return 1;
    }
    Run("postgres", **store, max_tables);
  }
  return 0;
}
