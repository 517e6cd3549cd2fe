// CommitTableRequest bodies: requirements and updates (rest::ParseTableChange), then what a
// commit does with them — the requirements checked and the updates applied to a real v2 table
// (tests/fixtures) and to no table (a create transaction).
// Properties: no crash; whenever updates apply, the result serialises to metadata that parses
// again (a commit never writes a file Firn cannot load).
#include <string>

#include "metadata/builder.h"
#include "metadata/serde.h"
#include "metadata/table_requirement.h"
#include "rest/json_fields.h"
#include "rest/table_change_parser.h"
#include "fuzz_support.h"

namespace {

const firn::metadata::TableMetadata& Base() {
  static const firn::metadata::TableMetadata base = [] {
    auto parsed = firn::metadata::ParseTableMetadata(
        firn::fuzz::ReadSourceFile("tests/fixtures/metadata/v2_full.metadata.json"));
    FIRN_FUZZ_CHECK(parsed.has_value(), "fixture parses");
    return *parsed;
  }();
  return base;
}

void CheckApplied(const firn::metadata::TableMetadata* base,
                  const std::vector<firn::metadata::TableUpdate>& updates) {
  firn::metadata::CommitContext ctx;
  ctx.now_ms = 1700000000000;
  if (base) ctx.base_location = "file:///wh/db/t/metadata/00001-x.metadata.json";
  auto applied = firn::metadata::ApplyUpdates(base, updates, ctx);
  if (!applied) return;
  std::string text = firn::metadata::SerializeTableMetadata(applied->metadata);
  auto reread = firn::metadata::ParseTableMetadata(text);
  FIRN_FUZZ_CHECK(reread.has_value(), "applied metadata parses again");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The body read as the commit route reads it (refusing, e.g., numbers beyond a double).
  auto json = firn::rest::ParseJsonBody(firn::fuzz::AsView(data, size));
  if (!json) return 0;
  firn::store::Identifier path_id{{"db"}, "t"};
  auto change = firn::rest::ParseTableChange(*json, &path_id);
  if (!change) return 0;
  const firn::metadata::TableMetadata& base = Base();
  if (firn::metadata::CheckRequirements(change->requirements, &base)) {
    CheckApplied(&base, change->updates);
  }
  if (firn::metadata::CheckRequirements(change->requirements, nullptr)) {
    CheckApplied(nullptr, change->updates);
  }
  return 0;
}
