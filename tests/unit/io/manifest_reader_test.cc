// Tests for ReadManifestList / ReadManifest. Fixtures are written here with Avro C's own writer
// (an encoder independent of the reader under test) using the spec's manifest_file and
// manifest_entry schemas; tests/fixtures/avro/ holds real files written by PyIceberg.
#include "io/manifest_reader.h"

#include <avro.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/source_tree.h"

namespace firn::io {
namespace {

// ---------------------------------------------------------------------------------------------
// Schemas (spec "Manifest Lists" and "Manifests"), with field ids as Iceberg writes them.

constexpr char kFieldSummary[] = R"({"type":"array","element-id":508,"items":{
  "type":"record","name":"r508","fields":[
    {"name":"contains_null","type":"boolean","field-id":509},
    {"name":"contains_nan","type":["null","boolean"],"default":null,"field-id":518},
    {"name":"lower_bound","type":["null","bytes"],"default":null,"field-id":510},
    {"name":"upper_bound","type":["null","bytes"],"default":null,"field-id":511}]}})";

std::string ManifestListV1Schema() {
  return std::string(R"({"type":"record","name":"manifest_file","fields":[
    {"name":"manifest_path","type":"string","field-id":500},
    {"name":"manifest_length","type":"long","field-id":501},
    {"name":"partition_spec_id","type":"int","field-id":502},
    {"name":"added_snapshot_id","type":["null","long"],"default":null,"field-id":503},
    {"name":"added_files_count","type":["null","int"],"default":null,"field-id":504},
    {"name":"existing_files_count","type":["null","int"],"default":null,"field-id":505},
    {"name":"deleted_files_count","type":["null","int"],"default":null,"field-id":506},
    {"name":"partitions","type":["null",)") +
         kFieldSummary + R"(],"default":null,"field-id":507},
    {"name":"added_rows_count","type":["null","long"],"default":null,"field-id":512},
    {"name":"existing_rows_count","type":["null","long"],"default":null,"field-id":513},
    {"name":"deleted_rows_count","type":["null","long"],"default":null,"field-id":514}]})";
}

std::string ManifestListV2Schema() {
  return std::string(R"({"type":"record","name":"manifest_file","fields":[
    {"name":"manifest_path","type":"string","field-id":500},
    {"name":"manifest_length","type":"long","field-id":501},
    {"name":"partition_spec_id","type":"int","field-id":502},
    {"name":"content","type":"int","field-id":517},
    {"name":"sequence_number","type":"long","field-id":515},
    {"name":"min_sequence_number","type":"long","field-id":516},
    {"name":"added_snapshot_id","type":"long","field-id":503},
    {"name":"added_files_count","type":"int","field-id":504},
    {"name":"existing_files_count","type":"int","field-id":505},
    {"name":"deleted_files_count","type":"int","field-id":506},
    {"name":"added_rows_count","type":"long","field-id":512},
    {"name":"existing_rows_count","type":"long","field-id":513},
    {"name":"deleted_rows_count","type":"long","field-id":514},
    {"name":"partitions","type":["null",)") +
         kFieldSummary + R"(],"default":null,"field-id":507},
    {"name":"key_metadata","type":["null","bytes"],"default":null,"field-id":519}]})";
}

// v3-shaped: fields in an unusual order plus first_row_id, to prove lookup is by name.
constexpr char kManifestListShuffledSchema[] = R"({"type":"record","name":"manifest_file","fields":[
    {"name":"first_row_id","type":["null","long"],"default":null,"field-id":520},
    {"name":"added_snapshot_id","type":"long","field-id":503},
    {"name":"content","type":"int","field-id":517},
    {"name":"partition_spec_id","type":"int","field-id":502},
    {"name":"key_metadata","type":["null","bytes"],"default":null,"field-id":519},
    {"name":"manifest_length","type":"long","field-id":501},
    {"name":"manifest_path","type":"string","field-id":500}]})";

constexpr char kIntLongMap[] = R"({"type":"array","logicalType":"map","items":{
  "type":"record","name":"k117_v118","fields":[
    {"name":"key","type":"int","field-id":117},
    {"name":"value","type":"long","field-id":118}]}})";

constexpr char kIntBytesMap[] = R"({"type":"array","logicalType":"map","items":{
  "type":"record","name":"k126_v127","fields":[
    {"name":"key","type":"int","field-id":126},
    {"name":"value","type":"bytes","field-id":127}]}})";

std::string ManifestV1Schema() {
  return std::string(R"({"type":"record","name":"manifest_entry","fields":[
    {"name":"status","type":"int","field-id":0},
    {"name":"snapshot_id","type":"long","field-id":1},
    {"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
      {"name":"file_path","type":"string","field-id":100},
      {"name":"file_format","type":"string","field-id":101},
      {"name":"partition","field-id":102,"type":{"type":"record","name":"r102","fields":[
        {"name":"day","type":["null",{"type":"int","logicalType":"date"}],"default":null,
         "field-id":1000}]}},
      {"name":"record_count","type":"long","field-id":103},
      {"name":"file_size_in_bytes","type":"long","field-id":104},
      {"name":"block_size_in_bytes","type":"long","field-id":105},
      {"name":"column_sizes","type":["null",)") +
         kIntLongMap + R"(],"default":null,"field-id":108},
      {"name":"lower_bounds","type":["null",)" + kIntBytesMap +
         R"(],"default":null,"field-id":125},
      {"name":"split_offsets","type":["null",{"type":"array","items":"long","element-id":133}],
       "default":null,"field-id":132}]}}]})";
}

std::string ManifestV2Schema() {
  return std::string(R"({"type":"record","name":"manifest_entry","fields":[
    {"name":"status","type":"int","field-id":0},
    {"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},
    {"name":"sequence_number","type":["null","long"],"default":null,"field-id":3},
    {"name":"file_sequence_number","type":["null","long"],"default":null,"field-id":4},
    {"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
      {"name":"content","type":"int","field-id":134},
      {"name":"file_path","type":"string","field-id":100},
      {"name":"file_format","type":"string","field-id":101},
      {"name":"partition","field-id":102,"type":{"type":"record","name":"r102","fields":[]}},
      {"name":"record_count","type":"long","field-id":103},
      {"name":"file_size_in_bytes","type":"long","field-id":104},
      {"name":"column_sizes","type":["null",)") +
         kIntLongMap + R"(],"default":null,"field-id":108},
      {"name":"lower_bounds","type":["null",)" + kIntBytesMap +
         R"(],"default":null,"field-id":125},
      {"name":"key_metadata","type":["null","bytes"],"default":null,"field-id":131},
      {"name":"split_offsets","type":["null",{"type":"array","items":"long","element-id":133}],
       "default":null,"field-id":132},
      {"name":"equality_ids","type":["null",{"type":"array","items":"int","element-id":136}],
       "default":null,"field-id":135},
      {"name":"sort_order_id","type":["null","int"],"default":null,"field-id":140},
      {"name":"referenced_data_file","type":["null","string"],"default":null,
       "field-id":143}]}}]})";
}

// ---------------------------------------------------------------------------------------------
// A tiny Avro C writer harness: one generic record per Append, every union starts as null.

avro_value_t Child(avro_value_t* parent, const char* name) {
  avro_value_t child;
  EXPECT_EQ(avro_value_get_by_name(parent, name, &child, nullptr), 0) << name;
  return child;
}

// The value slot for a field: the non-null branch when the field is a ["null", T] union.
avro_value_t Slot(avro_value_t* record, const char* name) {
  avro_value_t field = Child(record, name);
  if (avro_value_get_type(&field) != AVRO_UNION) return field;
  avro_value_t branch;
  EXPECT_EQ(avro_value_set_branch(&field, 1, &branch), 0) << name;
  return branch;
}

void NullUnions(avro_value_t* value) {
  if (avro_value_get_type(value) == AVRO_UNION) {
    avro_value_t branch;
    ASSERT_EQ(avro_value_set_branch(value, 0, &branch), 0);
    return;
  }
  if (avro_value_get_type(value) != AVRO_RECORD) return;
  size_t n = 0;
  avro_value_get_size(value, &n);
  for (size_t i = 0; i < n; ++i) {
    avro_value_t child;
    avro_value_get_by_index(value, i, &child, nullptr);
    NullUnions(&child);
  }
}

void SetString(avro_value_t* r, const char* name, const std::string& v) {
  avro_value_t s = Slot(r, name);
  ASSERT_EQ(avro_value_set_string(&s, v.c_str()), 0) << name;
}
void SetLong(avro_value_t* r, const char* name, int64_t v) {
  avro_value_t s = Slot(r, name);
  ASSERT_EQ(avro_value_set_long(&s, v), 0) << name;
}
void SetInt(avro_value_t* r, const char* name, int32_t v) {
  avro_value_t s = Slot(r, name);
  ASSERT_EQ(avro_value_set_int(&s, v), 0) << name;
}

class AvroFile {
 public:
  explicit AvroFile(const std::string& schema_json, const char* codec = "null",
                    size_t block_size = 0) {
    static std::atomic<int> counter{0};
    path_ = testing::TempDir() + "/manifest_reader_" + std::to_string(getpid()) + "_" +
            std::to_string(counter++) + ".avro";
    std::filesystem::remove(path_);
    EXPECT_EQ(avro_schema_from_json_length(schema_json.data(), schema_json.size(), &schema_), 0)
        << avro_strerror();
    iface_ = avro_generic_class_from_schema(schema_);
    EXPECT_EQ(avro_file_writer_create_with_codec(path_.c_str(), schema_, &writer_, codec,
                                                 block_size),
              0)
        << avro_strerror();
  }
  ~AvroFile() {
    avro_value_iface_decref(iface_);
    avro_schema_decref(schema_);
    std::filesystem::remove(path_);
  }

  // `fill` sets the fields; unions it leaves alone are written as null.
  template <typename Fill>
  void Append(Fill fill) {
    avro_value_t record;
    ASSERT_EQ(avro_generic_value_new(iface_, &record), 0);
    NullUnions(&record);
    fill(&record);
    EXPECT_EQ(avro_file_writer_append_value(writer_, &record), 0) << avro_strerror();
    avro_value_decref(&record);
  }

  std::string Finish() {
    EXPECT_EQ(avro_file_writer_close(writer_), 0);
    std::ifstream in(path_, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

 private:
  std::string path_;
  avro_schema_t schema_ = nullptr;
  avro_value_iface_t* iface_ = nullptr;
  avro_file_writer_t writer_ = nullptr;
};

void FillV2Manifest(avro_value_t* r, int32_t status, int32_t content, const std::string& path,
                    int64_t size, int64_t rows) {
  SetInt(r, "status", status);
  SetLong(r, "snapshot_id", 42);
  SetLong(r, "sequence_number", 7);
  avro_value_t df = Child(r, "data_file");
  SetInt(&df, "content", content);
  SetString(&df, "file_path", path);
  SetString(&df, "file_format", "PARQUET");
  SetLong(&df, "record_count", rows);
  SetLong(&df, "file_size_in_bytes", size);
  // Metrics the reader must skip over.
  avro_value_t sizes = Slot(&df, "column_sizes");
  for (int key = 1; key <= 3; ++key) {
    avro_value_t kv;
    size_t index = 0;
    ASSERT_EQ(avro_value_append(&sizes, &kv, &index), 0);
    SetInt(&kv, "key", key);
    SetLong(&kv, "value", 1000 * key);
  }
  avro_value_t lower = Slot(&df, "lower_bounds");
  avro_value_t kv;
  size_t index = 0;
  ASSERT_EQ(avro_value_append(&lower, &kv, &index), 0);
  SetInt(&kv, "key", 1);
  avro_value_t bytes = Child(&kv, "value");
  char raw[] = "\x01\x02\x03";
  ASSERT_EQ(avro_value_set_bytes(&bytes, raw, 3), 0);
  avro_value_t offsets = Slot(&df, "split_offsets");
  avro_value_t offset;
  ASSERT_EQ(avro_value_append(&offsets, &offset, &index), 0);
  ASSERT_EQ(avro_value_set_long(&offset, 4), 0);
  if (content == 1) SetString(&df, "referenced_data_file", "s3://b/t/data/a.parquet");
}

std::string V2ManifestList() {
  AvroFile f(ManifestListV2Schema());
  f.Append([](avro_value_t* r) {
    SetString(r, "manifest_path", "s3://b/t/metadata/m0.avro");
    SetLong(r, "manifest_length", 4321);
    SetInt(r, "partition_spec_id", 0);
    SetInt(r, "content", 0);
    SetLong(r, "added_snapshot_id", 1234567890123);
    avro_value_t parts = Slot(r, "partitions");
    avro_value_t summary;
    size_t index = 0;
    ASSERT_EQ(avro_value_append(&parts, &summary, &index), 0);
    NullUnions(&summary);
    avro_value_t contains_null = Child(&summary, "contains_null");
    avro_value_set_boolean(&contains_null, 1);
  });
  f.Append([](avro_value_t* r) {
    SetString(r, "manifest_path", "s3://b/t/metadata/m1-deletes.avro");
    SetLong(r, "manifest_length", 99);
    SetInt(r, "partition_spec_id", 3);
    SetInt(r, "content", 1);
    SetLong(r, "added_snapshot_id", -5);
  });
  return f.Finish();
}

std::string V2Manifest() {
  AvroFile f(ManifestV2Schema());
  f.Append([](avro_value_t* r) { FillV2Manifest(r, 1, 0, "s3://b/t/data/a.parquet", 1000, 10); });
  f.Append([](avro_value_t* r) { FillV2Manifest(r, 0, 0, "s3://b/t/data/b.parquet", 2000, 20); });
  f.Append([](avro_value_t* r) { FillV2Manifest(r, 2, 1, "s3://b/t/data/pos.parquet", 30, 3); });
  f.Append([](avro_value_t* r) { FillV2Manifest(r, 1, 2, "s3://b/t/data/eq.parquet", 40, 4); });
  return f.Finish();
}

std::string ReadFixture(const std::string& name) {
  std::ifstream in(source_tree::SourcePath("tests/fixtures/avro/" + name), std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Basename(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// ---------------------------------------------------------------------------------------------
// Valid files.

TEST(ManifestReaderTest, ReadsV1ManifestList) {
  AvroFile f(ManifestListV1Schema());
  f.Append([](avro_value_t* r) {
    SetString(r, "manifest_path", "file:///w/t/metadata/m0.avro");
    SetLong(r, "manifest_length", 5000);
    SetInt(r, "partition_spec_id", 2);
    SetLong(r, "added_snapshot_id", 77);
    SetInt(r, "added_files_count", 1);
  });
  f.Append([](avro_value_t* r) {
    SetString(r, "manifest_path", "file:///w/t/metadata/m1.avro");
    SetLong(r, "manifest_length", 6000);
    SetInt(r, "partition_spec_id", 0);
    // added_snapshot_id left null: optional in v1 as Java writes it.
  });
  auto entries = ReadManifestList(f.Finish());
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].manifest_path, "file:///w/t/metadata/m0.avro");
  EXPECT_EQ((*entries)[0].manifest_length, 5000);
  EXPECT_EQ((*entries)[0].partition_spec_id, 2);
  EXPECT_EQ((*entries)[0].content, 0);
  EXPECT_EQ((*entries)[0].added_snapshot_id, 77);
  EXPECT_EQ((*entries)[1].manifest_path, "file:///w/t/metadata/m1.avro");
  EXPECT_EQ((*entries)[1].added_snapshot_id, std::nullopt);
}

TEST(ManifestReaderTest, ReadsV2ManifestListWithDeleteManifest) {
  auto entries = ReadManifestList(V2ManifestList());
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].manifest_path, "s3://b/t/metadata/m0.avro");
  EXPECT_EQ((*entries)[0].manifest_length, 4321);
  EXPECT_EQ((*entries)[0].content, 0);
  EXPECT_EQ((*entries)[0].added_snapshot_id, 1234567890123);
  EXPECT_EQ((*entries)[1].manifest_path, "s3://b/t/metadata/m1-deletes.avro");
  EXPECT_EQ((*entries)[1].manifest_length, 99);
  EXPECT_EQ((*entries)[1].partition_spec_id, 3);
  EXPECT_EQ((*entries)[1].content, 1);
  EXPECT_EQ((*entries)[1].added_snapshot_id, -5);
}

TEST(ManifestReaderTest, ReadsFieldsByNameInAnyOrder) {
  AvroFile f(kManifestListShuffledSchema);
  f.Append([](avro_value_t* r) {
    SetLong(r, "first_row_id", 100);
    SetLong(r, "added_snapshot_id", 9);
    SetInt(r, "content", 1);
    SetInt(r, "partition_spec_id", 4);
    SetLong(r, "manifest_length", 12);
    SetString(r, "manifest_path", "s3://b/m.avro");
  });
  auto entries = ReadManifestList(f.Finish());
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].manifest_path, "s3://b/m.avro");
  EXPECT_EQ((*entries)[0].manifest_length, 12);
  EXPECT_EQ((*entries)[0].partition_spec_id, 4);
  EXPECT_EQ((*entries)[0].content, 1);
  EXPECT_EQ((*entries)[0].added_snapshot_id, 9);
}

TEST(ManifestReaderTest, ReadsV1Manifest) {
  AvroFile f(ManifestV1Schema());
  f.Append([](avro_value_t* r) {
    SetInt(r, "status", 1);
    SetLong(r, "snapshot_id", 5);
    avro_value_t df = Child(r, "data_file");
    SetString(&df, "file_path", "hdfs://nn/t/data/day=1/a.orc");
    SetString(&df, "file_format", "ORC");
    avro_value_t partition = Child(&df, "partition");
    SetInt(&partition, "day", 19000);
    SetLong(&df, "record_count", 11);
    SetLong(&df, "file_size_in_bytes", 2222);
    SetLong(&df, "block_size_in_bytes", 67108864);
  });
  auto entries = ReadManifest(f.Finish());
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].status, 1);
  EXPECT_EQ((*entries)[0].content, 0);
  EXPECT_EQ((*entries)[0].file_path, "hdfs://nn/t/data/day=1/a.orc");
  EXPECT_EQ((*entries)[0].file_size_in_bytes, 2222);
  EXPECT_EQ((*entries)[0].record_count, 11);
}

TEST(ManifestReaderTest, ReadsV2ManifestWithEveryStatusAndContent) {
  auto entries = ReadManifest(V2Manifest());
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 4u);
  const std::vector<std::tuple<int, int, std::string, int64_t, int64_t>> want = {
      {1, 0, "s3://b/t/data/a.parquet", 1000, 10},
      {0, 0, "s3://b/t/data/b.parquet", 2000, 20},
      {2, 1, "s3://b/t/data/pos.parquet", 30, 3},
      {1, 2, "s3://b/t/data/eq.parquet", 40, 4}};
  for (size_t i = 0; i < want.size(); ++i) {
    const ManifestFileEntry& e = (*entries)[i];
    EXPECT_EQ(e.status, std::get<0>(want[i])) << i;
    EXPECT_EQ(e.content, std::get<1>(want[i])) << i;
    EXPECT_EQ(e.file_path, std::get<2>(want[i])) << i;
    EXPECT_EQ(e.file_size_in_bytes, std::get<3>(want[i])) << i;
    EXPECT_EQ(e.record_count, std::get<4>(want[i])) << i;
  }
}

TEST(ManifestReaderTest, ReadsDeflateFileWithManyBlocks) {
  AvroFile f(ManifestV2Schema(), "deflate", 1024);
  for (int i = 0; i < 300; ++i) {
    f.Append([i](avro_value_t* r) {
      FillV2Manifest(r, 1, 0, "s3://b/t/data/f" + std::to_string(i) + ".parquet", i, 2 * i);
    });
  }
  const std::string bytes = f.Finish();
  auto entries = ReadManifest(bytes);
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 300u);
  for (int i = 0; i < 300; ++i) {
    EXPECT_EQ((*entries)[i].file_path, "s3://b/t/data/f" + std::to_string(i) + ".parquet");
    EXPECT_EQ((*entries)[i].record_count, 2 * i);
  }
}

TEST(ManifestReaderTest, ReadsContainerWithoutRecords) {
  AvroFile f(ManifestListV2Schema());
  auto entries = ReadManifestList(f.Finish());
  ASSERT_TRUE(entries) << entries.error().message;
  EXPECT_TRUE(entries->empty());
}

TEST(ManifestReaderTest, ReadsPyIcebergV2Files) {
  auto list = ReadManifestList(ReadFixture("pyiceberg_v2_manifest_list.avro"));
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ(Basename((*list)[0].manifest_path), "4354a5fe-0103-4bdc-acef-c43a58c3f5b0-m0.avro");
  EXPECT_EQ((*list)[0].manifest_length, 4278);
  EXPECT_EQ((*list)[0].partition_spec_id, 0);
  EXPECT_EQ((*list)[0].content, 0);
  EXPECT_EQ((*list)[0].added_snapshot_id, 6686450648426682987);

  auto entries = ReadManifest(ReadFixture("pyiceberg_v2_manifest.avro"));
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].status, 1);
  EXPECT_EQ((*entries)[0].content, 0);
  EXPECT_EQ((*entries)[0].file_path,
            "file:///tmp/firn-avro-fixture/db/t_v2/data/"
            "00000-0-4354a5fe-0103-4bdc-acef-c43a58c3f5b0.parquet");
  EXPECT_EQ((*entries)[0].file_size_in_bytes, 932);
  EXPECT_EQ((*entries)[0].record_count, 3);
}

TEST(ManifestReaderTest, ReadsPyIcebergV1Files) {
  auto list = ReadManifestList(ReadFixture("pyiceberg_v1_manifest_list.avro"));
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ(Basename((*list)[0].manifest_path), "86a3e2a4-64e8-4d05-b22a-e987bfa447a5-m0.avro");
  EXPECT_EQ((*list)[0].manifest_length, 3878);
  EXPECT_EQ((*list)[0].content, 0);
  EXPECT_EQ((*list)[0].added_snapshot_id, 5981336313835115630);

  auto entries = ReadManifest(ReadFixture("pyiceberg_v1_manifest.avro"));
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].status, 1);
  EXPECT_EQ((*entries)[0].file_path,
            "file:///tmp/firn-avro-fixture/db/t_v1/data/"
            "00000-0-86a3e2a4-64e8-4d05-b22a-e987bfa447a5.parquet");
  EXPECT_EQ((*entries)[0].file_size_in_bytes, 932);
  EXPECT_EQ((*entries)[0].record_count, 3);
}

// ---------------------------------------------------------------------------------------------
// Invalid input.

void ExpectBadRequest(const Result<std::vector<ManifestListEntry>>& r, const std::string& reason) {
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kBadRequest);
  EXPECT_EQ(r.error().message.rfind("Cannot read manifest list: ", 0), 0u) << r.error().message;
  EXPECT_NE(r.error().message.find(reason), std::string::npos) << r.error().message;
}

TEST(ManifestReaderTest, EmptyInputFails) {
  ExpectBadRequest(ReadManifestList(""), "empty input");
  auto r = ReadManifest("");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "Cannot read manifest: empty input");
}

TEST(ManifestReaderTest, RandomBytesFail) {
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    std::string junk(1 + rng() % 300, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    EXPECT_FALSE(ReadManifestList(junk));
    EXPECT_FALSE(ReadManifest(junk));
  }
  ExpectBadRequest(ReadManifestList("PAR1 not avro"), "bad magic");
}

// Avro containers have no footer: a cut exactly after a sync marker is a valid shorter file.
// Any other cut must fail; a cut at a block boundary may only drop whole blocks.
TEST(ManifestReaderTest, TruncatedInputFailsOrDropsWholeBlocks) {
  const auto check = [](const std::string& bytes, auto read) {
    auto full = read(bytes);
    ASSERT_TRUE(full) << full.error().message;
    for (size_t len = 0; len < bytes.size(); ++len) {
      auto cut = read(std::string_view(bytes.data(), len));
      if (cut) {
        EXPECT_LT(cut->size(), full->size()) << len;
      }
    }
    // One byte short of the end sits inside the last sync marker: always an error.
    EXPECT_FALSE(read(std::string_view(bytes.data(), bytes.size() - 1)));
  };
  check(V2ManifestList(), ReadManifestList);
  check(V2Manifest(), ReadManifest);
  check(ReadFixture("pyiceberg_v2_manifest_list.avro"), ReadManifestList);
  check(ReadFixture("pyiceberg_v2_manifest.avro"), ReadManifest);
}

TEST(ManifestReaderTest, WrongSchemaFails) {
  auto as_manifest = ReadManifest(V2ManifestList());
  ASSERT_FALSE(as_manifest);
  EXPECT_EQ(as_manifest.error().message,
            "Cannot read manifest: writer schema of manifest_entry has no field 'status'");
  ExpectBadRequest(ReadManifestList(V2Manifest()), "has no field 'manifest_path'");
}

TEST(ManifestReaderTest, NullRequiredFieldFails) {
  AvroFile f(R"({"type":"record","name":"manifest_file","fields":[
    {"name":"manifest_path","type":["null","string"],"default":null},
    {"name":"manifest_length","type":"long"},
    {"name":"partition_spec_id","type":"int"}]})");
  f.Append([](avro_value_t* r) {
    SetLong(r, "manifest_length", 1);
    SetInt(r, "partition_spec_id", 0);
  });
  ExpectBadRequest(ReadManifestList(f.Finish()), "required field 'manifest_path' is null");
}

TEST(ManifestReaderTest, WrongFieldTypeFails) {
  AvroFile f(R"({"type":"record","name":"manifest_file","fields":[
    {"name":"manifest_path","type":"long"},
    {"name":"manifest_length","type":"long"},
    {"name":"partition_spec_id","type":"int"}]})");
  f.Append([](avro_value_t* r) {
    SetLong(r, "manifest_path", 3);
    SetLong(r, "manifest_length", 1);
    SetInt(r, "partition_spec_id", 0);
  });
  ExpectBadRequest(ReadManifestList(f.Finish()),
                   "field 'manifest_path' has type long, expected string");
}

// Hand-built container: magic, metadata map, sync, no blocks.
std::string EncodeLong(int64_t v) {
  uint64_t n = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  std::string out;
  while (n & ~uint64_t{0x7f}) {
    out.push_back(static_cast<char>((n & 0x7f) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
  return out;
}
std::string EncodeString(std::string_view s) { return EncodeLong(s.size()) + std::string(s); }

TEST(ManifestReaderTest, UnsupportedCodecFails) {
  const std::string schema = ManifestListV2Schema();
  const std::string bytes = std::string("Obj\x01", 4) + EncodeLong(2) +
                            EncodeString("avro.schema") + EncodeString(schema) +
                            EncodeString("avro.codec") + EncodeString("zstandard") +
                            EncodeLong(0) + std::string(16, 'S');
  ExpectBadRequest(ReadManifestList(bytes), "unsupported codec 'zstandard'");
}

TEST(ManifestReaderTest, InvalidSchemaJsonFails) {
  const std::string bytes = std::string("Obj\x01", 4) + EncodeLong(1) +
                            EncodeString("avro.schema") + EncodeString("{not json") +
                            EncodeLong(0) + std::string(16, 'S');
  ExpectBadRequest(ReadManifestList(bytes), "invalid writer schema");
}

std::string ContainerWithSchema(std::string_view schema) {
  return std::string("Obj\x01", 4) + EncodeLong(1) + EncodeString("avro.schema") +
         EncodeString(schema) + EncodeLong(0) + std::string(16, 'S');
}

// Crafted writer schemas that made Avro C leak (found by tests/fuzz manifest; the leak shows
// under the asan-ubsan preset, where these tests fail without the fix).
TEST(ManifestReaderTest, SchemaDefiningANamedTypeTwiceIsRefusedBeforeAvroC) {
  for (const char* twice : {
           R"({"type":"record","name":"a","fields":[
               {"name":"x","type":{"type":"record","name":"b","fields":[]}},
               {"name":"y","type":{"type":"record","name":"b","fields":[]}}]})",
           R"({"type":"record","name":"a","fields":[
               {"name":"x","type":{"type":"fixed","name":"b","size":4}},
               {"name":"y","type":{"type":"enum","name":"b","symbols":["A"]}}]})",
           R"({"type":"record","name":"a","namespace":"n","fields":[
               {"name":"x","type":{"type":"record","name":"b","fields":[]}},
               {"name":"y","type":{"type":"record","name":"n.b","fields":[]}}]})"}) {
    ExpectBadRequest(ReadManifestList(ContainerWithSchema(twice)), "defined twice");
  }
}

TEST(ManifestReaderTest, SameShortNameInOtherNamespacesIsNotADuplicate) {
  auto r = ReadManifestList(ContainerWithSchema(R"({"type":"record","name":"a","fields":[
      {"name":"x","type":{"type":"record","name":"b","namespace":"p","fields":[]}},
      {"name":"y","type":{"type":"record","name":"q.b","fields":[]}}]})"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.find("defined twice"), std::string::npos) << r.error().message;
}

TEST(ManifestReaderTest, SchemaAvroCRejectsHalfwayIsReleased) {
  // Avro C returns the partly built record with the error; the reader must free it.
  ExpectBadRequest(ReadManifestList(ContainerWithSchema(
                       R"({"type":"record","name":"a","fields":[{"name":"x","type":"int"},
                           {"name":"y","type":"nosuch"}]})")),
                   "invalid writer schema");
}

TEST(ManifestReaderTest, MissingSchemaFails) {
  const std::string bytes = std::string("Obj\x01", 4) + EncodeLong(0) + std::string(16, 'S');
  ExpectBadRequest(ReadManifestList(bytes), "no avro.schema");
}

TEST(ManifestReaderTest, HugeLengthsFailWithoutAllocating) {
  const std::string header = std::string("Obj\x01", 4) + EncodeLong(1) +
                             EncodeString("avro.schema") + EncodeString(ManifestListV2Schema()) +
                             EncodeLong(0) + std::string(16, 'S');
  // A block claiming 2^60 bytes.
  ExpectBadRequest(ReadManifestList(header + EncodeLong(1) + EncodeLong(int64_t{1} << 60)),
                   "data block truncated");
  // A block whose first string claims 2^60 bytes.
  const std::string body = EncodeLong(int64_t{1} << 60) + "xyz";
  ExpectBadRequest(ReadManifestList(header + EncodeLong(1) + EncodeLong(body.size()) + body +
                                    std::string(16, 'S')),
                   "unexpected end of data");
  // A block whose sync marker does not match the header's.
  ExpectBadRequest(ReadManifestList(header + EncodeLong(1) + EncodeLong(body.size()) + body +
                                    std::string(16, 'T')),
                   "sync marker");
}

// Flipped bytes anywhere must give a clean error or a result, never a crash (run under ASan).
TEST(ManifestReaderTest, MutatedInputNeverCrashes) {
  const std::vector<std::string> seeds = {V2ManifestList(), V2Manifest(),
                                          ReadFixture("pyiceberg_v2_manifest.avro"),
                                          ReadFixture("pyiceberg_v1_manifest_list.avro")};
  std::mt19937 rng(1234);
  int failures = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string bytes = seeds[i % seeds.size()];
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; ++k) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    auto list = ReadManifestList(bytes);
    auto manifest = ReadManifest(bytes);
    if (!list) {
      ++failures;
      EXPECT_EQ(list.error().message.rfind("Cannot read manifest list: ", 0), 0u);
    }
    if (!manifest) {
      EXPECT_EQ(manifest.error().message.rfind("Cannot read manifest: ", 0), 0u);
    }
  }
  EXPECT_GT(failures, 0);
}

// Avro C's error text is process-global; the reader must still be safe from many threads.
TEST(ManifestReaderTest, ConcurrentReadsAgree) {
  const std::string list_bytes = V2ManifestList();
  const std::string manifest_bytes = V2Manifest();
  const std::string bad = list_bytes.substr(0, list_bytes.size() / 2) + "garbage";
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) {
        auto list = ReadManifestList(list_bytes);
        auto manifest = ReadManifest(manifest_bytes);
        auto broken = ReadManifestList(bad);
        if (!list || list->size() != 2 || (*list)[1].content != 1) ++mismatches;
        if (!manifest || manifest->size() != 4 || (*manifest)[3].file_path.empty()) ++mismatches;
        if (broken) ++mismatches;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace firn::io

namespace firn::io {
namespace {

// A replica in a bucket of another name: every path the file names moves, nothing else does.
TEST(RewriteManifestPathsTest, RewritesEveryPathOfRealFilesAndNothingElse) {
  for (const char* name : {"pyiceberg_v1_manifest_list.avro", "pyiceberg_v2_manifest_list.avro",
                           "pyiceberg_v1_manifest.avro", "pyiceberg_v2_manifest.avro"}) {
    SCOPED_TRACE(name);
    const std::string bytes = ReadFixture(name);
    const bool list = std::string_view(name).find("list") != std::string_view::npos;
    // Every path of these fixtures shares a prefix: find it from what the reader returns.
    std::vector<std::string> before;
    if (list) {
      auto entries = ReadManifestList(bytes);
      ASSERT_TRUE(entries);
      for (auto& e : *entries) before.push_back(e.manifest_path);
    } else {
      auto entries = ReadManifest(bytes);
      ASSERT_TRUE(entries);
      for (auto& e : *entries) before.push_back(e.file_path);
    }
    ASSERT_FALSE(before.empty());
    const std::string from = before[0].substr(0, before[0].find("://") + 3);
    const std::string to = from + "replica-root";
    size_t rewritten = 0;
    auto out = RewriteManifestPaths(bytes, from, to, &rewritten);
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(rewritten, before.size());
    std::vector<std::string> after;
    if (list) {
      auto entries = ReadManifestList(*out);
      ASSERT_TRUE(entries) << entries.error().message;
      auto original = ReadManifestList(bytes);
      for (size_t i = 0; i < entries->size(); ++i) {
        after.push_back((*entries)[i].manifest_path);
        EXPECT_EQ((*entries)[i].manifest_length, (*original)[i].manifest_length);
        EXPECT_EQ((*entries)[i].added_snapshot_id, (*original)[i].added_snapshot_id);
        EXPECT_EQ((*entries)[i].content, (*original)[i].content);
      }
    } else {
      auto entries = ReadManifest(*out);
      ASSERT_TRUE(entries) << entries.error().message;
      auto original = ReadManifest(bytes);
      for (size_t i = 0; i < entries->size(); ++i) {
        after.push_back((*entries)[i].file_path);
        EXPECT_EQ((*entries)[i].record_count, (*original)[i].record_count);
        EXPECT_EQ((*entries)[i].file_size_in_bytes, (*original)[i].file_size_in_bytes);
        EXPECT_EQ((*entries)[i].status, (*original)[i].status);
      }
    }
    ASSERT_EQ(after.size(), before.size());
    for (size_t i = 0; i < before.size(); ++i) {
      EXPECT_EQ(after[i], to + before[i].substr(from.size()));
    }
    // The header is kept byte for byte (schema, codec, Iceberg's own keys).
    const size_t header = bytes.find(bytes.substr(bytes.size() - 16));
    EXPECT_EQ(out->substr(0, header), bytes.substr(0, header));
    // Back again: the very same records.
    auto back = RewriteManifestPaths(*out, to, from);
    ASSERT_TRUE(back);
    if (list) {
      EXPECT_EQ(ReadManifestList(*back)->size(), before.size());
    } else {
      EXPECT_EQ(ReadManifest(*back)->size(), before.size());
    }
  }
}

TEST(RewriteManifestPathsTest, APrefixThatMatchesNothingChangesNoRecord) {
  const std::string bytes = ReadFixture("pyiceberg_v2_manifest.avro");
  size_t rewritten = 7;
  auto out = RewriteManifestPaths(bytes, "s3://nothing-like-this/", "s3://x/", &rewritten);
  ASSERT_TRUE(out);
  EXPECT_EQ(rewritten, 0u);
  auto entries = ReadManifest(*out);
  ASSERT_TRUE(entries);
  EXPECT_EQ(entries->size(), ReadManifest(bytes)->size());
}

TEST(RewriteManifestPathsTest, HostileBytesAreRefusedNeverCrash) {
  const std::string bytes = ReadFixture("pyiceberg_v2_manifest.avro");
  for (size_t cut : {size_t{0}, size_t{3}, bytes.size() / 2, bytes.size() - 1}) {
    auto out = RewriteManifestPaths(bytes.substr(0, cut), "s3://", "file:///");
    ASSERT_FALSE(out) << cut;
    EXPECT_EQ(out.error().kind, ErrorKind::kBadRequest);
  }
  std::string flipped = bytes;
  for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64 && i < bytes.size(); ++i) {
    flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
  }
  auto out = RewriteManifestPaths(flipped, "s3://", "file:///");  // must not crash
  (void)out;
}

}  // namespace
}  // namespace firn::io
