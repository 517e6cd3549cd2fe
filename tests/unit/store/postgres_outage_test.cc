// Recovery from a database outage, on a private PostgreSQL started by scripts/pg.sh (so
// stopping it does not disturb other tests sharing FIRN_TEST_PG_URL's server).
#include <stdio.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "postgres_test_support.h"
#include "support/source_tree.h"

namespace firn::store::testing {
namespace {

using Clock = std::chrono::steady_clock;

const std::string kPgScript = source_tree::SourcePath("scripts/pg.sh");

// Runs a shell command; returns its stdout, or nullopt when it failed.
std::optional<std::string> Shell(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buffer[512];
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  if (pclose(pipe) != 0) return std::nullopt;
  return out;
}

// "export NAME=value" → value.
std::string ExportedValue(const std::string& text, const std::string& name) {
  const std::string prefix = "export " + name + "=";
  auto pos = text.find(prefix);
  if (pos == std::string::npos) return "";
  auto end = text.find('\n', pos);
  return text.substr(pos + prefix.size(), end - pos - prefix.size());
}

class PrivateServer {
 public:
  PrivateServer() {
    auto out = Shell(kPgScript + " start");
    if (!out) return;
    url_ = ExportedValue(*out, "FIRN_TEST_PG_URL");
    dir_ = ExportedValue(*out, "FIRN_TEST_PG_DIR");
  }
  ~PrivateServer() {
    // FIRN_TEST_PG_KEEP=1 keeps the private server's directory (and log) for debugging.
    if (!dir_.empty() && std::getenv("FIRN_TEST_PG_KEEP") == nullptr) {
      (void)Shell(kPgScript + " destroy " + dir_);
    }
  }
  bool Stop() { return Shell(kPgScript + " stop " + dir_).has_value(); }
  bool Start() { return Shell(kPgScript + " start " + dir_ + " >/dev/null").has_value(); }
  const std::string& url() const { return url_; }

 private:
  std::string url_;
  std::string dir_;
};

Identifier Id(Namespace ns, std::string name) { return Identifier{std::move(ns), std::move(name)}; }

TEST(PostgresOutageTest, FailsFastWhileDownAndRecoversOnTheSameStore) {
  if (TestPgUrl().empty()) GTEST_SKIP() << kNoPgMessage;
  PrivateServer server;
  ASSERT_FALSE(server.url().empty()) << "scripts/pg.sh start failed";
  postgres::PostgresOptions options;
  options.reconnect_backoff = std::chrono::milliseconds(200);
  auto opened = OpenPostgresStore(server.url(), options);
  ASSERT_TRUE(opened) << opened.error().detail;
  CatalogStore& store = **opened;
  const ObjectKind kTable = ObjectKind::kTable;
  ASSERT_TRUE(store.CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE(store.CreateObject({}, Id({"a"}, "t"), kTable, "file:/1"));
  ASSERT_TRUE(store.SwapPointer({}, Id({"a"}, "t"), kTable, "file:/1", "file:/2"));

  ASSERT_TRUE(server.Stop());
  // Reads and writes of every shape fail fast with 503-type errors; nothing is "unknown",
  // because no write was ever sent.
  auto start = Clock::now();
  auto load = store.LoadPointer({}, Id({"a"}, "t"), kTable);
  auto swap = store.SwapPointer({}, Id({"a"}, "t"), kTable, "file:/2", "file:/3");
  auto create = store.CreateNamespace({}, {"b"}, {});
  auto list = store.ListNamespaces({}, {}, {});
  auto elapsed = Clock::now() - start;
  for (const Error* error : {load ? nullptr : &load.error(), swap ? nullptr : &swap.error(),
                             create ? nullptr : &create.error(), list ? nullptr : &list.error()}) {
    ASSERT_NE(error, nullptr) << "an operation succeeded with the server down";
    EXPECT_EQ(ErrorKindName(error->kind), ErrorKindName(ErrorKind::kServiceUnavailable));
    EXPECT_EQ(error->message, "Catalog database is unavailable");
  }
  EXPECT_LT(elapsed, std::chrono::seconds(5));
  std::printf("[ outage ] 4 operations failed in %.1f ms with the server down\n",
              std::chrono::duration<double, std::milli>(elapsed).count());

  ASSERT_TRUE(server.Start());
  // Within reconnect_backoff of the last refused connect the pool still fails fast without
  // trying; past it, the next operation reconnects.
  std::this_thread::sleep_for(options.reconnect_backoff + std::chrono::milliseconds(50));
  // The same store object, never reopened.
  auto recovered = Clock::now();
  auto pointer = store.LoadPointer({}, Id({"a"}, "t"), kTable);
  ASSERT_TRUE(pointer) << pointer.error().message << " / " << pointer.error().detail;
  EXPECT_EQ(pointer->metadata_location, "file:/2");
  auto swapped = store.SwapPointer({}, Id({"a"}, "t"), kTable, "file:/2", "file:/3");
  ASSERT_TRUE(swapped) << swapped.error().message << " / " << swapped.error().detail;
  EXPECT_EQ(swapped->version, 3);
  EXPECT_TRUE(store.CreateNamespace({}, {"b"}, {}));
  std::printf("[ outage ] first operations after restart took %.1f ms\n",
              std::chrono::duration<double, std::milli>(Clock::now() - recovered).count());
}

// The access path follows the same error contract: every AccessStore call fails fast with
// kServiceUnavailable while the server is down, nothing half-applied, and recovers by itself.
TEST(PostgresOutageTest, AccessStoreIsUnavailableWhileDownAndRecovers) {
  if (TestPgUrl().empty()) GTEST_SKIP() << kNoPgMessage;
  PrivateServer server;
  ASSERT_FALSE(server.url().empty()) << "scripts/pg.sh start failed";
  postgres::PostgresOptions options;
  options.reconnect_backoff = std::chrono::milliseconds(200);
  auto opened = OpenPostgresStore(server.url(), options);
  ASSERT_TRUE(opened) << opened.error().detail;
  CatalogStore& store = **opened;
  AccessRecord realm{.realm = "r", .kind = AccessKind::kRealm, .name = "r", .body = "{}"};
  ASSERT_TRUE(store.ApplyAccessWrites({{AccessWrite::Op::kCreate, realm, std::nullopt}},
                                      nullptr, 1));

  ASSERT_TRUE(server.Stop());
  AuditEntry audit;
  audit.operation = "createPrincipal";
  AccessRecord principal{.realm = "r", .kind = AccessKind::kPrincipal, .name = "p", .body = "{}"};
  auto version = store.AccessVersion();
  auto load = store.LoadAccess();
  auto write = store.ApplyAccessWrites({{AccessWrite::Op::kCreate, principal, std::nullopt}},
                                       &audit, 2);
  auto list = store.ListAudit({});
  auto ack = store.AckAccessVersion({"i", 1, 2});
  auto live = store.LiveInstances(0);
  for (const Error* error :
       {version ? nullptr : &version.error(), load ? nullptr : &load.error(),
        write ? nullptr : &write.error(), list ? nullptr : &list.error(),
        ack ? nullptr : &ack.error(), live ? nullptr : &live.error()}) {
    ASSERT_NE(error, nullptr) << "an access operation succeeded with the server down";
    EXPECT_EQ(ErrorKindName(error->kind), ErrorKindName(ErrorKind::kServiceUnavailable));
  }

  ASSERT_TRUE(server.Start());
  std::this_thread::sleep_for(options.reconnect_backoff + std::chrono::milliseconds(50));
  auto rows = store.LoadAccess();
  ASSERT_TRUE(rows) << rows.error().message << " / " << rows.error().detail;
  EXPECT_EQ(rows->version, 1);
  EXPECT_EQ(rows->records.size(), 1u);  // the refused write left nothing
  EXPECT_TRUE(store.ListAudit({})->empty());
}

TEST(PostgresOutageTest, UnreachableServerIsUnavailableQuickly) {
  // Nothing listens on port 1; this needs no server.
  auto start = Clock::now();
  auto store = OpenPostgresStore("postgresql://firn@127.0.0.1:1/firn");
  ASSERT_FALSE(store);
  EXPECT_EQ(ErrorKindName(store.error().kind), ErrorKindName(ErrorKind::kServiceUnavailable));
  EXPECT_EQ(store.error().message, "Catalog database is unavailable");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace firn::store::testing
