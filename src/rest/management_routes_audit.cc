// Firn extensions: GET /api/management/v1/audit — the audit trail of the caller's realm — and
// GET /api/management/v1/tasks — its durable tasks (docs/tasks.md).
#include "catalog/task_runner.h"
#include "common/macros.h"
#include "rest/management_routes_internal.h"
#include "rest/path_codec.h"
#include "rest/request_params.h"

namespace firn::rest::mgmt {
namespace {

json::object EntryJson(const store::AuditEntry& e) {
  json::object o;
  o["id"] = e.id;
  o["at"] = e.at_ms;
  o["realm"] = e.realm;
  o["catalog"] = e.catalog;
  o["principal"] = e.principal;
  o["client"] = e.client;
  o["requestId"] = e.request_id;
  o["operation"] = e.operation;
  o["object"] = e.object;
  o["oldLocation"] = e.old_location;
  o["newLocation"] = e.new_location;
  o["outcome"] = e.outcome;
  o["detail"] = e.detail;
  return o;
}

}  // namespace

void AddTasksRoute(Registrar& routes, access::ManagementService& service) {
  routes.Add(Method::kGet, "/tasks", [&service](const Call& c) -> Result<Response> {
    FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(c.req.query));
    store::TaskFilter filter;
    if (auto state = TextParam(query, "state")) {
      filter.state = store::TaskStateFromName(*state);
      if (!filter.state) {
        return Fail(ErrorKind::kBadRequest,
                    "Invalid state: must be pending, running, done or failed");
      }
    }
    filter.kind = TextParam(query, "kind").value_or("");
    FIRN_ASSIGN_OR_RETURN(auto limit, IntParam(query, "limit"));
    if (limit) filter.limit = *limit;
    FIRN_ASSIGN_OR_RETURN(auto tasks, service.ListTasks(c.ctx, filter));
    return JsonResponse(200, ListBody("tasks", tasks, catalog::TaskJson));
  });
}

void AddAuditRoute(Registrar& routes, access::ManagementService& service) {
  routes.Add(Method::kGet, "/audit",
             [&service](const Call& c) -> Result<Response> {
               FIRN_ASSIGN_OR_RETURN(QueryParams query, QueryParams::Parse(c.req.query));
               access::AuditQuery q;
               q.catalog = TextParam(query, "catalog");
               q.principal = TextParam(query, "principal");
               q.operation = TextParam(query, "operation");
               q.outcome = TextParam(query, "outcome");
               q.object_prefix = TextParam(query, "objectPrefix");
               FIRN_ASSIGN_OR_RETURN(q.since_ms, IntParam(query, "since"));
               FIRN_ASSIGN_OR_RETURN(q.until_ms, IntParam(query, "until"));
               FIRN_ASSIGN_OR_RETURN(q.after_id, IntParam(query, "afterId"));
               FIRN_ASSIGN_OR_RETURN(auto limit, IntParam(query, "limit"));
               if (limit) q.limit = *limit;
               FIRN_ASSIGN_OR_RETURN(access::AuditPage page, service.ListAudit(c.ctx, q));
               json::object body = ListBody("entries", page.entries, EntryJson);
               if (page.next) {
                 body["next"] = *page.next;
               } else {
                 body["next"] = nullptr;
               }
               return JsonResponse(200, body);
             });
}

}  // namespace firn::rest::mgmt
