#include "catalog/audit.h"

#include <spdlog/spdlog.h>

#include "common/log.h"

namespace firn::catalog {
namespace {
std::string Dotted(const store::Namespace& ns) {
  std::string out;
  for (const auto& level : ns) {
    if (!out.empty()) out.push_back('.');
    out += level;
  }
  return out;
}
}  // namespace

std::string AuditObject(const store::Namespace& ns) { return "namespace " + Dotted(ns); }

std::string AuditObject(const store::Identifier& id, store::ObjectKind kind) {
  std::string ns = Dotted(id.ns);
  return std::string(kind == store::ObjectKind::kTable ? "table " : "view ") +
         (ns.empty() ? "" : ns + ".") + id.name;
}

store::AuditEntry MakeAudit(const RequestContext& ctx, auth::Operation op,
                            std::string object, std::string old_location,
                            std::string new_location) {
  store::AuditEntry e;
  e.realm = ctx.scope.realm;
  e.catalog = ctx.scope.catalog;
  if (ctx.caller) e.principal = ctx.caller->subject.principal;
  e.client = ctx.client.empty() ? ctx.user_agent : ctx.client;
  e.request_id = ctx.request_id;
  e.operation = std::string(auth::AuditName(op));
  e.object = std::move(object);
  e.old_location = std::move(old_location);
  e.new_location = std::move(new_location);
  e.outcome = "success";
  return e;
}

void RecordRefusal(store::CatalogStore& store, store::AuditEntry entry, const Error& error) {
  entry.outcome = std::string(ErrorKindName(error.kind));
  entry.detail = error.message.substr(0, 512);
  if (auto st = store.AppendAudit(entry); !st) {
    spdlog::warn(R"("msg":"could not record refused commit in the audit trail","object":"{}","error":"{}")",
                 log::Escape(entry.object), log::Escape(st.error().message));
  }
}

}  // namespace firn::catalog
