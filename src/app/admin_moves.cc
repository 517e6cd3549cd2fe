#include "app/admin_moves.h"

#include <boost/json.hpp>

#include <iostream>
#include <memory>

#include "app/admin_commands.h"
#include "app/admin_service.h"
#include "catalog/catalog_service.h"
#include "catalog/identifier_json.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::app {
namespace {

int Failed(const Error& e, int code = 1) {
  ReportAdminFailure("firn admin move-table", e);
  return code;
}

boost::json::object Side(const store::CatalogScope& scope, const store::Identifier& id) {
  boost::json::object o;
  o["catalog"] = scope.catalog;
  catalog::PutIdentifier(o, id);
  return o;
}

Result<catalog::MovedObject> Move(const MoveTableArgs& args, const store::Identifier& from,
                                  const store::Identifier& to) {
  FIRN_ASSIGN_OR_RETURN(std::unique_ptr<AdminService> admin, OpenAdminService(args.store));
  FIRN_ASSIGN_OR_RETURN(catalog::RequestContext ctx,
                        admin->Context(args.realm, args.catalog, "admin-move-table"));
  ctx.client = "firn admin move-table";
  return admin->service->MoveObject(
      ctx, args.view ? store::ObjectKind::kView : store::ObjectKind::kTable, from,
      args.to_catalog, to);
}

}  // namespace

int RunAdminMoveTable(const MoveTableArgs& args) {
  log::Init("info");  // log lines to stderr: stdout is the result's JSON line
  auto from = ParseTableArg(args.table, "--table");
  if (!from) return Failed(from.error(), 2);
  store::Identifier to = *from;
  if (!args.to.empty()) {
    auto parsed = ParseTableArg(args.to, "--to");
    if (!parsed) return Failed(parsed.error(), 2);
    to = std::move(*parsed);
  }
  if (args.to_catalog.empty()) {
    return Failed(Error(ErrorKind::kIllegalArgument, "--to-catalog is required"), 2);
  }
  auto moved = Move(args, *from, to);
  if (!moved) return Failed(moved.error());
  boost::json::object line;
  line["kind"] = moved->kind == store::ObjectKind::kTable ? "table" : "view";
  line["from"] = Side(moved->from_scope, moved->from);
  line["to"] = Side(moved->to_scope, moved->to);
  line["metadata_location"] = moved->metadata_location;
  std::cout << boost::json::serialize(line) << "\n";
  return 0;
}

}  // namespace firn::app
