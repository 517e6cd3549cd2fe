// The audit trail (GET /api/management/v1/audit): filters in the address, newest entries first;
// "From the oldest" pages forward with afterId / next.
import * as api from "../api.js";
import { code, dataTable, details, errorBox, fmtTime, h, kv, onSubmit, replace, section } from "../dom.js";
import { link } from "../links.js";

const FILTERS = ["catalog", "principal", "operation", "outcome", "objectPrefix", "since", "until", "limit", "order"];

// datetime-local value (local time) ↔ epoch ms
function toMs(local) {
  if (!local) return undefined;
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

function entriesTable(entries) {
  return dataTable([
    { label: "Id", value: (e) => e.id, num: true },
    { label: "At", value: (e) => fmtTime(e.at) },
    { label: "Principal", value: (e) => e.principal },
    { label: "Operation", value: (e) => h("span", { class: "audit-operation" }, e.operation) },
    { label: "Catalog", value: (e) => e.catalog },
    { label: "Object", value: (e) => h("span", { class: "audit-object" }, e.object) },
    { label: "Outcome", value: (e) => h("span", { class: e.outcome === "success" ? "tag" : "tag fail" }, e.outcome) },
    { label: "Details", value: (e) => details("more", kv([
      ["Client", e.client], ["Request id", code(e.requestId ?? "")], ["Realm", e.realm],
      ["Old location", code(e.oldLocation ?? "")], ["New location", code(e.newLocation ?? "")],
      ["Detail", e.detail],
    ])) },
  ], entries, { empty: "No audit entries match.", testid: "audit-entries" });
}

export async function auditPage(page, _params, query) {
  const f = Object.fromEntries(FILTERS.map((k) => [k, query.get(k) ?? ""]));
  const input = (name, label, attrs = {}) => h("label", {}, label, h("input", { name, value: f[name], ...attrs }));
  const form = h("form", { class: "inline", id: "audit-filter" },
    input("catalog", "Catalog"),
    input("principal", "Principal"),
    input("operation", "Operation", { placeholder: "e.g. updateTable" }),
    input("outcome", "Outcome", { placeholder: "e.g. success, CommitFailed" }),
    input("objectPrefix", "Object starts with", { placeholder: "e.g. table db.t" }),
    input("since", "Since (local time)", { type: "datetime-local", step: 1 }),
    input("until", "Until (local time)", { type: "datetime-local", step: 1 }),
    input("limit", "Limit", { type: "number", min: 1, max: 1000, placeholder: "100" }),
    h("label", {}, "Order", h("select", { name: "order" },
      h("option", { value: "", selected: f.order !== "oldest" }, "newest first"),
      h("option", { value: "oldest", selected: f.order === "oldest" }, "from the oldest (pages)"))),
    h("button", { type: "submit", id: "audit-apply" }, "Apply"));
  onSubmit(form, h("div"), (values) => {
    window.location.hash = link.audit(values);
  });
  const results = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  page.append(h("h1", {}, "Audit trail"), section("Filter", form), h("section", {}, results));

  const q = {
    catalog: f.catalog, principal: f.principal, operation: f.operation, outcome: f.outcome,
    objectPrefix: f.objectPrefix,
    since: toMs(f.since), until: toMs(f.until), limit: f.limit,
  };
  const rows = [];
  const fetchPage = async (afterId) => {
    try {
      const body = await api.get(`${api.MGMT}/audit`, { ...q, afterId });
      rows.push(...(body?.entries ?? []));
      replace(results, entriesTable(rows));
      if (body?.next !== null && body?.next !== undefined) {
        results.append(h("button", { type: "button", class: "secondary", onclick: (ev) => {
          ev.target.remove();
          fetchPage(body.next);
        } }, "Next page"));
      }
    } catch (err) {
      if (rows.length) results.append(errorBox(err));
      else replace(results, errorBox(err));
    }
  };
  await fetchPage(f.order === "oldest" ? 0 : undefined);
}
