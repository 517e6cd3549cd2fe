// Cost of ownership across catalogs (catalog/foreign_writers.h, catalog/store_claims.h) on the
// object store: the foreign-writer check every commit runs (one listing of the versions next
// to the current one), the full scan of `firn admin fences --scan` (the whole metadata
// directory), and the claim a create writes (create-only put; delete, for the next round).
// Each metadata directory holds N other files (manifests and manifest lists, as a table with
// N/2 commits would), N = 10, 1,000, 10,000. On file:// always; on S3 when FIRN_S3_ENDPOINT,
// FIRN_S3_ACCESS_KEY, FIRN_S3_SECRET_KEY and FIRN_S3_BUCKET are set (scripts/testbed/start_s3.sh).
// Prints one line per (store, N) with p50/p99 in µs. Asserts nothing.
//   build/release/bench/firn_ownership_bench [rounds]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "catalog/foreign_writers.h"
#include "catalog/store_claims.h"
#include "common/uuid.h"
#include "io/object_store.h"

namespace {

using Clock = std::chrono::steady_clock;
using firn::catalog::EncodeStoreClaim;
using firn::catalog::Fence;
using firn::catalog::FindForeignMetadata;
using firn::catalog::StoreClaim;
using firn::catalog::StoreClaimUri;

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

template <typename F>
std::vector<double> Times(int rounds, F f) {
  std::vector<double> us;
  for (int i = 0; i < rounds; ++i) {
    const auto t0 = Clock::now();
    f();
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  return us;
}

void Run(const char* name, firn::io::ObjectStore& objects, const std::string& base, int files,
         int rounds) {
  firn::metadata::TableMetadata table;
  table.location = base + "/t" + std::to_string(files) + "-" + firn::NewUuidV4().substr(0, 8);
  table.table_uuid = firn::NewUuidV4();
  const std::string dir = table.location + "/metadata/";
  const std::string tag = "abcdef01";
  // N/2 commits' worth: a manifest and a manifest list each, and the commit's metadata file.
  std::string current;
  for (int i = 0; i < files / 2; ++i) {
    (void)objects.WriteNew(dir + firn::NewUuidV4() + "-m0.avro", "x");
    (void)objects.WriteNew(dir + "snap-" + std::to_string(i) + "-1-" + firn::NewUuidV4() + ".avro",
                           "x");
  }
  char version[16];
  std::snprintf(version, sizeof version, "%05d-", files / 2);
  current = dir + version + tag + firn::NewUuidV4().substr(8) + ".metadata.json";
  (void)objects.WriteNew(current, "{}");
  const Fence none;
  auto check = Times(rounds, [&] {
    auto found = FindForeignMetadata(objects, table, current, tag, none, /*full=*/false);
    if (!found || !found->empty()) std::abort();
  });
  const int scan_rounds = std::max(3, rounds / (files >= 10000 ? 30 : 3));
  auto scan = Times(scan_rounds, [&] {
    auto found = FindForeignMetadata(objects, table, current, tag, none, /*full=*/true);
    if (!found) std::abort();
  });
  StoreClaim claim{"d", "default", "c", {"ns"}, "t", table.table_uuid, 1};
  const std::string uri = StoreClaimUri(table.location);
  const std::string body = EncodeStoreClaim(claim);
  std::vector<double> claim_us;
  for (int i = 0; i < rounds; ++i) {
    const auto t0 = Clock::now();
    if (!objects.WriteNew(uri, body)) std::abort();
    claim_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    (void)objects.Delete(uri);
  }
  std::printf("%-6s files=%-6d commit-check p50=%.0f p99=%.0f us | full-scan p50=%.0f p99=%.0f us"
              " | claim-write p50=%.0f p99=%.0f us\n",
              name, files, Percentile(check, 0.5), Percentile(check, 0.99), Percentile(scan, 0.5),
              Percentile(scan, 0.99), Percentile(claim_us, 0.5), Percentile(claim_us, 0.99));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 300;
  const std::vector<int> sizes = {10, 1000, 10000};
  {
    std::string pattern = (std::filesystem::temp_directory_path() / "firn-own-XXXXXX").string();
    const std::string dir = mkdtemp(pattern.data());
    auto local = firn::io::MakeDefaultObjectStore();
    for (int n : sizes) Run("file", *local, "file://" + dir, n, rounds);
    std::filesystem::remove_all(dir);
  }
  const char* endpoint = std::getenv("FIRN_S3_ENDPOINT");
  const char* key = std::getenv("FIRN_S3_ACCESS_KEY");
  const char* secret = std::getenv("FIRN_S3_SECRET_KEY");
  const char* bucket = std::getenv("FIRN_S3_BUCKET");
  if (!endpoint || !key || !secret || !bucket) {
    std::printf("s3: skipped (FIRN_S3_ENDPOINT/ACCESS_KEY/SECRET_KEY/BUCKET unset)\n");
    return 0;
  }
  firn::io::s3::S3Config config;
  config.endpoint = endpoint;
  config.region = std::getenv("FIRN_S3_REGION") ? std::getenv("FIRN_S3_REGION") : "us-east-1";
  config.access_key_id = key;
  config.secret_access_key = firn::Secret(secret);
  config.path_style_access = true;
  auto s3 = firn::io::MakeObjectStore(firn::io::ObjectStoreConfig{config});
  if (!s3) {
    std::fprintf(stderr, "s3: %s\n", s3.error().message.c_str());
    return 1;
  }
  const std::string base = std::string("s3://") + bucket + "/bench-own-" +
                           firn::NewUuidV4().substr(0, 8);
  for (int n : sizes) Run("s3", **s3, base, n, rounds);
  return 0;
}
