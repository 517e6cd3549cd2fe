// The schema-evolution policy of table commits (docs/schema-policy.md): which changes of a
// table's current schema a commit may make.
//
// `compatible` (the default) refuses what metadata/schema_compat.h calls breaking (drops,
// renames, optional→required, identifier-field changes, type changes other than the spec's
// promotions); `spec` allows every change the Iceberg spec (and so the builder) allows. The
// property firn.schema-evolution decides: the table's, as the commit leaves it (a commit that
// sets `spec` and drops a column in one go is allowed), else its namespace's, else its
// catalog's, else `compatible`. A value other than the two reads as `compatible` where it
// stands (stored before it was checked); callers setting one are refused
// (CheckSchemaEvolutionProperty).
// Errors: a refusal is kCommitFailed (409 CommitFailedException), final — the commit loop
// retries only a lost swap — naming the changes and the property.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "common/function_ref.h"
#include "common/result.h"
#include "metadata/schema_compat.h"
#include "metadata/table_metadata.h"
#include "store/store.h"

namespace firn::catalog {

inline constexpr std::string_view kSchemaEvolutionProperty = "firn.schema-evolution";

enum class SchemaEvolution { kCompatible, kSpec };

// The policy `props` name; nullopt when they name none.
std::optional<SchemaEvolution> SchemaEvolutionOf(const store::Properties& props);

// kBadRequest "Invalid <what>: firn.schema-evolution must be 'compatible' or 'spec'" when
// `props` (a map a caller is about to set) give the property another value.
Status CheckSchemaEvolutionProperty(std::string_view what, const store::Properties& props);

// Ok unless `result` (the metadata a commit would write over `base`) changes the current schema
// in a way the policy refuses. Returns at once, allocating nothing, when the current schema id
// is unchanged. `namespace_properties` (a database read) is called only when the schema change
// breaks readers and the table names no policy of its own.
Status CheckSchemaChange(const metadata::TableMetadata& base,
                         const metadata::TableMetadata& result,
                         FunctionRef<Result<store::Properties>()> namespace_properties,
                         const store::Properties& catalog_properties);

// The refusal of `changes` (not empty): kCommitFailed naming the first three and the property.
Error SchemaPolicyRefusal(const std::vector<metadata::SchemaBreak>& changes);

}  // namespace firn::catalog
