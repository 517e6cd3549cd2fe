// ApplyUpdates: schemas, partition specs, sort orders and their removal.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "builder_test_util.h"
#include "metadata/builder.h"

namespace firn::metadata {
namespace {

using ::testing::HasSubstr;
using namespace testing;  // NOLINT: fixtures

Error ApplyError(const TableMetadata& base, std::vector<TableUpdate> updates) {
  auto result = Apply(base, std::move(updates));
  EXPECT_FALSE(result.has_value());
  return result.has_value() ? Error() : result.error();
}

Schema WiderSchema() {
  return MakeSchema(42, {Column(1, "id"), Column(2, "data", "string"), Column(3, "ts", "timestamp")});
}

// ---- add-schema / set-current-schema ----

TEST(BuilderSchemaTest, AddSchemaTakesNextIdAndRaisesLastColumnId) {
  ASSERT_OK_AND_ASSIGN(ApplyResult r,
                       Apply(MakeTable(), {AddSchema{WiderSchema(), 3}, SetCurrentSchema{-1}}));
  ASSERT_EQ(r.metadata.schemas.size(), 2u);
  EXPECT_EQ(r.metadata.schemas[1].schema_id, 1);  // the request's 42 is ignored
  EXPECT_EQ(r.metadata.current_schema_id, 1);
  EXPECT_EQ(r.metadata.last_column_id, 3);
}

TEST(BuilderSchemaTest, AddSchemaReusesIdenticalSchema) {
  Schema same = BaseSchema();
  same.schema_id = 9;
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTable(), {AddSchema{same, 2}}));
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.metadata.schemas.size(), 1u);
}

TEST(BuilderSchemaTest, AddSchemaRejectsV3TypesBeforeV3) {
  Schema variant = MakeSchema(1, {Column(1, "id"), Column(2, "data", "string"),
                                  Column(3, "v", "variant")});
  Error error = ApplyError(MakeTable(2), {AddSchema{variant, 3}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_THAT(error.message, HasSubstr("variant is not supported until v3"));
  ASSERT_OK_AND_ASSIGN(ApplyResult v3, Apply(MakeTable(3), {AddSchema{variant, 3}}));
  EXPECT_EQ(v3.metadata.schemas.size(), 2u);
}

TEST(BuilderSchemaTest, AddSchemaRejectsUnknownIdentifierField) {
  Schema schema = WiderSchema();
  schema.identifier_field_ids = {7};
  EXPECT_EQ(ApplyError(MakeTable(), {AddSchema{schema, 3}}).kind, ErrorKind::kValidation);
}

TEST(BuilderSchemaTest, SetCurrentSchemaByIdRebindsDefaults) {
  TableMetadata base = MakeTable();
  base.schemas.push_back(WiderSchema());
  base.schemas.back().schema_id = 1;
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {SetCurrentSchema{1}}));
  EXPECT_EQ(r.metadata.current_schema_id, 1);
}

TEST(BuilderSchemaTest, SetCurrentSchemaLastAddedNeedsAnAddedSchema) {
  Error error = ApplyError(MakeTable(), {SetCurrentSchema{-1}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_EQ(error.message, "Cannot set last added schema: no schema has been added");
}

TEST(BuilderSchemaTest, SetCurrentSchemaRejectsUnknownId) {
  Error error = ApplyError(MakeTable(), {SetCurrentSchema{5}});
  EXPECT_EQ(error.kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(error.message, "Cannot set current schema to unknown schema: 5");
}

TEST(BuilderSchemaTest, CurrentSchemaMustKeepDefaultSpecSources) {
  TableMetadata base = MakeTable();
  base.partition_specs.push_back(PartitionSpec{1, {PartitionField{2, {}, 1000, "data", "identity"}}});
  base.default_spec_id = 1;
  base.last_partition_id = 1000;
  Schema narrow = MakeSchema(0, {Column(1, "id")});
  Error error = ApplyError(base, {AddSchema{narrow, 2}, SetCurrentSchema{-1}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_THAT(error.message, HasSubstr("default partition spec"));
}

// ---- add-spec / set-default-spec ----

TEST(BuilderSchemaTest, AddSpecAssignsMissingFieldIdsAboveLastPartitionId) {
  TableMetadata base = MakeTable();
  base.partition_specs.push_back(PartitionSpec{1, {PartitionField{1, {}, 1005, "id", "identity"}}});
  base.last_partition_id = 1005;
  PartitionSpec spec{0, {PartitionField{1, {}, std::nullopt, "id", "identity"},
                         PartitionField{2, {}, std::nullopt, "data_trunc", "truncate[4]"}}};
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {AddPartitionSpec{spec}, SetDefaultSpec{-1}}));
  // Spec 1 has one field, so this is not compatible with it: a new spec 2.
  ASSERT_EQ(r.metadata.partition_specs.size(), 3u);
  const PartitionSpec& added = r.metadata.partition_specs[2];
  EXPECT_EQ(added.spec_id, 2);
  EXPECT_EQ(added.fields[0].field_id, 1005);  // equivalent field keeps its id
  EXPECT_EQ(added.fields[1].field_id, 1006);
  EXPECT_EQ(r.metadata.last_partition_id, 1006);
  EXPECT_EQ(r.metadata.default_spec_id, 2);
}

TEST(BuilderSchemaTest, AddSpecReusesCompatibleSpec) {
  TableMetadata base = MakeTable();
  base.partition_specs.push_back(PartitionSpec{1, {PartitionField{1, {}, 1000, "id", "identity"}}});
  base.last_partition_id = 1000;
  PartitionSpec same{7, {PartitionField{1, {}, std::nullopt, "id", "identity"}}};
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {AddPartitionSpec{same}, SetDefaultSpec{-1}}));
  EXPECT_EQ(r.metadata.partition_specs.size(), 2u);
  EXPECT_EQ(r.metadata.default_spec_id, 1);
}

TEST(BuilderSchemaTest, AddSpecRejectsUnknownSourceColumn) {
  PartitionSpec spec{0, {PartitionField{9, {}, 1000, "x", "identity"}}};
  Error error = ApplyError(MakeTable(), {AddPartitionSpec{spec}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_EQ(error.message, "Cannot find source column for partition field: 9");
}

TEST(BuilderSchemaTest, AddSpecRejectsDuplicateNames) {
  PartitionSpec spec{0, {PartitionField{1, {}, 1000, "p", "identity"},
                         PartitionField{2, {}, 1001, "p", "identity"}}};
  EXPECT_EQ(ApplyError(MakeTable(), {AddPartitionSpec{spec}}).kind, ErrorKind::kValidation);
}

TEST(BuilderSchemaTest, AddSpecV1NeedsSequentialIds) {
  PartitionSpec gap{0, {PartitionField{1, {}, 1003, "id", "identity"}}};
  Error error = ApplyError(MakeTable(1), {AddPartitionSpec{gap}});
  EXPECT_EQ(error.kind, ErrorKind::kValidation);
  EXPECT_THAT(error.message, HasSubstr("sequential IDs"));
  PartitionSpec missing{0, {PartitionField{1, {}, std::nullopt, "id", "identity"}}};
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(MakeTable(1), {AddPartitionSpec{missing}}));
  EXPECT_EQ(r.metadata.partition_specs.back().fields[0].field_id, 1000);
}

TEST(BuilderSchemaTest, SetDefaultSpecLastAddedAndUnknown) {
  EXPECT_EQ(ApplyError(MakeTable(), {SetDefaultSpec{-1}}).message,
            "Cannot set last added spec: no spec has been added");
  Error error = ApplyError(MakeTable(), {SetDefaultSpec{3}});
  EXPECT_EQ(error.kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(error.message, "Cannot set default partition spec to unknown spec: 3");
}

// ---- add-sort-order / set-default-sort-order ----

TEST(BuilderSchemaTest, AddSortOrderStartsAtOneAndReuses) {
  SortOrder order{0, {SortField{"identity", 1, {}, "desc", "nulls-last"}}};
  ASSERT_OK_AND_ASSIGN(ApplyResult r,
                       Apply(MakeTable(), {AddSortOrder{order}, SetDefaultSortOrder{-1}}));
  EXPECT_EQ(r.metadata.default_sort_order_id, 1);
  ASSERT_OK_AND_ASSIGN(ApplyResult again,
                       Apply(r.metadata, {AddSortOrder{order}, SetDefaultSortOrder{-1}}));
  EXPECT_FALSE(again.changed);
}

TEST(BuilderSchemaTest, AddUnsortedOrderIsOrderZero) {
  TableMetadata base = MakeTable();
  base.sort_orders.push_back(SortOrder{1, {SortField{"identity", 1, {}, "asc", "nulls-first"}}});
  base.default_sort_order_id = 1;
  ASSERT_OK_AND_ASSIGN(ApplyResult r,
                       Apply(base, {AddSortOrder{SortOrder{5, {}}}, SetDefaultSortOrder{-1}}));
  EXPECT_EQ(r.metadata.default_sort_order_id, 0);
  EXPECT_EQ(r.metadata.sort_orders.size(), 2u);
}

TEST(BuilderSchemaTest, AddSortOrderRejectsUnknownSourceAndDirection) {
  SortOrder unknown{1, {SortField{"identity", 8, {}, "asc", "nulls-first"}}};
  EXPECT_EQ(ApplyError(MakeTable(), {AddSortOrder{unknown}}).message,
            "Cannot find source column for sort field: 8");
  SortOrder sideways{1, {SortField{"identity", 1, {}, "sideways", "nulls-first"}}};
  EXPECT_EQ(ApplyError(MakeTable(), {AddSortOrder{sideways}}).kind, ErrorKind::kValidation);
}

TEST(BuilderSchemaTest, SetDefaultSortOrderLastAddedAndUnknown) {
  EXPECT_EQ(ApplyError(MakeTable(), {SetDefaultSortOrder{-1}}).message,
            "Cannot set last added sort order: no sort order has been added");
  Error error = ApplyError(MakeTable(), {SetDefaultSortOrder{2}});
  EXPECT_EQ(error.kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(error.message, "Cannot set default sort order to unknown order: 2");
}

// ---- remove-schemas / remove-partition-specs ----

TEST(BuilderSchemaTest, RemoveSchemasDropsOldSchemas) {
  TableMetadata base = MakeTable();
  base.schemas.push_back(WiderSchema());
  base.schemas.back().schema_id = 1;
  base.current_schema_id = 1;
  base.last_column_id = 3;
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {RemoveSchemas{{0, 17}}}));
  ASSERT_EQ(r.metadata.schemas.size(), 1u);
  EXPECT_EQ(r.metadata.schemas[0].schema_id, 1);
}

TEST(BuilderSchemaTest, RemoveSchemasRefusesCurrent) {
  Error error = ApplyError(MakeTable(), {RemoveSchemas{{0}}});
  EXPECT_EQ(error.kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(error.message, "Cannot remove current schema: 0");
}

TEST(BuilderSchemaTest, RemovePartitionSpecsDropsOldSpecs) {
  TableMetadata base = MakeTable();
  base.partition_specs.push_back(PartitionSpec{1, {PartitionField{1, {}, 1000, "id", "identity"}}});
  base.last_partition_id = 1000;
  ASSERT_OK_AND_ASSIGN(ApplyResult r, Apply(base, {RemovePartitionSpecs{{1}}}));
  EXPECT_EQ(r.metadata.partition_specs.size(), 1u);
  EXPECT_EQ(r.metadata.last_partition_id, 1000);  // ids are never reused
}

TEST(BuilderSchemaTest, RemovePartitionSpecsRefusesDefault) {
  Error error = ApplyError(MakeTable(), {RemovePartitionSpecs{{0}}});
  EXPECT_EQ(error.kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(error.message, "Cannot remove the default partition spec");
}

}  // namespace
}  // namespace firn::metadata
