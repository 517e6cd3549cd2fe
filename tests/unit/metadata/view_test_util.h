// Shared fixtures for the view metadata tests.
#pragma once

#include <boost/json.hpp>

#include <string>

#include "metadata/serde.h"
#include "metadata/view_metadata.h"
#include "metadata/view_serde.h"

namespace firn::metadata::testing {

inline Schema ViewSchema(int id, std::string_view column = "c") {
  auto schema = SchemaFromJson(boost::json::parse(
      R"({"type":"struct","schema-id":0,"fields":[{"id":1,"name":")" + std::string(column) +
      R"(","required":false,"type":"int"}]})"));
  schema->schema_id = id;
  return *schema;
}

inline ViewVersion SqlVersion(int id, int schema_id, std::string sql,
                              std::string dialect = "spark", int64_t ts = 1000) {
  ViewVersion v;
  v.version_id = id;
  v.schema_id = schema_id;
  v.timestamp_ms = ts;
  v.summary = {{"operation", "create"}};
  v.representations.push_back({std::string(kSqlRepresentationType), std::move(sql),
                               std::move(dialect), {}});
  v.default_namespace = {"ns"};
  return v;
}

// One version (id 1, schema 0, spark "select 1"), uuid fixed.
inline ViewMetadata MakeView() {
  ViewMetadata m;
  m.view_uuid = "fa6506c3-7681-40c8-86dc-e36561f83385";
  m.location = "file:/tmp/ns/v";
  m.schemas.push_back(ViewSchema(0));
  m.versions.push_back(SqlVersion(1, 0, "select 1"));
  m.current_version_id = 1;
  m.version_log.push_back({1000, 1});
  return m;
}

}  // namespace firn::metadata::testing
