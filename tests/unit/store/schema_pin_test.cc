// The schema a fresh database gets from the migration steps, pinned per backend. Shipped steps
// must never change what they create (a database migrated by an older binary has to look like
// a fresh one), so any edit that changes a table, column type, collation, constraint or index
// changes the fingerprint. Whitespace is not part of the schema and is folded away (SQLite
// keeps each CREATE statement's text as written).
// On a mismatch the test prints the dump; update the pinned value only with a new step.
#include <sqlite3.h>
#include <stdlib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "postgres_test_support.h"
#include "store/sqlite/sqlite_catalog_store.h"

namespace firn::store::testing {
namespace {

namespace fs = std::filesystem;

// 64-bit FNV-1a: stable across platforms and runs, unlike std::hash.
std::string Fingerprint(std::string_view text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

// Runs of white space become one space.
std::string FoldSpace(std::string_view text) {
  std::string out;
  bool blank = false;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && !blank) out += ' ';
    if (!space) out += c;
    blank = space;
  }
  return out;
}

// Every schema object of the SQLite database at `path`, as SQLite records it.
std::string SqliteSchema(const std::string& path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db,
                               "SELECT type, name, tbl_name, ifnull(sql, '') FROM sqlite_master "
                               "ORDER BY type, name",
                               -1, &stmt, nullptr),
            SQLITE_OK);
  std::string dump;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    for (int col = 0; col < 4; ++col) {
      dump += FoldSpace(reinterpret_cast<const char*>(sqlite3_column_text(stmt, col)));
      dump += col < 3 ? " | " : "\n";
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return dump;
}

TEST(SchemaPinTest, SqliteSchemaIsUnchanged) {
  std::string pattern = (fs::temp_directory_path() / "firn-schema-XXXXXX").string();
  const fs::path dir = mkdtemp(pattern.data());
  const std::string path = (dir / "catalog.db").string();
  { ASSERT_TRUE(OpenSqliteStore(path, {})); }
  const std::string dump = SqliteSchema(path);
  std::error_code ec;
  fs::remove_all(dir, ec);
  EXPECT_EQ(Fingerprint(dump), "c82c32735acfc746") << dump;
}

// Columns (type, collation, nullability, default, identity), constraints and indexes of the
// store's schema, with the schema's own name taken out.
constexpr const char* kPgSchemaDump = R"sql(
SELECT string_agg(line, E'\n' ORDER BY line) FROM (
  SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' ||
         coalesce(collation_name, '-') || ' ' || is_nullable || ' ' ||
         coalesce(column_default, '-') || ' ' || is_identity || ' ' ||
         coalesce(identity_generation, '-') AS line
    FROM information_schema.columns WHERE table_schema = current_schema()
  UNION ALL
  SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' ||
         pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
  UNION ALL
  SELECT 'index ' || replace(indexdef, quote_ident(current_schema()) || '.', '')
    FROM pg_indexes WHERE schemaname = current_schema()
) lines)sql";

TEST(SchemaPinTest, PostgresSchemaIsUnchanged) {
  if (TestPgUrl().empty()) GTEST_SKIP() << kNoPgMessage;
  PostgresBackend backend;
  { ASSERT_TRUE(backend.Open()); }
  PgAdmin admin(backend.url(), backend.schema());
  const std::string dump = admin.Exec(kPgSchemaDump);
  EXPECT_EQ(Fingerprint(dump), "ec61f923d0c40920") << dump;
}

}  // namespace
}  // namespace firn::store::testing
