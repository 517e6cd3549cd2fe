// BreakingSchemaChanges / IsTypePromotion: what the compatible schema-evolution policy refuses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "builder_test_util.h"
#include "metadata/schema_compat.h"
#include "metadata/serde.h"

namespace firn::metadata {
namespace {

using ::testing::IsEmpty;
using ::testing::SizeIs;
using namespace testing;  // NOLINT: fixtures

namespace json = boost::json;

json::object Required(json::object column) {
  column["required"] = true;
  return column;
}

json::object StructColumn(int id, std::string name, std::vector<json::object> fields) {
  json::array list;
  for (auto& f : fields) list.push_back(std::move(f));
  return json::object{{"id", id},
                      {"name", name},
                      {"required", false},
                      {"type", json::object{{"type", "struct"}, {"fields", std::move(list)}}}};
}

json::object ListColumn(int id, std::string name, int element_id, json::value element,
                        bool element_required = false) {
  return json::object{{"id", id},
                      {"name", name},
                      {"required", false},
                      {"type", json::object{{"type", "list"},
                                            {"element-id", element_id},
                                            {"element", std::move(element)},
                                            {"element-required", element_required}}}};
}

// Through the parser, as every schema the catalog compares has been.
Schema Parsed(Schema schema) {
  auto parsed = SchemaFromJson(SchemaToJson(schema));
  EXPECT_TRUE(parsed.has_value()) << (parsed ? "" : parsed.error().message);
  return parsed.value_or(Schema{});
}

std::vector<SchemaBreak> Changes(std::vector<json::object> from, std::vector<json::object> to,
                                 int format_version = 2) {
  return BreakingSchemaChanges(Parsed(MakeSchema(0, std::move(from))),
                               Parsed(MakeSchema(1, std::move(to))), format_version);
}

SchemaBreak Only(const std::vector<SchemaBreak>& changes) {
  EXPECT_THAT(changes, SizeIs(1));
  return changes.empty() ? SchemaBreak{} : changes.front();
}

// ---- refused ----

TEST(SchemaCompatTest, DroppedColumnIsRefused) {
  SchemaBreak change = Only(Changes({Column(1, "id"), Column(3, "extra", "string")},
                                    {Column(1, "id")}));
  EXPECT_EQ(change, (SchemaBreak{SchemaBreakKind::kDropped, 3, "extra", "", ""}));
  EXPECT_EQ(DescribeSchemaBreak(change), "column 'extra' (id 3) would be dropped");
}

TEST(SchemaCompatTest, DroppedNestedFieldIsRefused) {
  SchemaBreak change = Only(
      Changes({StructColumn(1, "loc", {Column(2, "lat", "double"), Column(3, "lon", "double")})},
              {StructColumn(1, "loc", {Column(2, "lat", "double")})}));
  EXPECT_EQ(change.kind, SchemaBreakKind::kDropped);
  EXPECT_EQ(change.field_id, 3);
  EXPECT_EQ(change.path, "loc.lon");
}

TEST(SchemaCompatTest, DroppedStructIsOneChangeNotOnePerChild) {
  SchemaBreak change = Only(
      Changes({Column(9, "id"),
               StructColumn(1, "loc", {Column(2, "lat", "double"), Column(3, "lon", "double")})},
              {Column(9, "id")}));
  EXPECT_EQ(change.path, "loc");
}

TEST(SchemaCompatTest, RenamedColumnIsRefused) {
  SchemaBreak change = Only(Changes({Column(2, "name", "string")},
                                    {Column(2, "full_name", "string")}));
  EXPECT_EQ(change, (SchemaBreak{SchemaBreakKind::kRenamed, 2, "name", "", "full_name"}));
  EXPECT_EQ(DescribeSchemaBreak(change), "column 'name' (id 2) would be renamed to 'full_name'");
}

TEST(SchemaCompatTest, RenamedNestedFieldIsRefused) {
  SchemaBreak change = Only(Changes({StructColumn(1, "loc", {Column(2, "lat", "double")})},
                                    {StructColumn(1, "loc", {Column(2, "latitude", "double")})}));
  EXPECT_EQ(change.kind, SchemaBreakKind::kRenamed);
  EXPECT_EQ(change.path, "loc.lat");
  EXPECT_EQ(change.to, "latitude");
}

TEST(SchemaCompatTest, OptionalToRequiredIsRefused) {
  SchemaBreak change = Only(Changes({Column(1, "id")}, {Required(Column(1, "id"))}));
  EXPECT_EQ(change.kind, SchemaBreakKind::kMadeRequired);
  EXPECT_EQ(DescribeSchemaBreak(change), "column 'id' (id 1) would change from optional to required");
}

TEST(SchemaCompatTest, ListElementMadeRequiredIsRefused) {
  SchemaBreak change = Only(Changes({ListColumn(1, "tags", 2, "string")},
                                    {ListColumn(1, "tags", 2, "string", true)}));
  EXPECT_EQ(change.kind, SchemaBreakKind::kMadeRequired);
  EXPECT_EQ(change.path, "tags.element");
}

TEST(SchemaCompatTest, TypeChangesOutsideThePromotionsAreRefused) {
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"long", "int"}, {"int", "string"}, {"double", "float"}, {"string", "binary"},
           {"timestamp", "timestamptz"}, {"date", "timestamp"}, {"long", "double"}}) {
    SchemaBreak change = Only(Changes({Column(1, "c", from)}, {Column(1, "c", to)}));
    EXPECT_EQ(change, (SchemaBreak{SchemaBreakKind::kTypeChanged, 1, "c", from, to})) << from;
  }
  EXPECT_EQ(DescribeSchemaBreak(Only(Changes({Column(1, "c", "long")}, {Column(1, "c", "int")}))),
            "column 'c' (id 1) would change type from long to int, which is not a type promotion");
}

TEST(SchemaCompatTest, DecimalMayOnlyWidenItsPrecision) {
  EXPECT_THAT(Changes({Column(1, "d", "decimal(9, 2)")}, {Column(1, "d", "decimal(18, 2)")}),
              IsEmpty());
  for (const char* to : {"decimal(9, 3)", "decimal(8, 2)", "decimal(18, 3)", "double"}) {
    EXPECT_EQ(Only(Changes({Column(1, "d", "decimal(9, 2)")}, {Column(1, "d", to)})).kind,
              SchemaBreakKind::kTypeChanged)
        << to;
  }
}

TEST(SchemaCompatTest, PrimitiveToNestedAndBackIsRefusedOnce) {
  SchemaBreak change = Only(Changes({StructColumn(1, "s", {Column(2, "a")})},
                                    {Column(1, "s", "string")}));
  EXPECT_EQ(change, (SchemaBreak{SchemaBreakKind::kTypeChanged, 1, "s", "struct", "string"}));
  EXPECT_EQ(Only(Changes({Column(1, "s", "string")}, {ListColumn(1, "s", 2, "string")})).to,
            "list");
}

TEST(SchemaCompatTest, ListElementTypeChangeIsRefused) {
  SchemaBreak change = Only(Changes({ListColumn(1, "tags", 2, "long")},
                                    {ListColumn(1, "tags", 2, "string")}));
  EXPECT_EQ(change.path, "tags.element");
  EXPECT_EQ(change.kind, SchemaBreakKind::kTypeChanged);
}

TEST(SchemaCompatTest, IdentifierFieldChangesAreRefused) {
  Schema from = MakeSchema(0, {Required(Column(1, "id")), Required(Column(2, "k", "string"))});
  Schema to = from;
  to.schema_id = 1;
  to.identifier_field_ids = {1};
  SchemaBreak added = Only(BreakingSchemaChanges(Parsed(from), Parsed(to), 2));
  EXPECT_EQ(added, (SchemaBreak{SchemaBreakKind::kIdentifierFields, 0, "", "[]", "[id]"}));
  EXPECT_EQ(DescribeSchemaBreak(added), "the identifier fields would change from [] to [id]");
  from.identifier_field_ids = {1};
  to.identifier_field_ids = {1, 2};
  EXPECT_EQ(Only(BreakingSchemaChanges(Parsed(from), Parsed(to), 2)).to, "[id, k]");
  to.identifier_field_ids = {};
  EXPECT_EQ(Only(BreakingSchemaChanges(Parsed(from), Parsed(to), 2)).from, "[id]");
}

TEST(SchemaCompatTest, EveryChangeIsListedInDocumentOrder) {
  auto changes = Changes({Column(1, "a"), Column(2, "b"), Column(3, "c")},
                         {Column(1, "a2"), Column(3, "c", "string")});
  ASSERT_THAT(changes, SizeIs(3));
  EXPECT_EQ(changes[0].kind, SchemaBreakKind::kRenamed);
  EXPECT_EQ(changes[1].kind, SchemaBreakKind::kDropped);
  EXPECT_EQ(changes[2].kind, SchemaBreakKind::kTypeChanged);
}

// ---- allowed ----

TEST(SchemaCompatTest, AddingReorderingAndDocsAreAllowed) {
  json::object documented = Column(2, "data", "string");
  documented["doc"] = "what it holds";
  EXPECT_THAT(Changes({Column(1, "id"), Column(2, "data", "string")},
                      {documented, Column(1, "id"), Column(3, "new", "double"),
                       Required(Column(4, "new_required", "int"))}),
              IsEmpty());
}

TEST(SchemaCompatTest, AddingANestedFieldIsAllowed) {
  EXPECT_THAT(Changes({StructColumn(1, "loc", {Column(2, "lat", "double")})},
                      {StructColumn(1, "loc", {Column(2, "lat", "double"), Column(3, "lon", "double")})}),
              IsEmpty());
}

TEST(SchemaCompatTest, RequiredToOptionalIsAllowed) {
  EXPECT_THAT(Changes({Required(Column(1, "id"))}, {Column(1, "id")}), IsEmpty());
}

TEST(SchemaCompatTest, SpecPromotionsAreAllowed) {
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"int", "long"}, {"float", "double"}, {"decimal(9, 2)", "decimal(38, 2)"}}) {
    EXPECT_THAT(Changes({Column(1, "c", from)}, {Column(1, "c", to)}), IsEmpty()) << from;
    EXPECT_THAT(Changes({ListColumn(1, "l", 2, json::string(from))},
                        {ListColumn(1, "l", 2, json::string(to))}),
                IsEmpty())
        << from;
  }
}

TEST(SchemaCompatTest, DatePromotesToTimestampFromV3Only) {
  for (const char* to : {"timestamp", "timestamp_ns"}) {
    EXPECT_THAT(Changes({Column(1, "d", "date")}, {Column(1, "d", to)}, 3), IsEmpty()) << to;
    EXPECT_THAT(Changes({Column(1, "d", "date")}, {Column(1, "d", to)}, 2), SizeIs(1)) << to;
  }
  for (const char* to : {"timestamptz", "timestamptz_ns"}) {
    EXPECT_THAT(Changes({Column(1, "d", "date")}, {Column(1, "d", to)}, 3), SizeIs(1)) << to;
  }
}

TEST(SchemaCompatTest, UnknownBecomesAnyTypeFromV3) {
  EXPECT_THAT(Changes({Column(1, "u", "unknown")}, {Column(1, "u", "string")}, 3), IsEmpty());
  EXPECT_THAT(Changes({Column(1, "u", "unknown")}, {StructColumn(1, "u", {Column(2, "a")})}, 3),
              IsEmpty());
}

TEST(SchemaCompatTest, IdentifierFieldsInAnotherOrderAreTheSameSet) {
  Schema from = MakeSchema(0, {Required(Column(1, "id")), Required(Column(2, "k", "string"))});
  from.identifier_field_ids = {1, 2};
  Schema to = from;
  to.identifier_field_ids = {2, 1};
  EXPECT_THAT(BreakingSchemaChanges(Parsed(from), Parsed(to), 2), IsEmpty());
}

TEST(SchemaCompatTest, IsTypePromotionFollowsTheSpecTable) {
  auto p = [](const char* text) { return ParsePrimitiveType(text).value(); };
  EXPECT_TRUE(IsTypePromotion(p("int"), p("long"), 1));
  EXPECT_FALSE(IsTypePromotion(p("long"), p("int"), 3));
  EXPECT_TRUE(IsTypePromotion(p("float"), p("double"), 2));
  EXPECT_TRUE(IsTypePromotion(p("decimal(10,4)"), p("decimal(11,4)"), 2));
  EXPECT_FALSE(IsTypePromotion(p("decimal(10,4)"), p("decimal(10,4)"), 2));
  EXPECT_FALSE(IsTypePromotion(p("decimal(10,4)"), p("decimal(12,5)"), 2));
  EXPECT_TRUE(IsTypePromotion(p("date"), p("timestamp_ns"), 3));
  EXPECT_FALSE(IsTypePromotion(p("date"), p("timestamp"), 2));
  EXPECT_FALSE(IsTypePromotion(p("unknown"), p("string"), 2));
  EXPECT_TRUE(IsTypePromotion(p("unknown"), p("string"), 3));
  EXPECT_FALSE(IsTypePromotion(p("string"), p("binary"), 3));
}

}  // namespace
}  // namespace firn::metadata
