#include "metadata/view_builder.h"

#include <boost/json.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "metadata/view_metadata_paths.h"
#include "view_test_util.h"

namespace firn::metadata {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::MakeView;
using testing::SqlVersion;
using testing::ViewSchema;

constexpr int64_t kNow = 5000;

ViewMetadata Apply(const ViewMetadata& base, const std::vector<ViewUpdate>& updates) {
  auto result = ApplyViewUpdates(base, updates, kNow);
  EXPECT_TRUE(result.has_value()) << result.error().message;
  EXPECT_TRUE(result->changed);
  return result->metadata;
}

Error ApplyError(const ViewMetadata& base, const std::vector<ViewUpdate>& updates) {
  auto result = ApplyViewUpdates(base, updates, kNow);
  EXPECT_FALSE(result.has_value());
  return result.has_value() ? Error() : result.error();
}

// A replace as the Java client sends it: new schema, new version on it, make it current.
std::vector<ViewUpdate> Replace(std::string sql, std::string dialect = "spark",
                                std::string column = "d") {
  return {AddSchema{ViewSchema(0, column), std::nullopt},
          AddViewVersion{SqlVersion(99, kLastAdded, std::move(sql), std::move(dialect), 3000)},
          SetCurrentViewVersion{kLastAdded}};
}

// ---- create ----

CreateViewInput CreateInput() {
  CreateViewInput in;
  in.location = "file:/tmp/ns/v";
  in.schema = boost::json::parse(
      R"({"type":"struct","schema-id":7,"fields":[{"id":1,"name":"a","required":false,"type":"int"}]})");
  in.view_version = boost::json::parse(
      R"({"version-id":4,"timestamp-ms":1234,"schema-id":7,"summary":{"operation":"create"},
          "default-namespace":["ns"],"representations":[{"type":"sql","sql":"select 1","dialect":"spark"}]})");
  in.properties = {{"comment", "c"}};
  return in;
}

TEST(ViewBuilderTest, CreateAssignsSchemaZeroAndVersionOne) {
  auto m = NewViewMetadata(CreateInput(), kNow);
  ASSERT_TRUE(m.has_value()) << m.error().message;
  ASSERT_EQ(m->schemas.size(), 1u);
  EXPECT_EQ(m->schemas[0].schema_id, 0);
  ASSERT_EQ(m->versions.size(), 1u);
  EXPECT_EQ(m->versions[0].version_id, 1);
  EXPECT_EQ(m->versions[0].schema_id, 0);
  EXPECT_EQ(m->current_version_id, 1);
  EXPECT_EQ(m->version_log, (std::vector<ViewHistoryEntry>{{1234, 1}}));
  EXPECT_EQ(m->properties.at("comment"), "c");
  EXPECT_EQ(m->location, "file:/tmp/ns/v");
  EXPECT_FALSE(m->view_uuid.empty());
}

TEST(ViewBuilderTest, CreateRejectsDuplicateDialect) {
  CreateViewInput in = CreateInput();
  in.view_version = boost::json::parse(
      R"({"version-id":1,"timestamp-ms":1,"schema-id":0,"summary":{},"default-namespace":["ns"],
          "representations":[{"type":"sql","sql":"a","dialect":"spark"},
                             {"type":"sql","sql":"b","dialect":"SPARK"}]})");
  auto m = NewViewMetadata(in, kNow);
  ASSERT_FALSE(m.has_value());
  EXPECT_EQ(m.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(m.error().message, "Invalid view version: Cannot add multiple queries for dialect spark");
}

TEST(ViewBuilderTest, CreateRejectsVersionWithoutQuery) {
  CreateViewInput in = CreateInput();
  in.view_version = boost::json::parse(
      R"({"version-id":1,"timestamp-ms":1,"schema-id":0,"summary":{},"default-namespace":["ns"],
          "representations":[]})");
  auto m = NewViewMetadata(in, kNow);
  ASSERT_FALSE(m.has_value());
  EXPECT_THAT(m.error().message, HasSubstr("without specifying a query"));
}

// ---- updates ----

TEST(ViewBuilderTest, ReplaceAddsVersionAndLogsItsTimestamp) {
  ViewMetadata m = Apply(MakeView(), Replace("select 2"));
  EXPECT_EQ(m.current_version_id, 2);
  ASSERT_EQ(m.schemas.size(), 2u);
  EXPECT_EQ(m.schemas[1].schema_id, 1);
  EXPECT_EQ(m.CurrentVersion()->schema_id, 1);
  EXPECT_EQ(m.version_log.back(), (ViewHistoryEntry{3000, 2}));
}

TEST(ViewBuilderTest, IdenticalVersionReusesItsId) {
  ViewMetadata base = MakeView();
  auto result = ApplyViewUpdates(base, {AddViewVersion{SqlVersion(5, 0, "select 1")}}, kNow);
  ASSERT_TRUE(result.has_value());
  EXPECT_FALSE(result->changed);
  EXPECT_EQ(result->metadata, base);
}

TEST(ViewBuilderTest, IdenticalSchemaReusesItsId) {
  ViewMetadata m = Apply(MakeView(), {AddSchema{ViewSchema(9, "c"), std::nullopt},
                                      AddViewVersion{SqlVersion(1, 0, "select 3")},
                                      SetCurrentViewVersion{kLastAdded}});
  EXPECT_EQ(m.schemas.size(), 1u);
  EXPECT_EQ(m.CurrentVersion()->schema_id, 0);
}

TEST(ViewBuilderTest, ReactivatedVersionIsLoggedAtNow) {
  ViewMetadata two = Apply(MakeView(), Replace("select 2"));
  ViewMetadata back = Apply(two, {SetCurrentViewVersion{1}});
  EXPECT_EQ(back.current_version_id, 1);
  EXPECT_EQ(back.version_log.back(), (ViewHistoryEntry{kNow, 1}));
}

TEST(ViewBuilderTest, LastAddedVersionWithoutAddIsRejected) {
  Error e = ApplyError(MakeView(), {SetCurrentViewVersion{kLastAdded}});
  EXPECT_EQ(e.kind, ErrorKind::kValidation);
  EXPECT_EQ(e.message, "Cannot set last version id: no current version id");
}

TEST(ViewBuilderTest, UnknownCurrentVersionIsRejected) {
  Error e = ApplyError(MakeView(), {SetCurrentViewVersion{42}});
  EXPECT_EQ(e.message, "Cannot set current version to unknown version: 42");
}

TEST(ViewBuilderTest, LastAddedSchemaWithoutAddIsRejected) {
  Error e = ApplyError(MakeView(), {AddViewVersion{SqlVersion(2, kLastAdded, "select 2")}});
  EXPECT_EQ(e.message, "Cannot set last added schema: no schema has been added");
}

TEST(ViewBuilderTest, UnknownSchemaIsRejected) {
  Error e = ApplyError(MakeView(), {AddViewVersion{SqlVersion(2, 8, "select 2")}});
  EXPECT_EQ(e.kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(e.message, "Cannot add version with unknown schema: 8");
}

TEST(ViewBuilderTest, DuplicateDialectInAddedVersionIsRejected) {
  ViewVersion v = SqlVersion(2, 0, "select 2");
  v.representations.push_back({"sql", "select 3", "Spark", {}});
  Error e = ApplyError(MakeView(), {AddViewVersion{v}});
  EXPECT_EQ(e.message, "Invalid view version: Cannot add multiple queries for dialect spark");
}

TEST(ViewBuilderTest, DroppingADialectIsRejectedByDefault) {
  Error e = ApplyError(MakeView(), Replace("select 2", "trino"));
  EXPECT_THAT(e.message, StartsWith("Cannot replace view due to loss of view dialects "
                                    "(replace.drop-dialect.allowed=false):\n"
                                    "Previous dialects: [spark]\nNew dialects: [trino]"));
}

TEST(ViewBuilderTest, DroppingADialectIsAllowedByProperty) {
  ViewMetadata base = MakeView();
  base.properties[std::string(kReplaceDropDialectAllowedProperty)] = "true";
  ViewMetadata m = Apply(base, Replace("select 2", "trino"));
  EXPECT_EQ(m.CurrentVersion()->representations[0].dialect, "trino");
}

TEST(ViewBuilderTest, ExpiresVersionsBeyondHistorySizeAndCutsTheLog) {
  ViewMetadata m = MakeView();
  m.properties[std::string(kVersionHistorySizeProperty)] = "2";
  for (int i = 2; i <= 4; ++i) {
    const std::string n = std::to_string(i);
    m = Apply(m, Replace("select " + n, "spark", "col" + n));
  }
  std::vector<int> ids;
  for (const ViewVersion& v : m.versions) ids.push_back(v.version_id);
  EXPECT_THAT(ids, ::testing::UnorderedElementsAre(3, 4));
  ASSERT_FALSE(m.version_log.empty());
  for (const ViewHistoryEntry& e : m.version_log) EXPECT_GE(e.version_id, 3);
}

TEST(ViewBuilderTest, ReusedOldSchemaIsNotLastAdded) {
  // Java only treats a schema as "last added" when this commit added it.
  Error e = ApplyError(MakeView(), {AddSchema{ViewSchema(0, "c"), std::nullopt},
                                    AddViewVersion{SqlVersion(2, kLastAdded, "select 2")}});
  EXPECT_EQ(e.message, "Cannot set last added schema: no schema has been added");
}

TEST(ViewBuilderTest, NonPositiveHistorySizeIsRejected) {
  ViewMetadata base = MakeView();
  Error e = ApplyError(base, {SetProperties{{{"version.history.num-entries", "0"}}}});
  EXPECT_EQ(e.message, "version.history.num-entries must be positive but was 0");
}

TEST(ViewBuilderTest, ReassigningTheUuidIsRejected) {
  Error e = ApplyError(MakeView(), {AssignUuid{"other"}});
  EXPECT_EQ(e.message, "Cannot reassign uuid");
}

TEST(ViewBuilderTest, SameUuidIsANoOp) {
  ViewMetadata base = MakeView();
  auto r = ApplyViewUpdates(base, {AssignUuid{base.view_uuid}}, kNow);
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->changed);
}

TEST(ViewBuilderTest, UpgradeBeyondV1IsRejected) {
  Error e = ApplyError(MakeView(), {UpgradeFormatVersion{2}});
  EXPECT_EQ(e.message, "Unsupported format version: 2");
}

TEST(ViewBuilderTest, DowngradeIsRejected) {
  Error e = ApplyError(MakeView(), {UpgradeFormatVersion{0}});
  EXPECT_EQ(e.message, "Cannot downgrade v1 view to v0");
}

TEST(ViewBuilderTest, PropertiesAndLocationApply) {
  ViewMetadata m = Apply(MakeView(), {SetProperties{{{"a", "1"}, {"b", "2"}}},
                                      RemoveProperties{{"a"}}, SetLocation{"file:/tmp/other"}});
  EXPECT_EQ(m.properties, (std::map<std::string, std::string>{{"b", "2"}}));
  EXPECT_EQ(m.location, "file:/tmp/other");
}

TEST(ViewBuilderTest, EmptyPropertyUpdatesChangeNothing) {
  auto r = ApplyViewUpdates(MakeView(), {SetProperties{}, RemoveProperties{}}, kNow);
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->changed);
}

// ---- file names ----

TEST(ViewMetadataPathsTest, DefaultsToGzip) {
  std::string loc = NewViewMetadataLocation(MakeView(), std::nullopt);
  EXPECT_THAT(loc, StartsWith("file:/tmp/ns/v/metadata/00000-"));
  EXPECT_THAT(loc, ::testing::EndsWith(".gz.metadata.json"));
}

TEST(ViewMetadataPathsTest, CodecNoneWritesPlainJsonAndNextVersion) {
  ViewMetadata m = MakeView();
  m.properties["write.metadata.compression-codec"] = "NONE";
  std::string loc = NewViewMetadataLocation(m, "file:/tmp/ns/v/metadata/00004-x.gz.metadata.json");
  EXPECT_THAT(loc, StartsWith("file:/tmp/ns/v/metadata/00005-"));
  EXPECT_THAT(loc, ::testing::EndsWith(".metadata.json"));
  EXPECT_THAT(loc, ::testing::Not(HasSubstr(".gz.")));
}

TEST(ViewMetadataPathsTest, GzipFileRoundTrips) {
  ViewMetadata m = MakeView();
  std::string loc = NewViewMetadataLocation(m, std::nullopt);
  std::string bytes = EncodeViewMetadataFile(m, loc);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
}

}  // namespace
}  // namespace firn::metadata
