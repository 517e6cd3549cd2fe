// The schema-evolution policy: which level decides (table as committed > namespace > catalog >
// compatible), when the namespace is read, the refusal, and the service refusing before any
// write (docs/schema-policy.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "catalog/input_rules.h"
#include "catalog/schema_policy.h"
#include "catalog_test_support.h"
#include "metadata/serde.h"
#include "metadata/table_update.h"

namespace firn::catalog::testing {
namespace {

using ::testing::HasSubstr;
using store::ObjectKind;

constexpr char kDropMessage[] =
    "Schema change refused by the schema-evolution policy: column 'x' (id 1) would be dropped; "
    "set the table, namespace or catalog property firn.schema-evolution=spec to allow every "
    "change the Iceberg spec allows";

metadata::Schema SchemaOf(const std::string& json) {
  auto schema = metadata::SchemaFromJson(boost::json::parse(json));
  EXPECT_TRUE(schema) << schema.error().message;
  return schema.value_or(metadata::Schema{});
}

// x (1, long) only.
metadata::Schema Original() {
  return SchemaOf(R"({"type":"struct","schema-id":0,"fields":[)"
                  R"({"id":1,"name":"x","required":false,"type":"long"}]})");
}
// x dropped, y (2) added.
metadata::Schema WithoutX() {
  return SchemaOf(R"({"type":"struct","schema-id":1,"fields":[)"
                  R"({"id":2,"name":"y","required":false,"type":"string"}]})");
}
// x kept, y (2) added: compatible.
metadata::Schema WithY() {
  return SchemaOf(R"({"type":"struct","schema-id":1,"fields":[)"
                  R"({"id":1,"name":"x","required":false,"type":"long"},)"
                  R"({"id":2,"name":"y","required":false,"type":"string"}]})");
}

metadata::TableMetadata Table(std::vector<metadata::Schema> schemas, int current,
                              Properties props = {}) {
  metadata::TableMetadata meta;
  meta.schemas = std::move(schemas);
  meta.current_schema_id = current;
  meta.properties = std::move(props);
  return meta;
}

const Properties kSpec = {{"firn.schema-evolution", "spec"}};
const Properties kCompatible = {{"firn.schema-evolution", "compatible"}};

// CheckSchemaChange over `base` → `result`, counting namespace reads.
struct Check {
  Properties ns_props;
  Properties catalog_props;
  int ns_reads = 0;
  Status Run(const metadata::TableMetadata& base, const metadata::TableMetadata& result) {
    return CheckSchemaChange(
        base, result,
        [&]() -> Result<Properties> {
          ++ns_reads;
          return ns_props;
        },
        catalog_props);
  }
};

const metadata::TableMetadata kBase = Table({Original()}, 0);
const metadata::TableMetadata kDropped = Table({Original(), WithoutX()}, 1);

// ---- Which level decides ----------------------------------------------------------------------

TEST(SchemaPolicyTest, ByDefaultABreakingChangeIsRefusedAsAFinalCommitFailure) {
  Check check;
  Status st = check.Run(kBase, kDropped);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kCommitFailed);
  EXPECT_EQ(st.error().message, kDropMessage);
  EXPECT_EQ(check.ns_reads, 1);
}

TEST(SchemaPolicyTest, AnUnchangedSchemaIdIsNeverComparedNorTheNamespaceRead) {
  Check check;
  metadata::TableMetadata same = kBase;
  same.properties["other"] = "1";
  EXPECT_TRUE(check.Run(kBase, same));
  // Even a schema list that would break, while the current id stays, is not this policy's.
  EXPECT_TRUE(check.Run(kBase, Table({Original(), WithoutX()}, 0)));
  EXPECT_EQ(check.ns_reads, 0);
}

TEST(SchemaPolicyTest, ACompatibleChangeNeedsNoNamespaceRead) {
  Check check;
  EXPECT_TRUE(check.Run(kBase, Table({Original(), WithY()}, 1)));
  EXPECT_EQ(check.ns_reads, 0);
}

TEST(SchemaPolicyTest, TheTablePropertyAsCommittedDecidesFirst) {
  Check check;
  check.ns_props = kCompatible;
  // Set in this very commit: allowed, and the namespace is not read.
  EXPECT_TRUE(check.Run(kBase, Table({Original(), WithoutX()}, 1, kSpec)));
  EXPECT_EQ(check.ns_reads, 0);
  // `compatible` on the table wins over `spec` below it.
  check.ns_props = kSpec;
  check.catalog_props = kSpec;
  EXPECT_FALSE(check.Run(kBase, Table({Original(), WithoutX()}, 1, kCompatible)));
  EXPECT_EQ(check.ns_reads, 0);
  // The base's `spec` removed by the commit no longer counts.
  Check unset;
  EXPECT_FALSE(unset.Run(Table({Original()}, 0, kSpec), kDropped));
}

TEST(SchemaPolicyTest, TheNamespaceDecidesOverTheCatalog) {
  Check check;
  check.ns_props = kSpec;
  EXPECT_TRUE(check.Run(kBase, kDropped));
  check.ns_props = kCompatible;
  check.catalog_props = kSpec;
  EXPECT_FALSE(check.Run(kBase, kDropped));
  EXPECT_EQ(check.ns_reads, 2);
}

TEST(SchemaPolicyTest, TheCatalogDecidesWhenNeitherTableNorNamespaceSays) {
  Check check;
  check.ns_props = {{"owner", "team"}};
  check.catalog_props = kSpec;
  EXPECT_TRUE(check.Run(kBase, kDropped));
}

TEST(SchemaPolicyTest, AnUnknownStoredValueReadsAsCompatible) {
  Check check;
  check.ns_props = kSpec;
  EXPECT_FALSE(check.Run(kBase, Table({Original(), WithoutX()}, 1,
                                      {{"firn.schema-evolution", "SPEC"}})));
  EXPECT_EQ(check.ns_reads, 0);
}

TEST(SchemaPolicyTest, ANamespaceReadErrorIsReturned) {
  Status st = CheckSchemaChange(
      kBase, kDropped,
      []() -> Result<Properties> { return Fail(ErrorKind::kServiceUnavailable, "db down"); }, {});
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kServiceUnavailable);
}

TEST(SchemaPolicyTest, GoingBackToAnOlderSchemaIsJudgedLikeAnyOther) {
  // Current: WithY (1); set-current-schema back to Original (0) drops y.
  Check check;
  Status st = check.Run(Table({Original(), WithY()}, 1), Table({Original(), WithY()}, 0));
  ASSERT_FALSE(st);
  EXPECT_THAT(st.error().message, HasSubstr(": column 'y' (id 2) would be dropped; set"));
}

TEST(SchemaPolicyTest, TheRefusalNamesThreeChangesAndCountsTheRest) {
  std::vector<metadata::SchemaBreak> changes(5, {metadata::SchemaBreakKind::kDropped, 7, "c"});
  EXPECT_THAT(SchemaPolicyRefusal(changes).message,
              HasSubstr(": column 'c' (id 7) would be dropped, column 'c' (id 7) would be "
                        "dropped, column 'c' (id 7) would be dropped and 2 more changes; set"));
}

// ---- The property's values -------------------------------------------------------------------

TEST(SchemaPolicyTest, OnlyTheTwoValuesMayBeSet) {
  EXPECT_TRUE(CheckSchemaEvolutionProperty("catalog", kSpec));
  EXPECT_TRUE(CheckSchemaEvolutionProperty("catalog", kCompatible));
  EXPECT_TRUE(CheckSchemaEvolutionProperty("catalog", {{"other", "x"}}));
  for (const char* bad : {"", "SPEC", "none", "compatible "}) {
    Status st = CheckSchemaEvolutionProperty("table properties", {{"firn.schema-evolution", bad}});
    ASSERT_FALSE(st) << bad;
    EXPECT_EQ(st.error().kind, ErrorKind::kBadRequest);
    EXPECT_EQ(st.error().message,
              "Invalid table properties: firn.schema-evolution must be 'compatible' or 'spec'");
  }
  // CheckProperties, the one check of every property map callers set, includes it.
  EXPECT_FALSE(CheckProperties(PropertyLimits{}, "namespace properties",
                               {{"firn.schema-evolution", "loose"}}));
}

// ---- Through the service ---------------------------------------------------------------------

class SchemaPolicyServiceTest : public CatalogFixture {
 protected:
  void SetUp() override {
    CatalogFixture::SetUp();
    ASSERT_TRUE(svc().CreateNamespace(admin_, {"db"}, {}));
    CreateTableRequest req;
    req.name = "t";
    req.schema = TableSchema();  // x (1, long)
    auto created = svc().CreateTable(admin_, {"db"}, req);
    ASSERT_TRUE(created) << created.error().message;
  }
  static TableChange Evolve(metadata::Schema schema, std::vector<metadata::TableUpdate> more = {}) {
    TableChange change{{{"db"}, "t"}, {}, {metadata::AddSchema{std::move(schema), 2},
                                           metadata::SetCurrentSchema{-1}}};
    change.updates.insert(change.updates.end(), more.begin(), more.end());
    return change;
  }
};

TEST_F(SchemaPolicyServiceTest, ARefusedDropWritesNothing) {
  const CatalogState before = State();
  auto r = svc().UpdateTable(admin_, Evolve(WithoutX()));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kCommitFailed);
  EXPECT_EQ(r.error().message, kDropMessage);
  EXPECT_EQ(State(), before);
  // The same in a transaction: refused as a whole.
  auto tx = svc().CommitTransaction(admin_, {Evolve(WithoutX())});
  ASSERT_FALSE(tx);
  EXPECT_EQ(tx.error().message, kDropMessage);
  EXPECT_EQ(State(), before);
}

TEST_F(SchemaPolicyServiceTest, CompatibleChangesCommit) {
  auto r = svc().UpdateTable(admin_, Evolve(WithY()));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->table->metadata.current_schema_id, 1);
}

TEST_F(SchemaPolicyServiceTest, SpecSetInTheSameCommitAllowsTheDrop) {
  auto r = svc().UpdateTable(admin_, Evolve(WithoutX(), {metadata::SetProperties{kSpec}}));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->table->metadata.CurrentSchema()->fields.size(), 1u);
}

TEST_F(SchemaPolicyServiceTest, TheNamespacePropertyAllowsTheDrop) {
  ASSERT_TRUE(svc().UpdateProperties(admin_, {"db"}, {}, kSpec));
  auto r = svc().UpdateTable(admin_, Evolve(WithoutX()));
  EXPECT_TRUE(r) << r.error().message;
}

TEST_F(SchemaPolicyServiceTest, UnknownValuesAreRefusedWhereverTheyAreSet) {
  const Properties bad = {{"firn.schema-evolution", "anything"}};
  auto ns = svc().UpdateProperties(admin_, {"db"}, {}, bad);
  ASSERT_FALSE(ns);
  EXPECT_EQ(ns.error().kind, ErrorKind::kBadRequest);
  EXPECT_FALSE(svc().CreateNamespace(admin_, {"db2"}, bad));
  auto table = svc().UpdateTable(admin_, TableChange{{{"db"}, "t"}, {},
                                                     {metadata::SetProperties{bad}}});
  ASSERT_FALSE(table);
  EXPECT_EQ(table.error().message,
            "Invalid table properties: firn.schema-evolution must be 'compatible' or 'spec'");
  CreateTableRequest req;
  req.name = "u";
  req.schema = TableSchema();
  req.properties = bad;
  EXPECT_FALSE(svc().CreateTable(admin_, {"db"}, req));
}

}  // namespace
}  // namespace firn::catalog::testing
