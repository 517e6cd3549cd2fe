#include "catalog/schema_policy.h"

#include <string>

#include "common/macros.h"

namespace firn::catalog {

namespace {

constexpr std::string_view kCompatible = "compatible";
constexpr std::string_view kSpec = "spec";
constexpr size_t kChangesNamed = 3;

const std::string* ValueIn(const store::Properties& props) {
  auto it = props.find(std::string(kSchemaEvolutionProperty));
  return it == props.end() ? nullptr : &it->second;
}

}  // namespace

std::optional<SchemaEvolution> SchemaEvolutionOf(const store::Properties& props) {
  const std::string* value = ValueIn(props);
  if (value == nullptr) return std::nullopt;
  return *value == kSpec ? SchemaEvolution::kSpec : SchemaEvolution::kCompatible;
}

Status CheckSchemaEvolutionProperty(std::string_view what, const store::Properties& props) {
  const std::string* value = ValueIn(props);
  if (value == nullptr || *value == kCompatible || *value == kSpec) return Ok();
  return Fail(ErrorKind::kBadRequest, "Invalid " + std::string(what) + ": " +
                                          std::string(kSchemaEvolutionProperty) + " must be '" +
                                          std::string(kCompatible) + "' or '" +
                                          std::string(kSpec) + "'");
}

Status CheckSchemaChange(const metadata::TableMetadata& base,
                         const metadata::TableMetadata& result,
                         FunctionRef<Result<store::Properties>()> namespace_properties,
                         const store::Properties& catalog_properties) {
  if (base.current_schema_id == result.current_schema_id) return Ok();
  const metadata::Schema* from = base.CurrentSchema();
  const metadata::Schema* to = result.CurrentSchema();
  if (from == nullptr || to == nullptr) return Ok();  // the builder keeps both; never here
  std::optional<SchemaEvolution> policy = SchemaEvolutionOf(result.properties);
  if (policy == SchemaEvolution::kSpec) return Ok();
  const std::vector<metadata::SchemaBreak> changes =
      metadata::BreakingSchemaChanges(*from, *to, result.format_version);
  if (changes.empty()) return Ok();
  if (!policy) {
    FIRN_ASSIGN_OR_RETURN(store::Properties ns_props, namespace_properties());
    policy = SchemaEvolutionOf(ns_props);
  }
  if (!policy) policy = SchemaEvolutionOf(catalog_properties);
  if (policy == SchemaEvolution::kSpec) return Ok();
  return Fail(SchemaPolicyRefusal(changes));
}

Error SchemaPolicyRefusal(const std::vector<metadata::SchemaBreak>& changes) {
  std::string named;
  for (size_t i = 0; i < changes.size() && i < kChangesNamed; ++i) {
    named += (i ? ", " : "") + metadata::DescribeSchemaBreak(changes[i]);
  }
  if (changes.size() > kChangesNamed) {
    const size_t more = changes.size() - kChangesNamed;
    named += " and " + std::to_string(more) + (more == 1 ? " more change" : " more changes");
  }
  return Error(ErrorKind::kCommitFailed,
               "Schema change refused by the schema-evolution policy: " + named +
                   "; set the table, namespace or catalog property " +
                   std::string(kSchemaEvolutionProperty) + "=" + std::string(kSpec) +
                   " to allow every change the Iceberg spec allows");
}

}  // namespace firn::catalog
