// Management routes: /catalogs/{catalogName}/catalog-roles/{catalogRoleName}/grants.
#include "common/macros.h"
#include "rest/json_fields.h"
#include "rest/management_routes_internal.h"
#include "rest/path_codec.h"
#include "rest/request_params.h"

namespace firn::rest::mgmt {
namespace {

using access::GrantResource;
using auth::SecurableType;

constexpr std::string_view kGrantsPath =
    "/catalogs/{catalogName}/catalog-roles/{catalogRoleName}/grants";

// GrantResource: discriminated by "type" (catalog | namespace | table | view).
Result<GrantResource> ParseGrant(const json::object& body) {
  FIRN_ASSIGN_OR_RETURN(json::object g, MemberObject(body, "grant"));
  FIRN_ASSIGN_OR_RETURN(std::string type, RequiredString(g, "type"));
  FIRN_ASSIGN_OR_RETURN(std::string privilege, RequiredString(g, "privilege"));
  GrantResource out;
  if (type == "catalog") {
    out.type = SecurableType::kCatalog;
  } else if (type == "namespace") {
    out.type = SecurableType::kNamespace;
  } else if (type == "table") {
    out.type = SecurableType::kTable;
  } else if (type == "view") {
    out.type = SecurableType::kView;
  } else if (type == "policy") {
    return Fail(ErrorKind::kBadRequest, "Policy grants are not supported by Firn");
  } else {
    return Fail(ErrorKind::kBadRequest,
                "Invalid grant: 'type' must be catalog, namespace, table or view");
  }
  auto p = auth::ParsePrivilege(privilege);
  if (!p) return Fail(ErrorKind::kBadRequest, "Invalid grant: unknown privilege " + privilege);
  out.privilege = *p;
  if (out.type != SecurableType::kCatalog) {
    FIRN_ASSIGN_OR_RETURN(out.namespace_levels, NamespaceField(g, "namespace"));
  }
  if (out.type == SecurableType::kTable) {
    FIRN_ASSIGN_OR_RETURN(out.name, RequiredString(g, "tableName"));
  } else if (out.type == SecurableType::kView) {
    FIRN_ASSIGN_OR_RETURN(out.name, RequiredString(g, "viewName"));
  }
  return out;
}

json::object GrantJson(const GrantResource& g) {
  json::object o;
  o["type"] = auth::SecurableTypeName(g.type);
  if (g.type != SecurableType::kCatalog) o["namespace"] = NamespaceToJson(g.namespace_levels);
  if (g.type == SecurableType::kTable) o["tableName"] = g.name;
  if (g.type == SecurableType::kView) o["viewName"] = g.name;
  o["privilege"] = auth::PrivilegeName(g.privilege);
  return o;
}

}  // namespace

void AddGrantRoutes(Registrar& routes, access::ManagementService& service) {
  AddListRoute(routes, kGrantsPath, service, &Service::ListGrants, "grants", GrantJson);

  routes.Add(Method::kPut, kGrantsPath, [&service](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(c.req));
    FIRN_ASSIGN_OR_RETURN(GrantResource grant, ParseGrant(body));
    FIRN_RETURN_IF_ERROR(service.AddGrant(c.ctx, c.names[0], c.names[1], grant));
    return Response::Empty(201);
  });

  routes.Add(Method::kPost, kGrantsPath, [&service](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(c.req.query));
    FIRN_ASSIGN_OR_RETURN(bool cascade, BoolParam(query, "cascade"));
    FIRN_ASSIGN_OR_RETURN(json::object body, BodyObject(c.req));
    FIRN_ASSIGN_OR_RETURN(GrantResource grant, ParseGrant(body));
    FIRN_RETURN_IF_ERROR(service.RevokeGrant(c.ctx, c.names[0], c.names[1], grant, cascade));
    return Response::Empty(201);  // the spec's status for a revoke
  });
}

}  // namespace firn::rest::mgmt
