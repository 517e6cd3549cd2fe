// Round trips and negative cases for the metadata sub-objects.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include "metadata/serde.h"

namespace firn::metadata {
namespace {

namespace json = boost::json;

template <typename T, typename Parse, typename Write>
void ExpectRoundTrip(const char* text, Parse parse, Write write) {
  Result<T> first = parse(json::parse(text));
  ASSERT_TRUE(first) << first.error().message;
  Result<T> second = parse(json::value(write(*first)));
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(*first, *second);
}

template <typename T>
void ExpectBadRequest(const Result<T>& r, std::string_view field) {
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kBadRequest);
  EXPECT_NE(r.error().message.find("'" + std::string(field) + "'"), std::string::npos)
      << r.error().message;
}

TEST(PartitionSpecSerdeTest, RoundTrips) {
  ExpectRoundTrip<PartitionSpec>(
      R"({"spec-id":3,"fields":[{"source-id":4,"field-id":1000,"name":"ts_day","transform":"day"},
          {"source-ids":[1,2],"field-id":1001,"name":"multi","transform":"bucket[16]"}]})",
      PartitionSpecFromJson, PartitionSpecToJson);
}

TEST(PartitionSpecSerdeTest, WritesJavaKeys) {
  Result<PartitionSpec> spec = PartitionSpecFromJson(json::parse(
      R"({"spec-id":3,"fields":[{"source-id":4,"field-id":1000,"name":"ts_day","transform":"day"}]})"));
  ASSERT_TRUE(spec);
  EXPECT_EQ(json::serialize(PartitionSpecToJson(*spec)),
            R"({"spec-id":3,"fields":[{"name":"ts_day","transform":"day","source-id":4,"field-id":1000}]})");
}

TEST(PartitionSpecSerdeTest, RequestFormWithoutIds) {
  Result<PartitionSpec> spec = PartitionSpecFromJson(
      json::parse(R"({"fields":[{"source-id":4,"name":"b","transform":"bucket[2]"}]})"));
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->spec_id, 0);
  EXPECT_FALSE(spec->fields[0].field_id.has_value());
  EXPECT_FALSE(PartitionSpecToJson(*spec).at("fields").as_array()[0].as_object().contains(
      "field-id"));
}

TEST(PartitionSpecSerdeTest, SingleElementSourceIdsFoldIntoSourceId) {
  Result<PartitionSpec> spec = PartitionSpecFromJson(json::parse(
      R"({"fields":[{"source-ids":[7],"field-id":1000,"name":"x","transform":"identity"}]})"));
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->fields[0].source_id, 7);
  EXPECT_TRUE(spec->fields[0].source_ids.empty());
}

TEST(PartitionSpecSerdeTest, RejectsBadFields) {
  ExpectBadRequest(PartitionSpecFromJson(json::parse(R"({"spec-id":0})")), "fields");
  ExpectBadRequest(PartitionSpecFromJson(json::parse(
                       R"({"fields":[{"field-id":1000,"name":"x","transform":"identity"}]})")),
                   "source-id");
  ExpectBadRequest(PartitionSpecFromJson(json::parse(
                       R"({"fields":[{"source-id":1,"name":"x","transform":5}]})")),
                   "transform");
  ExpectBadRequest(PartitionSpecFromJson(json::parse(
                       R"({"fields":[{"source-ids":[],"name":"x","transform":"identity"}]})")),
                   "source-ids");
}

TEST(SortOrderSerdeTest, RoundTrips) {
  ExpectRoundTrip<SortOrder>(
      R"({"order-id":1,"fields":[{"transform":"identity","source-id":2,"direction":"asc","null-order":"nulls-first"},
          {"transform":"bucket[4]","source-id":3,"direction":"desc","null-order":"nulls-last"}]})",
      SortOrderFromJson, SortOrderToJson);
}

TEST(SortOrderSerdeTest, WritesJavaKeysAndLowercases) {
  Result<SortOrder> order = SortOrderFromJson(json::parse(
      R"({"order-id":1,"fields":[{"transform":"identity","source-id":2,"direction":"ASC","null-order":"NULLS-FIRST"}]})"));
  ASSERT_TRUE(order);
  EXPECT_EQ(json::serialize(SortOrderToJson(*order)),
            R"({"order-id":1,"fields":[{"transform":"identity","source-id":2,"direction":"asc","null-order":"nulls-first"}]})");
}

TEST(SortOrderSerdeTest, RejectsBadFields) {
  ExpectBadRequest(SortOrderFromJson(json::parse(R"({"fields":[]})")), "order-id");
  ExpectBadRequest(SortOrderFromJson(json::parse(
                       R"({"order-id":1,"fields":[{"transform":"identity","source-id":2,"direction":"up","null-order":"nulls-first"}]})")),
                   "direction");
  ExpectBadRequest(SortOrderFromJson(json::parse(
                       R"({"order-id":1,"fields":[{"transform":"identity","source-id":2,"direction":"asc"}]})")),
                   "null-order");
}

TEST(SnapshotSerdeTest, RoundTripsV3Snapshot) {
  ExpectRoundTrip<Snapshot>(
      R"({"snapshot-id":11,"parent-snapshot-id":10,"sequence-number":4,"timestamp-ms":1515100955770,
          "summary":{"operation":"append","added-files":"1"},"manifest-list":"s3://a/1.avro",
          "schema-id":2,"first-row-id":100,"added-rows":30,"key-id":"k"})",
      SnapshotFromJson, SnapshotToJson);
}

TEST(SnapshotSerdeTest, RoundTripsV1Manifests) {
  Result<Snapshot> s = SnapshotFromJson(json::parse(
      R"({"snapshot-id":1,"timestamp-ms":2,"manifests":["a.avro","b.avro"]})"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->manifests, (std::vector<std::string>{"a.avro", "b.avro"}));
  EXPECT_FALSE(s->manifest_list);
  json::object out = SnapshotToJson(*s);
  EXPECT_TRUE(out.contains("manifests"));
  EXPECT_FALSE(out.contains("manifest-list"));
  EXPECT_FALSE(out.contains("sequence-number"));
  EXPECT_FALSE(out.contains("summary"));
}

TEST(SnapshotSerdeTest, WritesKeysAndOperationFirst) {
  Result<Snapshot> s = SnapshotFromJson(json::parse(
      R"({"snapshot-id":11,"sequence-number":4,"timestamp-ms":5,
          "summary":{"added-files":"1","operation":"append"},"manifest-list":"m",
          "first-row-id":100,"added-rows":30})"));
  ASSERT_TRUE(s);
  EXPECT_EQ(json::serialize(SnapshotToJson(*s)),
            R"({"sequence-number":4,"snapshot-id":11,"timestamp-ms":5,)"
            R"("summary":{"operation":"append","added-files":"1"},"manifest-list":"m",)"
            R"("first-row-id":100,"added-rows":30})");
}

TEST(SnapshotSerdeTest, RejectsBadFields) {
  ExpectBadRequest(SnapshotFromJson(json::parse(R"({"timestamp-ms":1})")), "snapshot-id");
  ExpectBadRequest(SnapshotFromJson(json::parse(R"({"snapshot-id":1})")), "timestamp-ms");
  ExpectBadRequest(SnapshotFromJson(json::parse(R"({"snapshot-id":"1","timestamp-ms":1})")),
                   "snapshot-id");
  ExpectBadRequest(
      SnapshotFromJson(json::parse(R"({"snapshot-id":1,"timestamp-ms":1,"summary":{"a":1}})")),
      "summary");
  ExpectBadRequest(
      SnapshotFromJson(json::parse(R"({"snapshot-id":1,"timestamp-ms":1,"added-rows":1.5})")),
      "added-rows");
}

TEST(SnapshotRefSerdeTest, RoundTrips) {
  ExpectRoundTrip<SnapshotRef>(
      R"({"snapshot-id":5,"type":"branch","min-snapshots-to-keep":2,"max-snapshot-age-ms":100,"max-ref-age-ms":200})",
      SnapshotRefFromJson, SnapshotRefToJson);
  ExpectRoundTrip<SnapshotRef>(R"({"snapshot-id":5,"type":"tag"})", SnapshotRefFromJson,
                               SnapshotRefToJson);
}

TEST(SnapshotRefSerdeTest, WritesOnlyPresentKeys) {
  Result<SnapshotRef> ref = SnapshotRefFromJson(json::parse(R"({"snapshot-id":5,"type":"TAG"})"));
  ASSERT_TRUE(ref);
  EXPECT_EQ(json::serialize(SnapshotRefToJson(*ref)), R"({"snapshot-id":5,"type":"tag"})");
}

TEST(SnapshotRefSerdeTest, RejectsBadFields) {
  ExpectBadRequest(SnapshotRefFromJson(json::parse(R"({"type":"branch"})")), "snapshot-id");
  ExpectBadRequest(SnapshotRefFromJson(json::parse(R"({"snapshot-id":1,"type":"leaf"})")),
                   "type");
  ExpectBadRequest(SnapshotRefFromJson(json::parse(R"({"snapshot-id":1})")), "type");
}

TEST(StatisticsSerdeTest, KeepsTheWholeObject) {
  json::value v = json::parse(
      R"({"snapshot-id":3,"statistics-path":"s3://p","file-size-in-bytes":10,
          "file-footer-size-in-bytes":2,"blob-metadata":[],"key-metadata":"a2V5"})");
  Result<StatisticsFile> f = StatisticsFileFromJson(v);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->snapshot_id, 3);
  EXPECT_EQ(json::value(f->json), v);
  ExpectBadRequest(StatisticsFileFromJson(json::parse(
                       R"({"snapshot-id":3,"statistics-path":"p","file-size-in-bytes":1,"blob-metadata":[]})")),
                   "file-footer-size-in-bytes");
}

TEST(StatisticsSerdeTest, PartitionStatistics) {
  Result<PartitionStatisticsFile> f = PartitionStatisticsFileFromJson(
      json::parse(R"({"snapshot-id":3,"statistics-path":"s3://p","file-size-in-bytes":10})"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->snapshot_id, 3);
  ExpectBadRequest(PartitionStatisticsFileFromJson(
                       json::parse(R"({"snapshot-id":3,"file-size-in-bytes":10})")),
                   "statistics-path");
}

TEST(EncryptionKeySerdeTest, ParsesAndValidates) {
  Result<EncryptionKey> k = EncryptionKeyFromJson(
      json::parse(R"({"key-id":"k1","encrypted-key-metadata":"AAA=","encrypted-by-id":"k0"})"));
  ASSERT_TRUE(k);
  EXPECT_EQ(k->key_id, "k1");
  EXPECT_EQ(k->json.at("encrypted-by-id"), json::value("k0"));
  ExpectBadRequest(EncryptionKeyFromJson(json::parse(R"({"key-id":"k1"})")),
                   "encrypted-key-metadata");
}

TEST(PartsSerdeTest, NonObjectsAreBadRequests) {
  json::value array = json::parse("[]");
  EXPECT_EQ(SnapshotFromJson(array).error().kind, ErrorKind::kBadRequest);
  EXPECT_EQ(SchemaFromJson(array).error().kind, ErrorKind::kBadRequest);
  EXPECT_EQ(PartitionSpecFromJson(array).error().kind, ErrorKind::kBadRequest);
  EXPECT_EQ(SortOrderFromJson(array).error().kind, ErrorKind::kBadRequest);
  EXPECT_EQ(SnapshotRefFromJson(array).error().kind, ErrorKind::kBadRequest);
}

}  // namespace
}  // namespace firn::metadata
