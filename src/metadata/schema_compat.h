// Which changes from one schema of a table to another would break the readers and queries
// written against the older one (the compatible schema-evolution policy, docs/schema-policy.md).
//
// Fields are matched by id across the whole tree (struct fields, list elements, map keys and
// values). Breaking, in that order per field: the field is gone (dropped); its type changed to
// anything but a promotion the Iceberg spec allows for the format version (int→long,
// float→double, decimal(P,S)→decimal(P',S) with P'>P; from v3 also date→timestamp or
// timestamp_ns and unknown→any type); it was renamed (struct fields only); it went from optional
// to required. Then the schema as a whole: its set of identifier-field ids changed.
// Everything else is allowed: new fields (optional or required), reordering, docs, defaults,
// required→optional, the promotions above. A dropped or retyped field hides its children.
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "metadata/table_metadata.h"
#include "metadata/types.h"

namespace firn::metadata {

enum class SchemaBreakKind { kDropped, kTypeChanged, kRenamed, kMadeRequired, kIdentifierFields };

struct SchemaBreak {
  SchemaBreakKind kind = SchemaBreakKind::kDropped;
  int field_id = 0;   // 0 for kIdentifierFields
  std::string path;   // the field's dotted path in the older schema
  std::string from;   // kTypeChanged: old type; kIdentifierFields: old fields, e.g. "[id]"
  std::string to;     // kTypeChanged: new type; kRenamed: new name; kIdentifierFields: new fields
  friend bool operator==(const SchemaBreak&, const SchemaBreak&) = default;
};

// Every breaking change from `from` to `to` (both parsed, so normalized), fields in `from`'s
// document order, parents before children, the identifier-field change last. Empty: `to` is
// compatible. `format_version` is the version of the table that would hold `to`.
std::vector<SchemaBreak> BreakingSchemaChanges(const Schema& from, const Schema& to,
                                               int format_version);

// True when the spec allows promoting primitive `from` to `to` at `format_version`.
bool IsTypePromotion(const PrimitiveType& from, const PrimitiveType& to, int format_version);

// One change in words, e.g. "column 'extra' (id 3) would be dropped".
std::string DescribeSchemaBreak(const SchemaBreak& change);

}  // namespace firn::metadata
